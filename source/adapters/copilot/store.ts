import {sessionDirectory} from '../shared/retire.js';
import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverCopilot} from './discover.js';
import {copilotRoots, resolveCopilotRoot} from './paths.js';
import {sessionStoreVariant} from './session-store.js';

export const copilotStore: SourceStore = {
	id: 'copilot',
	label: 'GitHub Copilot CLI',
	format: 'jsonl',
	defaultRoots: copilotRoots,
	resolveRoot: resolveCopilotRoot,
	discover: discoverCopilot,
	nativeResumeCommand: id => resumeCommand('copilot --resume', id),
	// The legacy flat `<id>.jsonl` is one file; `<id>/` holds events.jsonl and its sidecars. A
	// session read from session-store.db lives in a database every session shares: never retired.
	retirement: (unit, root, id) =>
		unit.variant === sessionStoreVariant ? undefined : unit.variant === 'legacy-flat' ? {directories: [], boundary: root} : sessionDirectory(unit, root, id),
};
