import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {isUtf8} from 'node:buffer';
import {EngiError, systemErrorCode} from '../errors.js';
import {isEdgeLive, replayInMemory, type ReplayedEdge} from '../graph/replay.js';
import {parseJournalLine} from '../journal/parse-line.js';
import type {ScannedEvent} from '../journal/scan.js';
import type {KbPaths} from '../kb/paths.js';
import {sha256Hex} from '../util/hash.js';

/** A journal bigger than this is not evaluated: the snapshot holds it in memory whole. */
export const maxSnapshotBytes = 64 * 1024 * 1024;

/** One journal event a fact rests on. */
export type Citation = {readonly line: number; readonly event: string; readonly at: string};

export type SnapshotEdge = ReplayedEdge & {readonly event: string; readonly provenance: string | null};

export type Snapshot = {
	readonly asOf: string;
	/** SHA-256 of the journal's bytes, every line (also those observed after as_of). */
	readonly journalSha256: string;
	/** Nodes as replay materialises them from the events observed by as_of. */
	readonly nodes: ReadonlyMap<string, Record<string, unknown>>;
	/** The upserts each node was built from, in file order. */
	readonly citations: ReadonlyMap<string, readonly Citation[]>;
	/** Live DEPENDS_ON rows by their `from` node. */
	readonly dependsOn: ReadonlyMap<string, readonly SnapshotEdge[]>;
	/** Live CONTRADICTS rows by each of their two ends. */
	readonly contradicts: ReadonlyMap<string, readonly SnapshotEdge[]>;
	readonly freshness: {readonly eventsConsidered: number; readonly eventsAfterAsOf: number; readonly newestObservedUtc: string | null};
};

/** The two custom edge kinds evidence closure follows, written upper-case whatever their spelling. */
const evidenceEdgeKinds = new Set(['DEPENDS_ON', 'CONTRADICTS']);

function evidenceEdgeType(type: string): string {
	const upper = type.trim().toUpperCase().replaceAll('-', '_');
	return evidenceEdgeKinds.has(upper) ? upper : type;
}

function readJournalBytes(path: string): Buffer {
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return Buffer.alloc(0);
		}

		throw new EngiError('journal_unreadable', `cannot read ${path} (${systemErrorCode(error) ?? 'error'})`, {hint: 'check that it is a file and its permissions'});
	}

	try {
		const {size} = fstatSync(fd);
		if (size > maxSnapshotBytes) {
			throw new EngiError('journal_too_large', `${path} is ${size} bytes; an evidence snapshot reads at most ${maxSnapshotBytes} (64 MiB)`, {hint: 'nothing was evaluated'});
		}

		const buffer = Buffer.alloc(size);
		let read = 0;
		while (read < size) {
			const n = readSync(fd, buffer, read, size - read, read);
			if (n === 0) {
				break;
			}

			read += n;
		}

		return buffer.subarray(0, read);
	} catch (error) {
		throw error instanceof EngiError ? error : new EngiError('journal_unreadable', `cannot read ${path} (${systemErrorCode(error) ?? 'error'})`);
	} finally {
		closeSync(fd);
	}
}

/**
 * The journal as it stood at `asOf`, read strictly and never repaired: any line that is not a
 * whole, known event is an error naming its line (an evaluation must not rest on a journal it
 * could only partly read), events observed after `asOf` are dropped, and the rest is replayed
 * exactly as the index replays it. Nothing is written, to the journal or anywhere else.
 */
export function readSnapshot(paths: KbPaths, asOf: string): Snapshot {
	const bytes = readJournalBytes(paths.journal);
	if (!isUtf8(bytes)) {
		throw new EngiError('journal_not_utf8', `${paths.journal} is not valid UTF-8`, {hint: 'nothing was evaluated; engi doctor shows the damaged lines'});
	}

	const strict = (line: number, what: string) =>
		new EngiError('journal_line_invalid', `${paths.journal}:${line}: ${what}`, {hint: 'an evaluation reads the journal strictly and repairs nothing; engi doctor reports the line, and the next write quarantines it'});
	const events: ScannedEvent[] = [];
	const assertsByLine = new Map<number, {event: string; provenance: string | null}>();
	let eventsAfterAsOf = 0;
	let newestObservedUtc: string | null = null;
	let start = 0;
	for (let line = 1; start < bytes.length; line++) {
		const newline = bytes.indexOf(10, start);
		const end = newline === -1 ? bytes.length : newline;
		const text = bytes.toString('utf8', start, end > start && bytes[end - 1] === 13 ? end - 1 : end);
		start = end + 1;
		const parsed = parseJournalLine(text);
		if (parsed.kind === 'blank') {
			continue;
		}

		if (newline === -1) {
			throw strict(line, 'the last line has no newline (a write in progress, or a torn one)');
		}

		if (parsed.kind === 'corrupt') {
			throw strict(line, `not a journal event (${parsed.reason})`);
		}

		const {event} = parsed;
		if (!parsed.known) {
			throw strict(line, `unsupported journal operation ${JSON.stringify(event.op.slice(0, 40))}`);
		}

		if (event.observed_utc > asOf) {
			eventsAfterAsOf++;
			continue;
		}

		if (newestObservedUtc === null || event.observed_utc > newestObservedUtc) {
			newestObservedUtc = event.observed_utc;
		}

		if (event.op !== 'node.upsert') {
			event.payload = {...event.payload, type: evidenceEdgeType(event.payload['type'] as string)};
		}

		if (event.op === 'edge.assert') {
			assertsByLine.set(line, {event: event.id, provenance: typeof event.payload['provenance'] === 'string' ? event.payload['provenance'] : null});
		}

		events.push({line, event, known: true});
	}

	const citations = new Map<string, Citation[]>();
	const {nodes, edges} = replayInMemory(events, asOf, ({line, event}) => {
		if (event.op === 'node.upsert') {
			const id = event.payload['id'] as string;
			const list = citations.get(id) ?? [];
			list.push({line, event: event.id, at: event.observed_utc});
			citations.set(id, list);
		}
	});
	const dependsOn = new Map<string, SnapshotEdge[]>();
	const contradicts = new Map<string, SnapshotEdge[]>();
	const add = (map: Map<string, SnapshotEdge[]>, key: string, edge: SnapshotEdge) => {
		const list = map.get(key);
		if (list) {
			list.push(edge);
		} else {
			map.set(key, [edge]);
		}
	};

	for (const row of edges) {
		if (!evidenceEdgeKinds.has(row.type) || !isEdgeLive(row, asOf)) {
			continue;
		}

		const edge: SnapshotEdge = {...row, ...assertsByLine.get(row.line)!};
		if (edge.type === 'DEPENDS_ON') {
			add(dependsOn, edge.from, edge);
		} else {
			add(contradicts, edge.from, edge);
			if (edge.to !== edge.from) {
				add(contradicts, edge.to, edge);
			}
		}
	}

	return {asOf, journalSha256: sha256Hex(bytes), nodes, citations, dependsOn, contradicts, freshness: {eventsConsidered: events.length, eventsAfterAsOf, newestObservedUtc}};
}
