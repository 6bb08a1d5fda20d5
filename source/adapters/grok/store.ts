import {resumeCommand} from '../shared/resume.js';
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
	// `grok --resume <session-id>` (resume.ts decides the home and when it cannot).
	nativeResumeCommand: id => resumeCommand('grok --resume', id),
	retirement: sessionDirectory,
};
