import type {JsonlAdapter} from '../types.js';
import {codexDocumentVariant} from './discover.js';
import {loadCodexDocument} from './load.js';
import {normalizeCodexLine} from './normalize.js';
import {codexResumeCommand} from './resume.js';
import {codexStore} from './store.js';

export const codexAdapter: JsonlAdapter = {
	...codexStore,
	format: 'jsonl',
	normalizeLine: normalizeCodexLine,
	documents: {variant: codexDocumentVariant, loadSession: loadCodexDocument},
	nativeResumeCommand: codexResumeCommand,
};
