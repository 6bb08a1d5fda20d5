import type {JsonlAdapter} from '../types.js';
import {normalizeCopilotLine} from './normalize.js';
import {copilotResumeCommand, copilotResumeUnavailable} from './resume.js';
import {loadSessionStoreSession} from './session-store-load.js';
import {sessionStoreVariant} from './session-store.js';
import {copilotStore} from './store.js';

export const copilotAdapter: JsonlAdapter = {
	...copilotStore,
	format: 'jsonl',
	normalizeLine: normalizeCopilotLine,
	// Sessions kept only in session-store.db are read whole, as a document store's are.
	documents: {variant: sessionStoreVariant, loadSession: loadSessionStoreSession},
	nativeResumeCommand: copilotResumeCommand,
	nativeResumeUnavailable: copilotResumeUnavailable,
};
