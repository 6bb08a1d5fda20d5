import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverCodex} from './discover.js';
import {codexRoots, resolveCodexRoot} from './paths.js';

export const codexStore: SourceStore = {
	id: 'codex',
	label: 'Codex CLI',
	format: 'jsonl',
	defaultRoots: codexRoots,
	resolveRoot: resolveCodexRoot,
	discover: discoverCodex,
	nativeResumeCommand: id => resumeCommand('codex resume', id),
	retirement: (_unit, root) => ({directories: [], boundary: root}),
};
