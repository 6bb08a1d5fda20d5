import type {SourceStore} from '../types.js';
import {discoverCodex} from './discover.js';
import {codexRoots, resolveCodexRoot} from './paths.js';

/** Ids are uuids; anything else is not put into a command line a person may paste. */
const safeId = /^[A-Za-z0-9._-]+$/;

export const codexStore: SourceStore = {
	id: 'codex',
	label: 'Codex CLI',
	format: 'jsonl',
	defaultRoots: codexRoots,
	resolveRoot: resolveCodexRoot,
	discover: discoverCodex,
	nativeResumeCommand: id => (safeId.test(id) ? `codex resume ${id}` : null),
	retirement: (_unit, root) => ({directories: [], boundary: root}),
};
