import {basename, dirname} from 'node:path';
import type {NativeResumeFacts} from '../types.js';
import {toolHome} from '../shared/fs.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';

/**
 * `codex resume <id>` finds a rollout only under $CODEX_HOME/sessions (CODEX_HOME defaulting to
 * ~/.codex: codex-rs/core/src/rollout/list.rs, find_conversation_path_by_id_str). A session the
 * catalog found under another Codex home (a store named by --source-root) resumes with
 * CODEX_HOME set to that home; decided from the root the catalog keeps, with no file read. Here,
 * not in the store every call loads: only a resume asks.
 */
export function codexResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	return resumeCommand(`${codexCommand(session)} resume`, id);
}

/** The store directories a Codex home holds (paths.ts): a root named so is one of a home. */
const codexHomeStores = new Set(['sessions', 'archived_sessions']);

function codexCommand(session: NativeResumeFacts | undefined): string {
	const root = session?.root;
	if (root === undefined || session?.context === undefined || !codexHomeStores.has(basename(root))) {
		return 'codex';
	}

	const home = dirname(root);
	const plain = toolHome(session.context, 'CODEX_HOME', '.codex');
	return pointedAt('codex', 'CODEX_HOME', home, plain);
}
