import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverQwen} from './discover.js';
import {qwenRoots, resolveQwenRoot} from './paths.js';

/**
 * Qwen Code's reader joins the records written under one uuid into one message, so a chat is
 * loaded whole rather than normalised line by line. Rewound branches stay in the rows: the uuid/parentUuid
 * tree lets the engine pick the active branch.
 */
export const qwenStore: SourceStore = {
	id: 'qwen',
	label: 'Qwen Code',
	format: 'document',
	defaultRoots: qwenRoots,
	resolveRoot: resolveQwenRoot,
	discover: discoverQwen,
	// `qwen --resume <id>`, run from the chat's project (resume.ts decides the runtime directory).
	nativeResumeCommand: id => resumeCommand('qwen --resume', id),
	retirement: (_unit, root) => ({directories: [], boundary: root}),
};
