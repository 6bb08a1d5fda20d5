import type {Database} from '../../lib/sqlite.js';
import {narrowRowsOf, rowidsOfKeys, unfoldedSessions, type NarrowRow, type SessionFilter} from './list.js';
import {columnsCodec, scopeAnswer} from './scope-memo.js';

/**
 * Which sessions in scope are unfinished candidates, as far as their narrow columns tell: the
 * listed sessions (subagents of a listed parent left out) with an open tail or last written
 * after `activeFrom` (ms, by the later of the recorded time and the file's), except the
 * `judged` keys, whose answer is `candidates`. The sessions are read once per state of the
 * scope and kept (scopeAnswer: at L, 15,000 sessions in order cost 30–40 ms to read on every
 * call of the stand-up); what depends on the moment (written right now) and on checkpoints
 * (the judged keys) is decided here on every call.
 */

/** The sessions in scope (the unfinished candidates are judged among), in listing order, as numbers. */
type ScopeSessions = {
	readonly rowids: Int32Array;
	/** 1: the tail alone makes it a candidate; 2: its tail's confidence is high. */
	readonly flags: Uint8Array;
	readonly written: Float64Array;
	/** Each session's project, as its place in `projects`. */
	readonly project: Int32Array;
	readonly projects: ReadonlyArray<string | null>;
};

const tailOpen = 1;
const highConfidence = 2;

const scopeSessionsCodec = {
	encode: (sessions: ScopeSessions): Buffer => columnsCodec.encode({json: sessions.projects, floats: [sessions.written], ints: [sessions.rowids, sessions.project], bytes: [sessions.flags]}),
	decode(stored: Buffer): ScopeSessions {
		const {json, floats: [written], ints: [rowids, project], bytes: [flags]} = columnsCodec.decode(stored);
		if (written === undefined || rowids === undefined || project === undefined || flags === undefined || !Array.isArray(json) || project.some(place => place < 0 || place >= json.length)) {
			throw new TypeError('not the sessions of a scope');
		}

		return {rowids, project, written, flags, projects: json as Array<string | null>};
	},
};

function scopeSessions(db: Database, filter: SessionFilter): ScopeSessions {
	return scopeAnswer(db, 'unfolded-sessions', filter, scopeSessionsCodec, () => {
		const rows = unfoldedSessions(db, filter);
		const places = new Map<string | null, number>();
		const sessions = {
			rowids: new Int32Array(rows.length),
			flags: new Uint8Array(rows.length),
			written: new Float64Array(rows.length),
			project: new Int32Array(rows.length),
		};
		for (const [index, [rowid, open, high, written, project]] of rows.entries()) {
			let place = places.get(project);
			if (place === undefined) {
				place = places.size;
				places.set(project, place);
			}

			sessions.rowids[index] = rowid;
			sessions.flags[index] = (open ? tailOpen : 0) | (high ? highConfidence : 0);
			sessions.written[index] = written;
			sessions.project[index] = place;
		}

		return {...sessions, projects: [...places.keys()]};
	});
}

/** The sessions judged in JS (`keys`), those of them that are candidates, and the time from which a session counts as written right now (ms). */
export type JudgedInJs = {readonly keys: readonly string[]; readonly candidates: readonly string[]; readonly activeFrom: number};

/**
 * Calls `each` with the place of every candidate in scope, in listing order, and whether it
 * counts as of high confidence here (its tail's stored confidence, when it was not written
 * right now and is not one of the judged keys, which the caller counts); returns the sessions.
 */
function forEachCandidate(db: Database, filter: SessionFilter, judged: JudgedInJs, each: (sessions: ScopeSessions, index: number, high: boolean) => void): ScopeSessions {
	const sessions = scopeSessions(db, filter);
	const judgedRows = new Set(rowidsOfKeys(db, judged.keys));
	const candidateRows = new Set(rowidsOfKeys(db, judged.candidates));
	for (let index = 0; index < sessions.rowids.length; index++) {
		const rowid = sessions.rowids[index]!;
		const flags = sessions.flags[index]!;
		const writtenNow = sessions.written[index]! > judged.activeFrom;
		if (candidateRows.has(rowid) || (!judgedRows.has(rowid) && ((flags & tailOpen) !== 0 || writtenNow))) {
			each(sessions, index, (flags & highConfidence) !== 0 && !writtenNow && !judgedRows.has(rowid));
		}
	}

	return sessions;
}

/** One page of the candidates, in listing order, with how many there are; only the page's rows are read. */
export function candidatePage(db: Database, filter: SessionFilter, judged: JudgedInJs, offset: number, limit: number): {total: number; rows: NarrowRow[]} {
	let total = 0;
	const page: number[] = [];
	forEachCandidate(db, filter, judged, (sessions, index) => {
		if (total >= offset && page.length < limit) {
			page.push(sessions.rowids[index]!);
		}

		total++;
	});
	return {total, rows: narrowRowsOf(db, page)};
}

/**
 * The candidates by recorded project: how many each has, how many of those judged here are of
 * high confidence (leaving the `judged` keys to the caller), and the newest `limit` of each
 * project (every one when null), in listing order. No tail is read, and narrow rows are read
 * only for those shown.
 */
export function candidatesByProject(db: Database, filter: SessionFilter, judged: JudgedInJs, limit: number | null): {projects: Array<{project: string | null; total: number; high: number}>; rows: NarrowRow[]} {
	const totals = new Map<number, {total: number; high: number}>();
	const shown: number[] = [];
	const {projects} = forEachCandidate(db, filter, judged, (sessions, index, high) => {
		const place = sessions.project[index]!;
		let count = totals.get(place);
		if (count === undefined) {
			count = {total: 0, high: 0};
			totals.set(place, count);
		}

		if (limit === null || count.total < limit) {
			shown.push(sessions.rowids[index]!);
		}

		count.total++;
		count.high += high ? 1 : 0;
	});
	return {
		projects: [...totals].map(([place, count]) => ({project: projects[place] ?? null, total: count.total, high: count.high})),
		rows: narrowRowsOf(db, shown),
	};
}
