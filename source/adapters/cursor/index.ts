import type {JsonlAdapter} from '../types.js';
import {discoverCursor} from './discover.js';
import {normalizeCursorLine} from './normalize.js';
import {cursorRoots, resolveCursorRoot} from './paths.js';

export const cursorAdapter: JsonlAdapter = {
	id: 'cursor',
	label: 'Cursor',
	format: 'jsonl',
	recordsToolResults: false,
	defaultRoots: cursorRoots,
	resolveRoot: resolveCursorRoot,
	discover: discoverCursor,
	normalizeLine: normalizeCursorLine,
	// `cursor-agent --resume <chatId>` exists, but whether a transcript id is such a chat id
	// (IDE transcripts are not CLI chats) is unverified: no command is better than a wrong one.
	nativeResumeCommand: () => null,
};
