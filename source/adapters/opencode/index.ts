import type {DocumentAdapter} from '../types.js';
import {discoverOpencode} from './discover.js';
import {databaseRowsAt, loadOpencodeSession} from './load.js';
import {opencodeRoots, resolveOpencodeRoot} from './paths.js';
import {opencodeRetirement} from './retire.js';

export const opencodeAdapter: DocumentAdapter = {
	id: 'opencode',
	label: 'OpenCode',
	format: 'database',
	defaultRoots: opencodeRoots,
	resolveRoot: resolveOpencodeRoot,
	discover: discoverOpencode,
	loadSession: loadOpencodeSession,
	rowsAt: databaseRowsAt,
	// `opencode [project] --session <id>` continues a session in the TUI (cli/cmd/tui, option "session").
	nativeResumeCommand: id => `opencode --session ${id}`,
	retirement: opencodeRetirement,
};
