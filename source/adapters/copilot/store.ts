import {sessionDirectory} from '../shared/retire.js';
import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverCopilot} from './discover.js';
import {copilotRoots, resolveCopilotRoot} from './paths.js';

export const copilotStore: SourceStore = {
	id: 'copilot',
	label: 'GitHub Copilot CLI',
	format: 'jsonl',
	defaultRoots: copilotRoots,
	resolveRoot: resolveCopilotRoot,
	discover: discoverCopilot,
	nativeResumeCommand: id => resumeCommand('copilot --resume', id),
	// The legacy flat `<id>.jsonl` is one file; `<id>/` holds events.jsonl and its sidecars.
	retirement: (unit, root, id) => (unit.variant === 'legacy-flat' ? {directories: [], boundary: root} : sessionDirectory(unit, root, id)),
};
