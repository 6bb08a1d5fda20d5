import type {JsonlAdapter} from '../types.js';
import {normalizeAntigravityLine} from './normalize.js';
import {antigravityStore} from './store.js';

export const antigravityAdapter: JsonlAdapter = {...antigravityStore, format: 'jsonl', normalizeLine: normalizeAntigravityLine};
