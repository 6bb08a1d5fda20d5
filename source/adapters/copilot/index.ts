import type {JsonlAdapter} from '../types.js';
import {normalizeCopilotLine} from './normalize.js';
import {copilotResumeCommand, copilotResumeUnavailable} from './resume.js';
import {copilotStore} from './store.js';

export const copilotAdapter: JsonlAdapter = {
	...copilotStore,
	format: 'jsonl',
	normalizeLine: normalizeCopilotLine,
	nativeResumeCommand: copilotResumeCommand,
	nativeResumeUnavailable: copilotResumeUnavailable,
};
