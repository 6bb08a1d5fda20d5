import {besideTranscript} from '../shared/retire.js';
import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverClaude} from './discover.js';
import {claudeRoots, resolveClaudeRoot} from './paths.js';

export const claudeStore: SourceStore = {
	id: 'claude',
	label: 'Claude Code',
	format: 'jsonl',
	defaultRoots: claudeRoots,
	resolveRoot: resolveClaudeRoot,
	discover: discoverClaude,
	nativeResumeCommand: id => (id.startsWith('agent-') ? null : resumeCommand('claude --resume', id)),
	retirement: besideTranscript,
};
