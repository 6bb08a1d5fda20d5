import type {JsonlAdapter} from '../types.js';
import {stepDatabaseVariant} from './discover.js';
import {normalizeAntigravityLine} from './normalize.js';
import {loadAntigravityStepDb} from './step-db.js';
import {antigravityStore} from './store.js';

export const antigravityAdapter: JsonlAdapter = {
	...antigravityStore,
	format: 'jsonl',
	normalizeLine: normalizeAntigravityLine,
	documents: {variant: stepDatabaseVariant, loadSession: loadAntigravityStepDb},
};
