import type {JsonlAdapter} from '../types.js';
import {normalizeCodexLine} from './normalize.js';
import {codexStore} from './store.js';

export const codexAdapter: JsonlAdapter = {...codexStore, format: 'jsonl', normalizeLine: normalizeCodexLine};
