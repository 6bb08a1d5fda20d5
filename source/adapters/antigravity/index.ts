import type {JsonlAdapter} from '../types.js';
import {discoverAntigravity} from './discover.js';
import {normalizeAntigravityLine} from './normalize.js';
import {antigravityRoots, resolveAntigravityRoot} from './paths.js';
import {antigravityRetirement} from './retire.js';

export const antigravityAdapter: JsonlAdapter = {
	id: 'antigravity',
	label: 'Google Antigravity',
	format: 'jsonl',
	defaultRoots: antigravityRoots,
	resolveRoot: resolveAntigravityRoot,
	discover: discoverAntigravity,
	normalizeLine: normalizeAntigravityLine,
	// Not confirmed in a published source (a third-party reader uses `agy --conversation <id>`).
	nativeResumeCommand: () => null,
	retirement: antigravityRetirement,
};
