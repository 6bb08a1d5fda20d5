import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverOpencode} from './discover.js';
import {opencodeRoots, resolveOpencodeRoot} from './paths.js';
import {opencodeRetirement} from './retire.js';

export const opencodeStore: SourceStore = {
	id: 'opencode',
	label: 'OpenCode',
	format: 'database',
	defaultRoots: opencodeRoots,
	resolveRoot: resolveOpencodeRoot,
	discover: discoverOpencode,
	// `opencode [project] --session <id>` continues a session in the TUI (cli/cmd/tui, option "session").
	nativeResumeCommand: id => resumeCommand('opencode --session', id),
	retirement: opencodeRetirement,
};
