import {resumeCommand} from '../shared/resume.js';
import type {SourceStore} from '../types.js';
import {discoverGemini} from './discover.js';
import {geminiRoots, resolveGeminiRoot} from './paths.js';
import {geminiRetirement} from './retire.js';

/**
 * Gemini CLI chats are documents, not append-only logs: the JSONL era rewrites messages by id,
 * checkpoints the whole list with `$set.messages` and truncates with `$rewindTo`, so a session is
 * loaded whole and replayed rather than normalised line by line.
 */
export const geminiStore: SourceStore = {
	id: 'gemini',
	label: 'Gemini CLI',
	format: 'document',
	defaultRoots: geminiRoots,
	resolveRoot: resolveGeminiRoot,
	discover: discoverGemini,
	// `gemini --resume <uuid>` (sessionUtils `findSession`), run from the session's project directory;
	// a chat named by its file (discover.ts laterChats) has no id of its own to resume by.
	nativeResumeCommand: id => (id.startsWith('session-') ? null : resumeCommand('gemini --resume', id)),
	retirement: geminiRetirement,
};
