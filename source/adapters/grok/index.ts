import type {DocumentAdapter} from '../types.js';
import {grokRowsAt, loadGrokSession} from './load.js';
import {grokStore} from './store.js';

export const grokAdapter: DocumentAdapter = {...grokStore, format: 'document', loadSession: loadGrokSession, rowsAt: grokRowsAt};
