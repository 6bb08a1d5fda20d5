import type {JsonlAdapter} from '../types.js';
import {normalizeCursorLine} from './normalize.js';
import {cursorStore} from './store.js';

export const cursorAdapter: JsonlAdapter = {...cursorStore, format: 'jsonl', normalizeLine: normalizeCursorLine};
