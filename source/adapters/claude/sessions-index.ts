import {readFileSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {readPerVersion, type VersionMemo} from '../shared/file-version.js';
import {isRecord} from '../shared/text.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * `<project>/sessions-index.json`, which Claude Code 2.1 keeps beside a project's transcripts for
 * its /resume picker: `{version, entries: [{sessionId, fullPath, fileMtime, firstPrompt, summary,
 * messageCount, created, modified, gitBranch, projectPath, isSidechain}]}`. `summary` is the title
 * the tool generated for the session, which builds of that time wrote nowhere in the transcript
 * (later ones write an ai-title record instead).
 *
 * Read when a transcript is read, never in discovery: a warm call reads no transcript and pays
 * nothing. Parsed once per version of the file (its size and time), however many sessions ask; a
 * summary written later reaches a session the next time its transcript changes and is read again.
 */
const parsedIndexes: VersionMemo<ReadonlyMap<string, string>> = new Map();

/** An index far larger than a project's sessions could fill is not read. */
const maxIndexBytes = 16 * 1024 * 1024;

/** The generated title the index beside a transcript gives its session, if it gives one. */
export function indexedSummary(transcriptPath: string): string | undefined {
	const file = basename(transcriptPath);
	if (!file.endsWith('.jsonl') || file.startsWith('agent-')) {
		return undefined;
	}

	const path = join(dirname(transcriptPath), 'sessions-index.json');
	return readPerVersion(parsedIndexes, path, () => summariesOf(path), {maxBytes: maxIndexBytes})?.get(file.slice(0, -'.jsonl'.length));
}

/** Session id → summary. Fields may hold any JSON value; only a summary with something in it names the session. */
function summariesOf(path: string): ReadonlyMap<string, string> {
	const summaries = new Map<string, string>();
	for (const entry of indexEntries(path)) {
		const id = entry['sessionId'];
		const summary = entry['summary'];
		if (typeof id === 'string' && typeof summary === 'string' && summary.trim() !== '') {
			summaries.set(id, summary.trim());
		}
	}

	return summaries;
}

/** The index's entries; none when it is unreadable or not whole JSON (caught mid-write). */
function indexEntries(path: string): Array<Record<string, unknown>> {
	let value: unknown;
	try {
		value = parseBoundedJson(readFileSync(path, 'utf8'));
	} catch {
		return [];
	}

	const entries = isRecord(value) ? value['entries'] : undefined;
	return Array.isArray(entries) ? entries.filter(isRecord) : [];
}
