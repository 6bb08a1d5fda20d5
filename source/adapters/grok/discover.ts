import {basename, join} from 'node:path';
import type {FileStatus} from '../../lib/file-status.js';
import {childPath, fileFingerprint, listDirectory, readSmallFile, statNotingDirectory, statOrUndefined, walkFiles} from '../shared/fs.js';
import type {DeferredUnit, UnitDetails} from '../types.js';
import {readGrokSummary} from './summary.js';

export const chatHistoryFile = 'chat_history.jsonl';
export const updatesFile = 'updates.jsonl';
export const summaryFile = 'summary.json';

/**
 * `sessions/<encoded cwd>/<session id>/` holds one session. The cwd directory is the
 * URL-encoded working directory, or `<slug>-<16 hex>` with the real path in a `.cwd` file when
 * the encoding is too long. A directory is a session only if it has `summary.json`; its unit
 * reads `updates.jsonl`, the durable log Grok resumes a session from, or `chat_history.jsonl`
 * when there is no stream. The chat history is only a cache of what the model is sent: Grok
 * rewrites it whole on a compaction or a rewind, so after one it no longer holds the earlier turns.
 */
export function discoverGrok(root: string): DeferredUnit[] {
	const units: DeferredUnit[] = [];
	for (const cwdEntry of listDirectory(root)) {
		if (!cwdEntry.isDirectory()) {
			continue;
		}

		const cwdDirectory = join(root, cwdEntry.name);
		const project = projectOfDirectory(cwdDirectory, cwdEntry.name);
		for (const sessionEntry of listDirectory(cwdDirectory)) {
			if (sessionEntry.isDirectory()) {
				const directory = childPath(cwdDirectory, sessionEntry.name);
				const unit = sessionUnit(directory, sessionEntry.name, project);
				if (unit) {
					units.push(unit, ...subagentUnits(directory, sessionEntry.name, project));
				}
			}
		}
	}

	return units;
}

/**
 * The subagent sessions a session keeps in its own directory, `<session>/subagents/<id>/`, each
 * with its own summary.json and transcript (Grok Build session/persistence.rs
 * new_with_explicit_dir): never under the cwd directory, so never found there. One listing per
 * session, the only way to find them. The enclosing session is the parent when the summary names
 * none.
 */
const subagentsDirectory = 'subagents';

function subagentUnits(directory: string, parentId: string, project: string | undefined): DeferredUnit[] {
	const units: DeferredUnit[] = [];
	const subagents = childPath(directory, subagentsDirectory);
	// Most sessions have none: a status that finds nothing costs no thrown error, a listing does.
	if (statOrUndefined(subagents)?.isDirectory() !== true) {
		return units;
	}

	for (const entry of listDirectory(subagents)) {
		const unit = entry.isDirectory() ? sessionUnit(childPath(subagents, entry.name), entry.name, project, parentId) : undefined;
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

/** The working directory a cwd directory stands for, when its name or `.cwd` file states it. */
export function projectOfDirectory(directory: string, name: string): string | undefined {
	const recorded = readSmallFile(join(directory, '.cwd'))?.trim();
	if (recorded) {
		return recorded;
	}

	let decoded: string;
	try {
		decoded = decodeURIComponent(name);
	} catch {
		return undefined;
	}

	// A hashed `<slug>-<hex>` name decodes to itself and is no path: the project stays unknown.
	return decoded.startsWith('/') || /^[A-Za-z]:[\\/]/.test(decoded) ? decoded : undefined;
}

function sessionUnit(directory: string, id: string, project: string | undefined, enclosingId?: string): DeferredUnit | undefined {
	const summaryPath = childPath(directory, summaryFile);
	// A session directory that may not be searched is noted, never passed over unsaid.
	const summaryStats = statNotingDirectory(summaryPath, directory);
	if (!summaryStats?.isFile()) {
		return undefined;
	}

	const transcript = transcriptIn(directory);
	if (!transcript) {
		return undefined; // Summary without a transcript: nothing conversational to read.
	}

	return {
		key: transcript.path,
		path: transcript.path,
		idHint: id,
		variant: transcript.name === chatHistoryFile ? 'chat' : 'updates',
		size: transcript.stats.size,
		// The title and parent live in summary.json, which changes without the transcript changing.
		fingerprint: `${fileFingerprint(transcript.stats)}|${fileFingerprint(summaryStats)}`,
		mtimeMs: transcript.stats.mtimeMs,
		details: () => sessionDetails(directory, summaryPath, project, enclosingId),
	};
}

/** What a session's summary and directory add to its unit: every file in it, its parent and its cwd. */
function sessionDetails(directory: string, summaryPath: string, project: string | undefined, enclosingId?: string): UnitDetails {
	const summary = readGrokSummary(summaryPath);
	const parent = summary?.parent_session_id?.trim() || enclosingId;
	// A session is never its own parent (summary.ts).
	const ownParent = parent !== undefined && (parent === summary?.info?.id?.trim() || parent === basename(directory));
	const projectHint = project ?? (summary?.info?.cwd?.trim() || undefined);
	return {paths: walkFiles(directory, () => true, 3), ...(parent && !ownParent ? {parentIdHint: parent} : {}), ...(projectHint ? {projectHint} : {})};
}

/** The session's transcript: the update stream, else the chat history cache (the second is looked for only without the first). */
function transcriptIn(directory: string): {name: string; path: string; stats: FileStatus} | undefined {
	let empty: {name: string; path: string; stats: FileStatus} | undefined;
	for (const name of [updatesFile, chatHistoryFile]) {
		const path = childPath(directory, name);
		const stats = statOrUndefined(path);
		if (stats?.isFile()) {
			// A stream created and not yet written holds nothing: the history beside it is read instead.
			if (stats.size > 0) {
				return {name, path, stats};
			}

			empty ??= {name, path, stats};
		}
	}

	return empty;
}
