import type {JsonlAdapter} from '../types.js';
import {discoverCodex} from './discover.js';
import {normalizeCodexLine} from './normalize.js';
import {codexRoots, resolveCodexRoot} from './paths.js';

/** Ids are uuids; anything else is not put into a command line a person may paste. */
const safeId = /^[A-Za-z0-9._-]+$/;

export const codexAdapter: JsonlAdapter = {
	id: 'codex',
	label: 'Codex CLI',
	format: 'jsonl',
	defaultRoots: codexRoots,
	resolveRoot: resolveCodexRoot,
	discover: discoverCodex,
	normalizeLine: normalizeCodexLine,
	nativeResumeCommand: id => (safeId.test(id) ? `codex resume ${id}` : null),
	retirement: (_unit, root) => ({directories: [], boundary: root}),
};
