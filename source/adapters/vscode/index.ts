import type {DocumentAdapter} from '../types.js';
import {discoverVscode} from './discover.js';
import {loadVscodeSession} from './load.js';
import {resolveVscodeRoot, vscodeRoots} from './paths.js';

export const vscodeAdapter: DocumentAdapter = {
	id: 'vscode',
	label: 'VS Code chat',
	format: 'document',
	defaultRoots: vscodeRoots,
	resolveRoot: resolveVscodeRoot,
	discover: discoverVscode,
	loadSession: loadVscodeSession,
	// VS Code has no command that reopens a chat session by id.
	nativeResumeCommand: () => null,
};
