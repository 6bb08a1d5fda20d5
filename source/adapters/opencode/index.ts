import type {DocumentAdapter} from '../types.js';
import {databaseRowsAt, loadOpencodeSession} from './load.js';
import {opencodeStore} from './store.js';

export const opencodeAdapter: DocumentAdapter = {...opencodeStore, format: 'database', loadSession: loadOpencodeSession, rowsAt: databaseRowsAt};
