import type {Stats} from 'node:fs';
import {join} from 'node:path';
import {childPath, fileFingerprint, listDirectory, readSmallFile, statOrUndefined, walkFiles} from '../shared/fs.js';
import {factsBook, isOptionalString, isStringList, type FactsBook} from '../shared/memo.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';
import {readGrokSummary} from './summary.js';

export const chatHistoryFile = 'chat_history.jsonl';
export const updatesFile = 'updates.jsonl';
export const summaryFile = 'summary.json';

/**
 * `sessions/<encoded cwd>/<session id>/` holds one session. The cwd directory is the
 * URL-encoded working directory, or `<slug>-<16 hex>` with the real path in a `.cwd` file when
 * the encoding is too long. A directory is a session only if it has `summary.json`; its unit
 * reads `chat_history.jsonl`, or `updates.jsonl` when that cache is missing (it is rebuilt from
 * the update stream on import, so a session may have only the stream).
 */
export function discoverGrok(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	const book = factsBook(memo, root, isSessionFacts);
	for (const cwdEntry of listDirectory(root)) {
		if (!cwdEntry.isDirectory()) {
			continue;
		}

		const cwdDirectory = join(root, cwdEntry.name);
		const project = projectOfDirectory(cwdDirectory, cwdEntry.name);
		for (const sessionEntry of listDirectory(cwdDirectory)) {
			if (sessionEntry.isDirectory()) {
				const unit = sessionUnit(childPath(cwdDirectory, sessionEntry.name), sessionEntry.name, project, book);
				if (unit) {
					units.push(unit);
				}
			}
		}
	}

	book.save();
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

/** What a session's summary and directory add to its unit; read only when its files change. */
type SessionFacts = {paths: string[]; parent?: string; cwd?: string};
const isSessionFacts = (value: unknown): value is SessionFacts => isRecord(value) && isStringList(value['paths']) && isOptionalString(value['parent']) && isOptionalString(value['cwd']);

function sessionUnit(directory: string, id: string, project: string | undefined, book: FactsBook<SessionFacts>): DiscoveredUnit | undefined {
	const summaryPath = childPath(directory, summaryFile);
	const summaryStats = statOrUndefined(summaryPath);
	if (!summaryStats?.isFile()) {
		return undefined;
	}

	const transcript = transcriptIn(directory);
	if (!transcript) {
		return undefined; // Summary without a transcript: nothing conversational to read.
	}

	// The title and parent live in summary.json, which changes without the transcript changing.
	const fingerprint = `${fileFingerprint(transcript.stats)}|${fileFingerprint(summaryStats)}`;
	const facts = book.facts(directory, `${transcript.name}|${fingerprint}`, () => {
		const summary = readGrokSummary(summaryPath);
		const parent = summary?.parent_session_id?.trim();
		const cwd = summary?.info?.cwd?.trim();
		return {paths: walkFiles(directory, () => true, 3), ...(parent ? {parent} : {}), ...(cwd ? {cwd} : {})};
	});
	const projectHint = project ?? facts.cwd;
	const unit: {-readonly [K in keyof DiscoveredUnit]: DiscoveredUnit[K]} = {
		key: transcript.path,
		path: transcript.path,
		paths: facts.paths,
		idHint: id,
		variant: transcript.name === chatHistoryFile ? 'chat' : 'updates',
		size: transcript.stats.size,
		fingerprint,
		mtimeMs: transcript.stats.mtimeMs,
	};
	// Hints set one by one, not spread in: in a fresh process each conditional spread takes V8's slow path.
	if (facts.parent) {
		unit.parentIdHint = facts.parent;
	}

	if (projectHint) {
		unit.projectHint = projectHint;
	}

	return unit;
}

/** The session's transcript: the chat history cache, else the update stream (the second is looked for only without the first). */
function transcriptIn(directory: string): {name: string; path: string; stats: Stats} | undefined {
	for (const name of [chatHistoryFile, updatesFile]) {
		const path = childPath(directory, name);
		const stats = statOrUndefined(path);
		if (stats?.isFile()) {
			return {name, path, stats};
		}
	}

	return undefined;
}
