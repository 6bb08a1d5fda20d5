import type {DocumentAdapter, JsonlAdapter} from '../types.js';
import {vscodeReaders} from './load.js';
import {vscodeStore} from './store.js';

/** VS Code's reader; `events` reads Copilot Chat's transcripts (Copilot CLI's event log: adapters/index.ts hands in Copilot's reader). */
export function vscodeAdapterReading(events: JsonlAdapter): DocumentAdapter {
	return {...vscodeStore, format: 'document', ...vscodeReaders(events)};
}
