import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {isUtf8} from 'node:buffer';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {mergeUpsert} from '../graph/merge.js';
import {createReplay, isEdgeLive, type ReplayedEdge} from '../graph/replay.js';
import {parseJournalLine} from '../journal/parse-line.js';
import type {JournalLine} from '../journal/schema.js';
import type {KbPaths} from '../kb/paths.js';
import {sha256Hex} from '../../lib/hash.js';

/** A journal bigger than this is not evaluated: a snapshot replays it whole, in memory. */
export const maxSnapshotBytes = 64 * 1024 * 1024;

/** One journal event a fact rests on. */
export type Citation = {readonly line: number; readonly event: string; readonly at: string};

export type SnapshotEdge = ReplayedEdge & {readonly event: string; readonly provenance: string | null};

export type NodeLookup = {
	get(id: string): Record<string, unknown> | undefined;
	has(id: string): boolean;
};

export type Snapshot = {
	readonly asOf: string;
	/** SHA-256 of the journal's bytes, every line (also those observed after as_of). */
	readonly journalSha256: string;
	/** Nodes as replay materialises them from the events observed by as_of (merged when first asked for). */
	readonly nodes: NodeLookup;
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

/**
 * The journal as it stood at `asOf`, read strictly and never repaired: any line that is not a
 * whole, known event is an error naming its line (an evaluation must not rest on a journal it
 * could only partly read), events observed after `asOf` are dropped, and the rest is replayed
 * exactly as the index replays it. The file is read once, up to its size when opened, into one
 * buffer (at most maxSnapshotBytes): the bytes hashed are the bytes parsed, hashed and checked for
 * UTF-8 in one pass each, which costs a fraction of doing it line by line. Nothing is written, to
 * the journal or anywhere else.
 */
export function readSnapshot(paths: KbPaths, asOf: string): Snapshot {
	const strict = (line: number, what: string) =>
		new EngiError('journal_line_invalid', `${paths.journal}:${line}: ${what}`, {hint: 'an evaluation reads the journal strictly and repairs nothing; engi doctor reports the line, and the next write quarantines it'});
	const citations = new Map<string, Citation[]>();
	// Each node's applied upserts in file order, as where their lines lie in the buffer: an evaluation
	// reads a few hundred of a journal's nodes, so only those are parsed again and merged, and the
	// payloads of the rest are garbage at once instead of being kept (and copied by every scavenge).
	const upserts = new Map<string, Array<{start: number; end: number; observedUtc: string}>>();
	let current: Line | undefined;
	const assertsByLine = new Map<number, {event: string; provenance: string | null}>();
	const replay = createReplay(asOf, ({line, event}) => {
		if (event.op === 'node.upsert') {
			const id = event.payload['id'] as string;
			const list = citations.get(id);
			const citation = {line, event: event.id, at: event.observed_utc};
			const upsert = {start: current!.start, end: current!.end, observedUtc: event.observed_utc};
			if (list) {
				list.push(citation);
				upserts.get(id)!.push(upsert);
			} else {
				citations.set(id, [citation]);
				upserts.set(id, [upsert]);
			}
		} else if (event.op === 'edge.assert') {
			assertsByLine.set(line, {event: event.id, provenance: typeof event.payload['provenance'] === 'string' ? event.payload['provenance'] : null});
		}
	}, {mergeNodes: false});
	let eventsConsidered = 0;
	let eventsAfterAsOf = 0;
	let newestObservedUtc: string | null = null;
	let text = '';
	const visit = (raw: Line) => {
		const parsed = parseJournalLine(text.slice(raw.start, raw.end));
		if (parsed.kind === 'blank') {
			return;
		}

		if (!raw.terminated) {
			throw strict(raw.number, 'the last line has no newline (a write in progress, or a torn one)');
		}

		if (parsed.kind === 'corrupt') {
			throw strict(raw.number, `not a journal event (${parsed.reason})`);
		}

		const {event} = parsed;
		if (!parsed.known) {
			throw strict(raw.number, `unsupported journal operation ${JSON.stringify(event.op.slice(0, 40))}`);
		}

		if (event.observed_utc > asOf) {
			eventsAfterAsOf++;
			return;
		}

		eventsConsidered++;
		if (newestObservedUtc === null || event.observed_utc > newestObservedUtc) {
			newestObservedUtc = event.observed_utc;
		}

		if (event.op !== 'node.upsert') {
			event.payload = {...event.payload, type: evidenceEdgeType(event.payload['type'] as string)};
		}

		current = raw;
		replay.apply({line: raw.number, event, known: true});
	};

	let fd: number | undefined;
	let journal: Buffer = Buffer.alloc(0);
	try {
		fd = openSync(paths.journal, 'r');
		const {size} = fstatSync(fd);
		if (size > maxSnapshotBytes) {
			throw new EngiError('journal_too_large', `${paths.journal} is ${size} bytes; an evidence snapshot reads at most ${maxSnapshotBytes} (64 MiB)`, {hint: 'nothing was evaluated'});
		}

		journal = readUpTo(fd, size);
	} catch (error) {
		if (error instanceof EngiError) {
			throw error;
		}

		// No journal yet is an empty one.
		if (systemErrorCode(error) !== 'ENOENT') {
			throw new EngiError('journal_unreadable', `cannot read ${paths.journal} (${systemErrorCode(error) ?? 'error'})`, {hint: 'check that it is a file and its permissions'});
		}
	} finally {
		if (fd !== undefined) {
			closeSync(fd);
		}
	}

	// The text is decoded once, up to the first line that is not UTF-8 (a newline byte never occurs
	// inside a UTF-8 sequence): the lines before it are read, so a bad one among them is named
	// first, and then that line is.
	const bad = isUtf8(journal) ? undefined : firstNonUtf8Line(journal);
	text = journal.toString('utf8', 0, bad?.start ?? journal.length);
	forEachLineIn(text, visit);
	if (bad) {
		throw new EngiError('journal_not_utf8', `${paths.journal}:${bad.number}: not valid UTF-8`, {hint: 'nothing was evaluated; engi doctor shows the damaged lines'});
	}

	const {edges} = replay;
	const merged = new Map<string, Record<string, unknown>>();
	const nodes: NodeLookup = {
		has: id => upserts.has(id),
		get(id) {
			let node = merged.get(id);
			if (node === undefined && upserts.has(id)) {
				for (const {start, end, observedUtc} of upserts.get(id)!) {
					const parsed = parseJournalLine(text.slice(start, end));
					node = mergeUpsert(node, (parsed as {event: JournalLine}).event.payload, observedUtc);
				}

				merged.set(id, node!);
			}

			return node;
		},
	};
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

	return {asOf, journalSha256: sha256Hex(journal), nodes, citations, dependsOn, contradicts, freshness: {eventsConsidered, eventsAfterAsOf, newestObservedUtc}};
}

/** The file's first `size` bytes, or fewer if it shrank meanwhile. */
function readUpTo(fd: number, size: number): Buffer {
	const buffer = Buffer.allocUnsafe(size);
	let filled = 0;
	for (let read = -1; filled < size && read !== 0; filled += read) {
		read = readSync(fd, buffer, filled, size - filled, filled);
	}

	return buffer.subarray(0, filled);
}

/** One line of the journal's text: where it lies (a CRLF's carriage return left out), numbered from 1. */
type Line = {readonly number: number; readonly start: number; readonly end: number; readonly terminated: boolean};

/** Each line of a text, the last one unterminated if the text does not end with a newline. */
function forEachLineIn(text: string, visit: (line: Line) => void): void {
	let start = 0;
	let number = 1;
	for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
		visit({number, start, end: newline > start && text.charCodeAt(newline - 1) === 13 ? newline - 1 : newline, terminated: true});
		number++;
		start = newline + 1;
	}

	if (start < text.length) {
		visit({number, start, end: text.length > start && text.charCodeAt(text.length - 1) === 13 ? text.length - 1 : text.length, terminated: false});
	}
}

/** Where the first line that is not valid UTF-8 starts, and its number. */
function firstNonUtf8Line(buffer: Buffer): {start: number; number: number} | undefined {
	let start = 0;
	for (let number = 1; start < buffer.length; number++) {
		const newline = buffer.indexOf(10, start);
		const end = newline === -1 ? buffer.length : newline;
		if (!isUtf8(buffer.subarray(start, end))) {
			return {start, number};
		}

		start = end + 1;
	}

	return undefined;
}
