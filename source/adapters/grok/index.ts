import type {DocumentAdapter} from '../types.js';
import {grokRowsAt, loadGrokSession} from './load.js';
import {grokResumeCommand, grokResumeUnavailable} from './resume.js';
import {grokStore} from './store.js';

export const grokAdapter: DocumentAdapter = {
	...grokStore,
	format: 'document',
	loadSession: loadGrokSession,
	rowsAt: grokRowsAt,
	nativeResumeCommand: grokResumeCommand,
	nativeResumeUnavailable: grokResumeUnavailable,
};
