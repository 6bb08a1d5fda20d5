import type {SourceStore} from '../types.js';
import {discoverVscode} from './discover.js';
import {resolveVscodeRoot, vscodeRoots} from './paths.js';

export const vscodeStore: SourceStore = {
	id: 'vscode',
	label: 'VS Code chat',
	format: 'document',
	defaultRoots: vscodeRoots,
	resolveRoot: resolveVscodeRoot,
	discover: discoverVscode,
	// VS Code has no command that reopens a chat session by id.
	nativeResumeCommand: () => null,
};
