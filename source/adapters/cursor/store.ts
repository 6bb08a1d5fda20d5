import type {SourceStore} from '../types.js';
import {discoverCursor} from './discover.js';
import {cursorRoots, resolveCursorRoot} from './paths.js';

export const cursorStore: SourceStore = {
	id: 'cursor',
	label: 'Cursor',
	format: 'jsonl',
	recordsToolResults: false,
	defaultRoots: cursorRoots,
	resolveRoot: resolveCursorRoot,
	discover: discoverCursor,
	// `cursor-agent --resume <chatId>` exists, but whether a transcript id is such a chat id
	// (IDE transcripts are not CLI chats) is unverified: no command is better than a wrong one.
	nativeResumeCommand: () => null,
};
