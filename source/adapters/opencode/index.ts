import type {DocumentAdapter} from '../types.js';
import {databaseRowsAt, loadOpencodeSession} from './load.js';
import {opencodeResumeCommand, opencodeResumeUnavailable} from './resume.js';
import {opencodeStore} from './store.js';

export const opencodeAdapter: DocumentAdapter = {
	...opencodeStore,
	format: 'database',
	loadSession: loadOpencodeSession,
	rowsAt: databaseRowsAt,
	nativeResumeCommand: opencodeResumeCommand,
	nativeResumeUnavailable: opencodeResumeUnavailable,
};
