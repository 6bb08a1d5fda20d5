import {writeUnlessHeld, type Database} from '../../lib/sqlite.js';
import type {SessionFilter} from './list.js';

/**
 * Answers about the sessions in a scope that cost a pass over all of them (at L, every one of
 * 15,000 sessions in listing order), kept in the catalog under the count of writes to each root
 * in scope (root_writes): a row of the scope written by any process changes the stamp, so a
 * kept answer is used only while it still holds. Bounded: the newest few are kept.
 */

/** Answers kept at most (each at most a few hundred KB at 15,000 sessions); older ones are dropped as new ones are written. */
const keptAnswers = 16;

/**
 * The stamp a scope's answers are kept under: the count of writes to each of its roots, in the
 * scope's order. Read in the same transaction as what the answer is made of.
 */
function scopeStamp(db: Database, scope: SessionFilter['scope']): string {
	const writes = new Map((db.prepare('SELECT source, root, writes FROM root_writes').raw().all() as Array<[string, string, number]>).map(([source, root, count]) => [`${source}\u0000${root}`, count]));
	return scope.map(({source, root}) => writes.get(`${source}\u0000${root}`) ?? 0).join(',');
}

/**
 * The answer kept for `name` over this filter while the scope is unchanged, else `make`'s,
 * kept for the next call (as `encode` stores it). `name` stands for what the answer means and
 * how it is stored: a change to either takes a new name, so an answer kept by an older engi is
 * never read as a newer one. Making it and reading the stamp happen in one read transaction,
 * so the answer kept is the one that stamp describes. `decode` throws on a value it cannot
 * read, which is then only a miss. Keeping an answer is only an optimisation: another
 * process's lock, or a catalog that cannot be written, leaves it unkept.
 */
export function scopeAnswer<T>(db: Database, name: string, filter: SessionFilter, codec: {encode(value: T): Buffer; decode(stored: Buffer): T}, make: () => T): T {
	const key = `${name}\u0000${JSON.stringify([filter.scope, filter.project ?? null, filter.since ?? null, filter.includeSubagents])}`;
	const {stamp, answer, fresh} = db.transaction(() => {
		const stamp = scopeStamp(db, filter.scope);
		const kept = db.prepare('SELECT value FROM scope_memo WHERE key = ? AND stamp = ?').pluck().get(key, stamp) as Buffer | undefined;
		if (kept !== undefined) {
			try {
				return {stamp, answer: codec.decode(kept), fresh: false};
			} catch {
				// A damaged answer (or one of another shape) is only a miss: worked out again, kept anew.
			}
		}

		return {stamp, answer: make(), fresh: true};
	})();
	if (fresh) {
		writeUnlessHeld(db, () => {
			db.prepare('INSERT OR REPLACE INTO scope_memo (key, stamp, value) VALUES (?, ?, ?)').run(key, stamp, codec.encode(answer));
			db.prepare('DELETE FROM scope_memo WHERE rowid NOT IN (SELECT rowid FROM scope_memo ORDER BY rowid DESC LIMIT ?)').run(keptAnswers);
		});
	}

	return answer;
}

/**
 * Columns of one length (64-bit floats, 32-bit integers, bytes) with a little JSON beside them,
 * as one blob, and back: a scope's rows kept as numbers, not as JSON to parse on every call.
 * Laid out as the header's length (4 bytes), the header (JSON: the length, how many columns of
 * each kind, the extra JSON), padding to 8 bytes, then the columns, floats first.
 */
export type Columns = {readonly json?: unknown; readonly floats?: readonly Float64Array[]; readonly ints?: readonly Int32Array[]; readonly bytes?: readonly Uint8Array[]};

export const columnsCodec = {
	encode({json = null, floats = [], ints = [], bytes = []}: Columns): Buffer {
		const length = floats[0]?.length ?? ints[0]?.length ?? bytes[0]?.length ?? 0;
		const header = Buffer.from(JSON.stringify({length, floats: floats.length, ints: ints.length, bytes: bytes.length, json}));
		const start = Math.ceil((4 + header.length) / 8) * 8;
		const blob = Buffer.alloc(start + length * (8 * floats.length + 4 * ints.length + bytes.length));
		blob.writeUInt32LE(header.length, 0);
		header.copy(blob, 4);
		let offset = start;
		for (const column of [...floats, ...ints, ...bytes]) {
			blob.set(new Uint8Array(column.buffer, column.byteOffset, column.byteLength), offset);
			offset += column.byteLength;
		}

		return blob;
	},
	/** The columns, or a TypeError when the blob is not one this wrote (its sizes must add up exactly). */
	decode(stored: Buffer): Required<Columns> {
		// Copied: a blob's bytes need not start on an 8-byte boundary.
		const bytes = new Uint8Array(stored);
		const headerLength = stored.readUInt32LE(0);
		const header = JSON.parse(stored.toString('utf8', 4, 4 + headerLength)) as {length: unknown; floats: unknown; ints: unknown; bytes: unknown; json: unknown};
		const counts = [header.length, header.floats, header.ints, header.bytes];
		if (!counts.every(count => Number.isSafeInteger(count) && (count as number) >= 0)) {
			throw new TypeError('not a columns header');
		}

		const [length, floats, ints, byteColumns] = counts as number[];
		let offset = Math.ceil((4 + headerLength) / 8) * 8;
		if (stored.length !== offset + length! * (8 * floats! + 4 * ints! + byteColumns!)) {
			throw new TypeError('columns of another size');
		}

		const take = <T>(count: number, size: number, make: (offset: number) => T): T[] =>
			Array.from({length: count}, () => {
				const column = make(offset);
				offset += length! * size;
				return column;
			});
		return {
			json: header.json,
			floats: take(floats!, 8, at => new Float64Array(bytes.buffer, at, length)),
			ints: take(ints!, 4, at => new Int32Array(bytes.buffer, at, length)),
			bytes: take(byteColumns!, 1, at => new Uint8Array(bytes.buffer, at, length)),
		};
	},
};

/** Two integer columns of one length (each value below 2^31). */
export const integerColumns = {
	encode: ({nos, docs}: {nos: ArrayLike<number>; docs: ArrayLike<number>}): Buffer => columnsCodec.encode({ints: [Int32Array.from(nos), Int32Array.from(docs)]}),
	decode(stored: Buffer): {nos: Int32Array; docs: Int32Array} {
		const [nos, docs] = columnsCodec.decode(stored).ints;
		if (nos === undefined || docs === undefined) {
			throw new TypeError('not two integer columns');
		}

		return {nos, docs};
	},
};

/** One count. */
export const countCodec = {
	encode: (count: number): Buffer => Buffer.from(String(count)),
	decode(stored: Buffer): number {
		const count = Number(stored.toString());
		if (!Number.isSafeInteger(count)) {
			throw new TypeError('not a count');
		}

		return count;
	},
};
