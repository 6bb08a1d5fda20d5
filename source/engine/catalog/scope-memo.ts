import {writeUnlessHeld, type Database} from '../../lib/sqlite.js';
import type {SessionFilter} from './list.js';

/**
 * Answers about the sessions in a scope that cost a pass over all of them (at L, every one of
 * 15,000 sessions in listing order), kept in the catalog under the count of writes to each root
 * in scope (root_writes): a row of the scope written by any process changes the stamp, so a
 * kept answer is used only while it still holds. Bounded: the newest few are kept.
 */

/** Answers kept at most; older ones are dropped as new ones are written. */
const keptAnswers = 8;

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
 * kept for the next call (as `encode` stores it). Making it and reading the stamp happen in one
 * read transaction, so the answer kept is the one that stamp describes. Keeping it is only an
 * optimisation: another process's lock, or a catalog that cannot be written, leaves it unkept.
 */
export function scopeAnswer<T>(db: Database, name: string, filter: SessionFilter, codec: {encode(value: T): Buffer; decode(stored: Buffer): T}, make: () => T): T {
	const key = `${name}\u0000${JSON.stringify([filter.scope, filter.project ?? null, filter.since ?? null, filter.includeSubagents])}`;
	const {stamp, kept, made} = db.transaction(() => {
		const stamp = scopeStamp(db, filter.scope);
		const kept = db.prepare('SELECT value FROM scope_memo WHERE key = ? AND stamp = ?').pluck().get(key, stamp) as Buffer | undefined;
		return {stamp, kept, made: kept === undefined ? make() : undefined};
	})();
	if (kept !== undefined) {
		return codec.decode(kept);
	}

	writeUnlessHeld(db, () => {
		db.prepare('INSERT OR REPLACE INTO scope_memo (key, stamp, value) VALUES (?, ?, ?)').run(key, stamp, codec.encode(made!));
		db.prepare('DELETE FROM scope_memo WHERE rowid NOT IN (SELECT rowid FROM scope_memo ORDER BY rowid DESC LIMIT ?)').run(keptAnswers);
	});
	return made!;
}

/** Two equal-length integer columns as one blob (each value below 2^31), and back. */
export const integerColumns = {
	encode({nos, docs}: {nos: ArrayLike<number>; docs: ArrayLike<number>}): Buffer {
		const cells = new Int32Array(nos.length * 2);
		cells.set(Array.from(nos), 0);
		cells.set(Array.from(docs), nos.length);
		return Buffer.from(cells.buffer);
	},
	decode(stored: Buffer): {nos: Int32Array; docs: Int32Array} {
		// Copied: a blob's bytes need not start on a 4-byte boundary.
		const cells = new Int32Array(new Uint8Array(stored).buffer);
		const length = cells.length / 2;
		return {nos: cells.subarray(0, length), docs: cells.subarray(length)};
	},
};

/** One count. */
export const countCodec = {
	encode: (count: number): Buffer => Buffer.from(String(count)),
	decode: (stored: Buffer): number => Number(stored.toString()),
};
