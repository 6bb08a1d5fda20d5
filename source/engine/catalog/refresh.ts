import {statSync} from 'node:fs';
import {takeUnlistedDirectories} from '../../adapters/shared/fs.js';
import {loadAdapter} from '../../adapters/stores.js';
import {wholeUnit, type ListedUnit, type SourceAdapter, type SourceId} from '../../adapters/types.js';
import {sha256} from '../../lib/hash.js';
import {isSqliteError, type Database} from '../../lib/sqlite.js';
import {systemErrorCode} from '../../lib/errors.js';
import {pauseAt} from '../../lib/test-pause.js';
import {catalogStore, ensureListingIndexes, type CatalogStore} from './store.js';
import type {SourceTarget} from './targets.js';
import {catalogWriter, type CatalogWriter} from './writer.js';

export type RefreshReport = {
	/** Units whose fingerprint changed (or that were new) and were read. */
	scanned: number;
	/** Units that cost only a stat. */
	unchanged: number;
	removed: number;
	warnings: string[];
	/** Store roots, directories and session files that could not be read this call: what they hold is missing or out of date. */
	unreadable: Array<{source: string; path: string; code: string}>;
};

/**
 * Brings the catalog up to date with the stores: discover every unit under each root, re-read
 * only units whose fingerprint changed, and forget units that disappeared. What is read is
 * written as it is read, in short transactions (see catalogWriter): a crash keeps every unit
 * saved before it, and the next call reads the rest.
 */
export async function refreshCatalog(db: Database, targets: readonly SourceTarget[], env: Readonly<Record<string, string | undefined>>): Promise<RefreshReport> {
	pauseAt(env, 'catalog.before_refresh');
	const store = catalogStore(db);
	const writer = catalogWriter(db, store, env);
	const report: RefreshReport = {scanned: 0, unchanged: 0, removed: 0, warnings: [], unreadable: []};
	// Held from the first unit read to the end (see inlining.ts), loaded with the scanner.
	let releaseInlining: (() => void) | undefined;
	const reading = async () => {
		if (!releaseInlining) {
			const {holdScanInlining} = await import('./inlining.js');
			releaseInlining ??= holdScanInlining();
		}
	};

	try {
		await refreshRoots(db, targets, env, store, writer, report, reading);
	} catch (error) {
		writer.abandon();
		throw error;
	} finally {
		releaseInlining?.();
	}

	forgetVanishedRoots(store, writer, targets, report);
	// After the rows: a cold build's indexes are made in one go here, their pages side by side.
	ensureListingIndexes(db);
	return report;
}

/**
 * Whether this refresh may hand its writes to a thread (which starts once they fill a batch;
 * see allowThread), and whether at once: ENGI_CATALOG_THREAD=off never, =always from the first
 * session read (for the tests). Never for a catalog in memory, which no other connection sees.
 */
function threadMode(db: Database, env: Readonly<Record<string, string | undefined>>): 'never' | 'when-full' | 'now' {
	const wanted = env['ENGI_CATALOG_THREAD'];
	return db.name === ':memory:' || wanted === 'off' ? 'never' : wanted === 'always' ? 'now' : 'when-full';
}

async function refreshRoots(
	db: Database,
	targets: readonly SourceTarget[],
	env: Readonly<Record<string, string | undefined>>,
	store: CatalogStore,
	writer: CatalogWriter,
	report: RefreshReport,
	reading: () => Promise<void>,
): Promise<void> {
	// A listing is remembered once the rows it matches are committed: with a writing thread, after
	// it has committed everything (settle), at the end.
	const remembered: Array<() => void> = [];
	const remember = (source: string, root: string, units: readonly ListedUnit[], listing: string) => {
		const write = () => store.rememberListing(source, root, units, listing);
		if (writer.threaded) {
			remembered.push(write);
		} else {
			write();
		}
	};

	for (const {adapter, roots} of targets) {
		for (const root of roots) {
			let units: ListedUnit[];
			try {
				units = adapter.discover(root, writer.memo);
			} catch (error) {
				report.warnings.push(`${adapter.id}: could not list ${root} (${error instanceof Error ? error.message : 'error'})`);
				report.unreadable.push({source: adapter.id, path: root, code: systemErrorCode(error) ?? 'error'});
				continue;
			} finally {
				warnUnlisted(report, adapter.id);
			}

			report.warnings.push(...noteWarnings(adapter.id, units));
			// Most calls find a root as the catalog last saw it: one digest, compared with the one
			// remembered, answers that without reading the root's thousands of fingerprints.
			const listing = listingDigest(root, units);
			if (store.matchedListing(adapter.id, root) === listing) {
				report.unchanged += units.length;
				continue;
			}

			const known = store.fingerprintsForRoot(adapter.id, root);
			const changed: ListedUnit[] = [];
			let stillThere = 0;
			for (const unit of units) {
				const fingerprint = known.get(unit.key);
				stillThere += fingerprint === undefined ? 0 : 1;
				if (fingerprint !== unit.fingerprint) {
					changed.push(unit);
				}
			}

			report.unchanged += units.length - changed.length;
			// Keys are unique per root: when every known key was listed again, none is gone.
			const gone = stillThere === known.size ? [] : goneKeys(known, units);
			if (changed.length === 0 && gone.length === 0) {
				// Nothing to write but the digest (a catalog filled by an older engi, or a remembered
				// listing another process's writes made stale).
				remember(adapter.id, root, units, listing);
				continue;
			}

			// A root's writes read pages through SQLite's small page cache, not its memory map: every
			// page a map touches stays resident, so a cold build of 15,000 sessions ended with the whole
			// 200 MB catalog in its memory (334 MB peak, 194 without). The map is back once the root is
			// written: left off, the check of the root's rows, the roots after it and the listing read
			// every page they need with pread (at L, ~10 MB of index pages after one session grew,
			// where a call that wrote nothing reads a few pages). A call that has written more than one
			// batch leaves it off for good: the listing after a cold build reads most of a fresh
			// catalog, and mapped, those pages stayed resident on top of the build's own peak (at L,
			// 58 MB more: 243 MB where the build itself peaked at 185).
			const mapped = db.pragma('mmap_size', {simple: true}) as number;
			db.pragma('mmap_size = 0');
			if (changed.length > 0) {
				await reading();
				const {scanUnit, settleDoc, reader} = await readerOf(adapter.id);
				const mode = threadMode(db, env);
				if (mode !== 'never') {
					// Loaded only by a refresh that reads a session (a few KB), started only when needed.
					const {startWriteThread} = await import('./write-thread.js');
					writer.allowThread(() => startWriteThread(db.name, env), settleDoc, mode === 'now');
				}

				for (const unit of changed) {
					const sink = writer.unit(unit.key);
					let result;
					try {
						result = scanUnit(reader, root, wholeUnit(unit), known.has(unit.key) ? store.row(unit.key) : undefined, offset => store.markBefore(unit.key, offset), sink);
					} catch (error) {
						if (isSqliteError(error)) {
							throw error; // The catalog's own write failed (the view falls back on it), not the file's read.
						}

						// The file vanished or became unreadable after it was listed: try again next call. A
						// unit known before keeps its row, which the next call reads again (or forgets, with
						// its documents, when the file is gone); a new one has no row, so the documents its
						// scan already sent go now.
						if (!known.has(unit.key)) {
							writer.remove(unit.key);
						}

						const code = error instanceof Error ? (error as NodeJS.ErrnoException).code ?? error.name : 'error';
						report.warnings.push(`${adapter.id}: could not read ${unit.path} (${code})`);
						report.unreadable.push({source: adapter.id, path: unit.path, code});
						continue;
					}

					sink.finish(result);
					report.scanned++;
				}
			}

			warnUnlisted(report, adapter.id);
			for (const key of gone) {
				writer.remove(key);
				report.removed++;
			}

			writer.flush();
			if (writer.batches <= 1) {
				db.pragma(`mmap_size = ${mapped}`);
			}
			// Checked against the rows first: a unit that could not be read is not remembered as read.
			remember(adapter.id, root, units, listing);
		}
	}

	writer.settle();
	for (const write of remembered) {
		write();
	}
}

/**
 * Forgets the sessions of every catalogued root this call does not read whose directory is
 * gone, as a refresh forgets a session whose file is gone. The catalog is a cache for every root
 * it has seen (another HOME, a `--source-root`), and a root that moved or was deleted is listed by
 * no call again: its rows stayed for good, and every search still stepped over their words. A
 * root that still exists is kept whether or not this call reads it; one that cannot be checked
 * (EACCES, say) is kept too. Costs one small read, and a stat for each root not read.
 */
function forgetVanishedRoots(store: ReturnType<typeof catalogStore>, writer: ReturnType<typeof catalogWriter>, targets: readonly SourceTarget[], report: RefreshReport): void {
	const read = new Set(targets.flatMap(({adapter, roots}) => roots.map(root => `${adapter.id}\u0000${root}`)));
	for (const [source, root] of store.catalogedRoots()) {
		if (read.has(`${source}\u0000${root}`) || !isGone(root)) {
			continue;
		}

		for (const key of store.fingerprintsForRoot(source, root).keys()) {
			writer.remove(key);
			report.removed++;
		}

		// After the rows: removing them counts writes against the root.
		writer.flush();
		store.forgetRoot(source, root);
	}
}

/** True when nothing is at `path` any more (not when it only cannot be checked). */
function isGone(path: string): boolean {
	try {
		statSync(path);
		return false;
	} catch (error) {
		const code = systemErrorCode(error);
		return code === 'ENOENT' || code === 'ENOTDIR';
	}
}

/**
 * The catalog's scanner and the source's whole adapter: loaded only when a unit must be read,
 * so a warm call that finds nothing changed compiles neither.
 */
async function readerOf(source: SourceId): Promise<{scanUnit: typeof import('./scan.js').scanUnit; settleDoc: typeof import('./scan.js').settleDoc; reader: SourceAdapter}> {
	const [{scanUnit, settleDoc}, reader] = await Promise.all([import('./scan.js'), loadAdapter(source)]);
	return {scanUnit, settleDoc, reader: reader!};
}

/**
 * One digest of a root's listing: every unit's key (below the root, which the remembered
 * listing is filed under) and fingerprint, in discovery's order. Hashed a piece at a time: one
 * string of the whole listing (~230 KB a root at L) was flattened and then copied out again as
 * UTF-8, fresh memory each time.
 */
function listingDigest(root: string, units: readonly ListedUnit[]): string {
	const hash = sha256();
	let text = '';
	for (const unit of units) {
		text += `${unit.key.startsWith(root) ? unit.key.slice(root.length) : unit.key}\u0000${unit.fingerprint}\n`;
		if (text.length >= digestPiece) {
			hash.update(text);
			text = '';
		}
	}

	return hash.update(text).digest('hex');
}

/** Characters hashed at a time by listingDigest: small enough for the allocator's reused memory. */
const digestPiece = 16 * 1024;

/** Keys catalogued under a root that its discovery no longer lists. */
function goneKeys(known: ReadonlyMap<string, string>, units: readonly ListedUnit[]): string[] {
	const present = new Set(units.map(unit => unit.key));
	return [...known.keys()].filter(key => !present.has(key));
}

/** Directories discovery or loading could not list: what they hold is missing, and the warning says so. */
function warnUnlisted(report: RefreshReport, source: string): void {
	for (const directory of takeUnlistedDirectories()) {
		report.warnings.push(`${source}: could not list ${directory.path} (${directory.code}); what it holds is left out`);
		report.unreadable.push({source, path: directory.path, code: directory.code});
	}
}

/** One warning per note the adapter gave units of a root, with how many and the first path. */
function noteWarnings(source: string, units: readonly ListedUnit[]): string[] {
	const byNote = new Map<string, ListedUnit[]>();
	for (const unit of units) {
		if (unit.note !== undefined) {
			byNote.set(unit.note, [...(byNote.get(unit.note) ?? []), unit]);
		}
	}

	return [...byNote].map(([note, noted]) => `${source}: ${note}: ${noted.length} (${noted[0]!.path}${noted.length > 1 ? ', …' : ''})`);
}
