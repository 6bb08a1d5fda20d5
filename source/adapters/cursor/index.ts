import type {JsonlAdapter} from '../types.js';
import {cursorTextVariant} from './discover.js';
import {normalizeCursorLine} from './normalize.js';
import {cursorStore} from './store.js';
import {loadCursorText} from './text.js';

export const cursorAdapter: JsonlAdapter = {
	...cursorStore,
	format: 'jsonl',
	normalizeLine: normalizeCursorLine,
	documents: {variant: cursorTextVariant, loadSession: loadCursorText},
};
