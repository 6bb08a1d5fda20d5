import type {DocumentAdapter} from '../types.js';
import {loadQwenSession, qwenRowsAt} from './load.js';
import {qwenResumeCommand, qwenResumeUnavailable} from './resume.js';
import {qwenStore} from './store.js';

export const qwenAdapter: DocumentAdapter = {
	...qwenStore,
	format: 'document',
	loadSession: loadQwenSession,
	rowsAt: qwenRowsAt,
	nativeResumeCommand: qwenResumeCommand,
	nativeResumeUnavailable: qwenResumeUnavailable,
};
