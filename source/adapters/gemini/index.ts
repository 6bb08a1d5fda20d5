import type {DocumentAdapter} from '../types.js';
import {geminiRowsAt, loadGeminiSession} from './load.js';
import {geminiResumeCommand, geminiResumeUnavailable} from './resume.js';
import {geminiStore} from './store.js';

export const geminiAdapter: DocumentAdapter = {
	...geminiStore,
	format: 'document',
	loadSession: loadGeminiSession,
	rowsAt: geminiRowsAt,
	nativeResumeCommand: geminiResumeCommand,
	nativeResumeUnavailable: geminiResumeUnavailable,
};
