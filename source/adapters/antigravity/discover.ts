import {existsSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {childPath, deferredFileUnit, fileFingerprint, listDirectory, statOrUndefined} from '../shared/fs.js';
import type {DeferredUnit, UnitDetails} from '../types.js';
import {indexedWorkspace} from './history.js';

/**
 * Where a conversation directory keeps its transcript, newest layout first. `agy` writes each
 * step to two logs: `transcript.jsonl` cuts long fields (`truncated_fields`: a long request, reply
 * or tool output loses its end), and `transcript_full.jsonl` beside it holds the same steps whole,
 * so it is the one read; the cut copy is read only where it is alone (older builds). The IDE logs
 * the same JSON steps to `overview.txt` there; it is looked for last, so it costs a stat only in a
 * directory with no JSONL transcript (an IDE conversation, or one with Markdown artifacts only).
 */
const transcriptPlaces = [
	join('.system_generated', 'logs', 'transcript_full.jsonl'),
	join('.system_generated', 'logs', 'transcript.jsonl'),
	'transcript.jsonl',
	join('.system_generated', 'logs', 'overview.txt'),
];

/**
 * Files that belong to a conversation but are not read as its transcript: the cut copy beside the
 * full one and the protobuf step database in `<app>/conversations/<id>.db`.
 */
function sidecars(transcript: string, brain: string, id: string): string[] {
	const candidates = [join(dirname(brain), 'conversations', `${id}.db`)];
	if (basename(transcript) === 'transcript_full.jsonl') {
		candidates.unshift(join(dirname(transcript), 'transcript.jsonl'));
	}

	return candidates.filter(path => existsSync(path));
}

/**
 * `brain/<id>/.system_generated/logs/transcript_full.jsonl` or, alone, `transcript.jsonl` there (the
 * `agy` CLI), `brain/<id>/transcript.jsonl`, the IDE's `overview.txt` step log and `brain/<id>.jsonl`; the id is the directory name or the file stem. A conversation directory
 * with only Markdown artifacts (the pre-2026 layout) has no transcript and is not a session.
 */
export function discoverAntigravity(brain: string): DeferredUnit[] {
	const databases = stepDatabases(brain);
	const units: DeferredUnit[] = [];
	for (const entry of listDirectory(brain)) {
		const path = childPath(brain, entry.name);
		if (entry.isDirectory()) {
			const unit = conversationTranscript(path, brain, entry.name);
			// An empty transcript beside a step database: the steps are in the database.
			if (unit && (unit.size > 0 || !databases.has(entry.name))) {
				units.push(unit);
				databases.delete(entry.name);
			}
		} else if (entry.isFile() && entry.name.endsWith('.jsonl') && !entry.name.startsWith('transcript')) {
			const unit = transcriptUnit(path, brain, basename(entry.name, '.jsonl'));
			if (unit) {
				units.push(unit);
				databases.delete(unit.idHint!);
			}
		}
	}

	for (const id of databases) {
		const unit = stepDatabaseUnit(brain, id);
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

/**
 * The variant of a unit read from the `agy` CLI's step database rather than a transcript
 * (step-db.ts, which only a read loads).
 */
export const stepDatabaseVariant = 'step-db';

const conversationDatabase = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.db$/i;

/**
 * The ids of the step databases beside the brain (`<app>/conversations/<id>.db`): one directory
 * listing per root, so that a conversation whose steps are only there is found (step-db.ts).
 * The IDE's encrypted `<id>.pb` files there are no such databases.
 */
function stepDatabases(brain: string): Set<string> {
	const ids = new Set<string>();
	for (const entry of listDirectory(join(dirname(brain), 'conversations'))) {
		const id = entry.isFile() ? conversationDatabase.exec(entry.name)?.[1] : undefined;
		if (id !== undefined) {
			ids.add(id);
		}
	}

	return ids;
}

/**
 * A conversation read from its step database. The agent writes it through a WAL while it runs,
 * so the WAL's stat is part of the fingerprint: a step still in the WAL changes the session.
 */
function stepDatabaseUnit(brain: string, id: string): DeferredUnit | undefined {
	const database = join(dirname(brain), 'conversations', `${id}.db`);
	const stats = statOrUndefined(database);
	if (!stats?.isFile()) {
		return undefined;
	}

	const wal = statOrUndefined(`${database}-wal`);
	return {
		key: database,
		path: database,
		idHint: id,
		variant: stepDatabaseVariant,
		size: stats.size,
		mtimeMs: Math.max(stats.mtimeMs, wal?.mtimeMs ?? 0),
		fingerprint: `${fileFingerprint(stats)}|${wal?.isFile() ? fileFingerprint(wal) : 'no-wal'}`,
		details: () => stepDatabaseDetails(database, brain, id),
	};
}

/** The database, and the empty transcript a build left beside it; the workspace the prompt index names. */
function stepDatabaseDetails(database: string, brain: string, id: string): UnitDetails {
	const transcripts = transcriptPlaces.map(place => join(brain, id, place)).filter(path => existsSync(path));
	return {paths: [database, ...transcripts], ...hints(brain, id)};
}

/**
 * The transcript of a conversation directory: the first place that holds a file with something in
 * it, or else the first that holds one at all. A build may leave one log empty (created, never
 * written) beside the other, or both; an empty one is never read in place of a written one. Its
 * stat is the unit's; a written full transcript, the usual case, costs one stat as before.
 */
function conversationTranscript(directory: string, brain: string, id: string): DeferredUnit | undefined {
	let empty: DeferredUnit | undefined;
	for (const place of transcriptPlaces) {
		const unit = transcriptUnit(childPath(directory, place), brain, id);
		if (unit && unit.size > 0) {
			return unit;
		}

		empty ??= unit;
	}

	return empty;
}

/** The unit of a transcript; its sidecars, and the workspace the app's prompt index names, are looked for when it is read. */
function transcriptUnit(transcript: string, brain: string, id: string): DeferredUnit | undefined {
	return deferredFileUnit(transcript, id, () => transcriptDetails(transcript, brain, id));
}

function transcriptDetails(transcript: string, brain: string, id: string): UnitDetails {
	return {paths: [transcript, ...sidecars(transcript, brain, id)], ...hints(brain, id)};
}

/** The workspace the app's prompt index names (the summary table and step database are the reader's: normalize.ts). */
function hints(brain: string, id: string): Pick<UnitDetails, 'projectHint'> {
	const workspace = indexedWorkspace(dirname(brain), id);
	return workspace === undefined ? {} : {projectHint: workspace};
}
