import {besideTranscript} from '../shared/retire.js';
import type {JsonlAdapter} from '../types.js';
import {discoverClaude} from './discover.js';
import {normalizeClaudeLine} from './normalize.js';
import {claudeRoots, resolveClaudeRoot} from './paths.js';

export const claudeAdapter: JsonlAdapter = {
	id: 'claude',
	label: 'Claude Code',
	format: 'jsonl',
	defaultRoots: claudeRoots,
	resolveRoot: resolveClaudeRoot,
	discover: discoverClaude,
	normalizeLine: normalizeClaudeLine,
	nativeResumeCommand: id => (id.startsWith('agent-') ? null : `claude --resume ${id}`),
	retirement: besideTranscript,
};
