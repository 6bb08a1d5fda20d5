import {sessionDirectory} from '../shared/retire.js';
import type {SourceStore} from '../types.js';
import {discoverGrok} from './discover.js';
import {grokRoots, resolveGrokRoot} from './paths.js';

export const grokStore: SourceStore = {
	id: 'grok',
	label: 'Grok Build',
	format: 'document',
	defaultRoots: grokRoots,
	resolveRoot: resolveGrokRoot,
	discover: discoverGrok,
	// The grok CLI resumes sessions, but its exact flag was not verified: no command is better than a wrong one.
	nativeResumeCommand: () => null,
	retirement: sessionDirectory,
};
