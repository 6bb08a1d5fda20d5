import type {DocumentAdapter} from '../types.js';
import {loadVscodeSession, vscodeRowsOnLines} from './load.js';
import {vscodeStore} from './store.js';

export const vscodeAdapter: DocumentAdapter = {...vscodeStore, format: 'document', loadSession: loadVscodeSession, rowsOnLines: vscodeRowsOnLines};
