import {sessionDirectory} from '../shared/retire.js';
import type {SourceStore} from '../types.js';
import {discoverCopilot} from './discover.js';
import {copilotRoots, resolveCopilotRoot} from './paths.js';

/** Ids are uuids; anything else is not put into a command line a person may paste. */
const safeId = /^[A-Za-z0-9._-]+$/;

export const copilotStore: SourceStore = {
	id: 'copilot',
	label: 'GitHub Copilot CLI',
	format: 'jsonl',
	defaultRoots: copilotRoots,
	resolveRoot: resolveCopilotRoot,
	discover: discoverCopilot,
	nativeResumeCommand: id => (safeId.test(id) ? `copilot --resume ${id}` : null),
	// The legacy flat `<id>.jsonl` is one file; `<id>/` holds events.jsonl and its sidecars.
	retirement: (unit, root, id) => (unit.variant === 'legacy-flat' ? {directories: [], boundary: root} : sessionDirectory(unit, root, id)),
};
