import {sessionDirectory} from '../shared/retire.js';
import type {DocumentAdapter} from '../types.js';
import {discoverGrok} from './discover.js';
import {grokRowsAt, loadGrokSession} from './load.js';
import {grokRoots, resolveGrokRoot} from './paths.js';

export const grokAdapter: DocumentAdapter = {
	id: 'grok',
	label: 'Grok Build',
	format: 'document',
	defaultRoots: grokRoots,
	resolveRoot: resolveGrokRoot,
	discover: discoverGrok,
	loadSession: loadGrokSession,
	rowsAt: grokRowsAt,
	// The grok CLI resumes sessions, but its exact flag was not verified: no command is better than a wrong one.
	nativeResumeCommand: () => null,
	retirement: sessionDirectory,
};
