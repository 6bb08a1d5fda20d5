import {basename, dirname, isAbsolute, join, resolve} from 'node:path';
import type {AdapterContext, NativeResumeFacts} from '../types.js';
import {resumeCommand} from '../shared/resume.js';
import {pointedAt} from '../shared/resume-home.js';
import {shellWord} from '../../lib/words.js';
import {opencodeDataDirectory} from './paths.js';

/**
 * `opencode --session <id>` opens the session in the one database OpenCode uses: $OPENCODE_DB
 * (absolute, or relative to the data directory), else `opencode.db` in its data directory,
 * $XDG_DATA_HOME/opencode (packages/opencode/src/storage/db.ts Database.Path, global/index.ts
 * Global.Path.data through xdg-basedir). A session the catalog found in another database (a
 * channel's `opencode-<channel>.db`, a store named by --source-root) resumes with OPENCODE_DB
 * naming that file. A session of a JSON `storage/` tree is read once into the database of the
 * data directory holding that tree (storage/json-migration.ts reads Global.Path.data/storage),
 * so one in another data directory resumes with XDG_DATA_HOME set above it. Decided from the
 * session's path, with no file read. Here, not in the store every call loads: only a resume asks.
 */
export function opencodeResumeCommand(id: string, session?: NativeResumeFacts): string | null {
	return resumeCommand(`${opencodeCommand(session)} --session`, id);
}

function opencodeCommand(session: NativeResumeFacts | undefined): string {
	const path = session?.path;
	const context = session?.context;
	if (path === undefined || context === undefined) {
		return 'opencode';
	}

	if (!isStorageSession(path)) {
		const plain = plainDatabase(context);
		return pointedAt('opencode', 'OPENCODE_DB', path, plain);
	}

	const data = dataDirectoryOf(path);
	const plain = opencodeDataDirectory(context);
	if (data === undefined || (plain !== undefined && resolve(plain) === resolve(data))) {
		return 'opencode';
	}

	return `XDG_DATA_HOME=${shellWord(dirname(data))} opencode`;
}

/** A session file of a JSON tree; any other unit's path is its database (OPENCODE_DB may name it anything). */
function isStorageSession(path: string): boolean {
	return path.endsWith('.json');
}

/** The database plain `opencode` opens (a release channel's own database aside: the published channels use opencode.db). */
function plainDatabase(context: AdapterContext): string | undefined {
	const data = opencodeDataDirectory(context);
	const configured = context.env['OPENCODE_DB']?.trim();
	if (configured) {
		return isAbsolute(configured) ? configured : data === undefined ? undefined : join(data, configured);
	}

	return data === undefined ? undefined : join(data, 'opencode.db');
}

/**
 * The data directory whose `storage/` tree holds a session file
 * (`<data>/storage/session/<project>/<id>.json`; an early release's per-project tree,
 * `<data>/project/<dir>/storage/session/info/<id>.json`, is in the same data directory), or
 * undefined for a file of no such tree.
 */
function dataDirectoryOf(path: string): string | undefined {
	const storage = dirname(dirname(dirname(path)));
	if (basename(dirname(dirname(path))) !== 'session' || basename(storage) !== 'storage') {
		return undefined;
	}

	const data = dirname(storage);
	return basename(dirname(data)) === 'project' ? dirname(dirname(data)) : data;
}

/**
 * A JSON session in a tree no opencode command can be pointed at: XDG_DATA_HOME names only the
 * directory above a data directory called `opencode`, and OPENCODE_DB names a database, not a tree.
 */
export function opencodeResumeUnavailable(_root: string, session?: NativeResumeFacts): string | undefined {
	const path = session?.path;
	if (path === undefined || !isStorageSession(path)) {
		return undefined;
	}

	const data = dataDirectoryOf(path);
	return data === undefined || basename(data) !== 'opencode' ? 'an OpenCode JSON store outside any opencode data directory: OpenCode reads such a tree only from its data directory ($XDG_DATA_HOME/opencode), so no opencode command opens it here; copy it into one to resume it there' : undefined;
}
