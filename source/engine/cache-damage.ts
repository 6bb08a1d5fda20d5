import {CacheDamage, isCorruptDatabase, type CacheName, type Database} from '../lib/sqlite.js';

/**
 * Which of engi's caches a corruption error came from, when a command holds both open (a sweep
 * reads the catalog inside the index's recovery scope, and the catalog's scope may hold index
 * reads): each recovers its own file only, so one cache's damage never has the other rebuilt
 * while the damaged one stays. SQLite's errors do not say which connection raised them.
 */
const open = new Map<Database, CacheName>();
const blamed = new WeakMap<object, CacheName | null>();

/** Notes which cache `db` holds, for as long as it stays open. */
export function openedCache(db: Database, cache: CacheName): void {
	for (const known of open.keys()) {
		if (!known.open) {
			open.delete(known);
		}
	}

	open.set(db, cache);
}

/**
 * Whether `error` is damage that `cache` may be the seat of: a row of it that does not parse
 * (CacheDamage names its cache), or SQLite's corruption while it is the only cache open or the
 * open one that fails SQLite's integrity check. When no check tells (none fails), any cache may
 * be, and each recovers as it always did.
 */
export function damageOf(error: unknown, cache: CacheName): boolean {
	if (!isCorruptDatabase(error)) {
		return false;
	}

	const culprit = error instanceof CacheDamage ? error.cache : culpritOf(error as object);
	return culprit === null || culprit === cache;
}

function culpritOf(error: object): CacheName | null {
	if (!blamed.has(error)) {
		const candidates = [...open].filter(([db]) => db.open);
		const [found] = candidates.length === 1 ? candidates : candidates.filter(([db]) => failsIntegrity(db));
		blamed.set(error, found?.[1] ?? null);
	}

	return blamed.get(error)!;
}

function failsIntegrity(db: Database): boolean {
	try {
		return db.pragma('integrity_check(1)', {simple: true}) !== 'ok';
	} catch (error) {
		return isCorruptDatabase(error);
	}
}
