import type {SourceStore} from '../types.js';
import {discoverAntigravity} from './discover.js';
import {antigravityRoots, resolveAntigravityRoot} from './paths.js';
import {antigravityRetirement} from './retire.js';

export const antigravityStore: SourceStore = {
	id: 'antigravity',
	label: 'Google Antigravity',
	format: 'jsonl',
	defaultRoots: antigravityRoots,
	resolveRoot: resolveAntigravityRoot,
	discover: discoverAntigravity,
	// Not confirmed in a published source (a third-party reader uses `agy --conversation <id>`).
	nativeResumeCommand: () => null,
	retirement: antigravityRetirement,
};
