import {closeSync, fstatSync, openSync, readSync} from 'node:fs';
import {isUtf8} from 'node:buffer';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {mergeUpsert} from '../graph/merge.js';
import {createReplay, isEdgeLive, type ReplayedEdge} from '../graph/replay.js';
import {parseJournalLine} from '../journal/parse-line.js';
import type {JournalLine} from '../journal/schema.js';
import type {KbPaths} from '../kb/paths.js';
import {sha256Hex} from '../../lib/hash.js';
import {decodeLine, type RawLine} from '../../lib/lines.js';

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
	readonly citations: {get(id: string): readonly Citation[] | undefined};
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
	// Set once the whole buffer is known to be valid UTF-8; otherwise each line is checked, so the error names the first bad line.
	let wholeUtf8 = false;
	// Each node's applied upserts in file order, as where their lines lie in the buffer: an
	// evaluation reads a few hundred of a journal's nodes, so only those lines are parsed again,
	// merged and cited, and the events of the rest are garbage at once instead of being kept (and
	// copied by every scavenge).
	const upserts = new Map<string, Array<{number: number; start: number; end: number}>>();
	let current: RawLine | undefined;
	const assertsByLine = new Map<number, {event: string; provenance: string | null}>();
	const replay = createReplay(asOf, ({line, event}) => {
		if (event.op === 'node.upsert') {
			const id = event.payload['id'] as string;
			const upsert = {number: line, start: current!.start, end: current!.end};
			const lines = upserts.get(id);
			if (lines) {
				lines.push(upsert);
			} else {
				upserts.set(id, [upsert]);
			}
		} else if (event.op === 'edge.assert') {
			assertsByLine.set(line, {event: event.id, provenance: typeof event.payload['provenance'] === 'string' ? event.payload['provenance'] : null});
		}
	}, {mergeNodes: false});
	let eventsConsidered = 0;
	let eventsAfterAsOf = 0;
	let newestObservedUtc: string | null = null;
	const visit = (raw: RawLine) => {
		// A newline byte never occurs inside a UTF-8 sequence, so checking line by line checks the file.
		if (!wholeUtf8 && !isUtf8(raw.buffer.subarray(raw.start, raw.end))) {
			throw new EngiError('journal_not_utf8', `${paths.journal}:${raw.number}: not valid UTF-8`, {hint: 'nothing was evaluated; engi doctor shows the damaged lines'});
		}

		const parsed = parseJournalLine(decodeLine(raw));
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

	wholeUtf8 = isUtf8(journal);
	forEachLineIn(journal, visit);
	const {edges} = replay;
	const materialised = new Map<string, {node: Record<string, unknown>; citations: Citation[]}>();
	const materialise = (id: string) => {
		let found = materialised.get(id);
		const lines = upserts.get(id);
		if (found === undefined && lines !== undefined) {
			let node: Record<string, unknown> | undefined;
			const citations: Citation[] = [];
			for (const {number, start, end} of lines) {
				// Read whole and valid once already: the same event again.
				const {event} = parseJournalLine(decodeLine({number, offset: start, length: end - start, terminated: true, oversized: false, buffer: journal, start, end})) as {event: JournalLine};
				node = mergeUpsert(node, event.payload, event.observed_utc);
				citations.push({line: number, event: event.id, at: event.observed_utc});
			}

			found = {node: node!, citations};
			materialised.set(id, found);
		}

		return found;
	};

	const nodes: NodeLookup = {has: id => upserts.has(id), get: id => materialise(id)?.node};
	const citations = {get: (id: string) => materialise(id)?.citations};
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

/** Each line of a buffer, numbered from 1, the last one unterminated if the buffer does not end with a newline. */
function forEachLineIn(buffer: Buffer, visit: (line: RawLine) => void): void {
	let start = 0;
	let number = 1;
	for (let newline = buffer.indexOf(10); newline !== -1; newline = buffer.indexOf(10, start)) {
		visit({number, offset: start, length: newline - start, terminated: true, oversized: false, buffer, start, end: newline});
		number++;
		start = newline + 1;
	}

	if (start < buffer.length) {
		visit({number, offset: start, length: buffer.length - start, terminated: false, oversized: false, buffer, start, end: buffer.length});
	}
}
