import type {SessionSummary} from './summarize.js';
import type {TailState} from '../continuity/tail.js';
import {parseStored, writeUnlessHeld, type Database} from '../../lib/sqlite.js';
import type {CatalogRow, LineMark} from './scan.js';
import type {TextDoc} from '../search/line-doc.js';
import {segmentForIndex, type Segmented} from '../search/segment.js';
import {tailJudgement} from '../continuity/reasons.js';
import {scratchWords} from './term-counts.js';
import {maxCountBatches, maxCountLines, maxTextUnits, termCountRowid, textRowid, textRowidRange} from './text-rowid.js';
import {listingIndexes} from './schema.js';

type UnitRecord = Omit<CatalogRow, 'paths' | 'summary' | 'tail' | 'archived'> & {paths: string; summary: string; tail: string; archived: number; tail_open: number; tail_confidence: string; written_ms: number; parent_id: string | null};

const columns = [
	'key',
	'source',
	'root',
	'path',
	'paths',
	'variant',
	'format',
	'fingerprint',
	'size',
	'mtime_ms',
	'written_ms',
	'id',
	'parent_id',
	'project',
	'started',
	'modified',
	'title',
	'conversational',
	'archived',
	'records',
	'skipped',
	'tail_open',
	'tail_confidence',
	'scanned_bytes',
	'next_line',
	'check_hash',
	'error',
	'summary',
	'tail',
] as const;

/**
 * When a unit was last written (ms): the later of its recorded time and its file's. A recorded
 * time Date.parse cannot read gives 0, so such a session is never taken as written right now.
 * Stored beside the row, so SQL and JS judge a session's time by the same number.
 */
export function lastWritten(modified: string | null, mtimeMs: number): number {
	const written = Math.max(modified ? Date.parse(modified) : mtimeMs, mtimeMs);
	return Number.isNaN(written) ? 0 : written;
}

/** A row as its scan saved it: its summary holds what the session's own records say. */
function decodeScannedRow(record: UnitRecord): CatalogRow {
	return {
		...record,
		paths: parseStored<string[]>(record.paths, 'catalog'),
		archived: record.archived === 1,
		summary: parseStored<SessionSummary>(record.summary, 'catalog'),
		tail: parseStored<TailState>(record.tail, 'catalog'),
	};
}

/**
 * A row as the catalog shows it: its parent is the `parent_id` column, which is the session's own
 * (its summary's) or, where its records name none, the one another session's records gave it
 * (session_links).
 */
export function decodeRow(record: UnitRecord): CatalogRow {
	const row = decodeScannedRow(record);
	if (record.parent_id !== row.summary.parent_id) {
		row.summary.parent_id = record.parent_id;
	}

	return row;
}

/** The listing indexes (listingIndexes) the catalog does not hold yet. */
function missingListingIndexes(db: Database): Array<(typeof listingIndexes)[number]> {
	const present = new Set(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all() as string[]);
	return listingIndexes.filter(index => !present.has(index.name));
}

/** True when the catalog holds every listing index (a refresh makes them: ensureListingIndexes). */
export function hasListingIndexes(db: Database): boolean {
	return missingListingIndexes(db).length === 0;
}

/**
 * Makes the listing indexes the catalog lacks: after its first refresh has written every row
 * (or after a refresh that was killed before it could), each in one go, so its pages sit
 * together (see listingIndexes). A catalog that has them costs one read of the schema.
 */
export function ensureListingIndexes(db: Database): void {
	if (missingListingIndexes(db).length === 0) {
		return;
	}

	db.transaction(() => {
		for (const index of missingListingIndexes(db)) {
			db.exec(index.sql);
		}

		// The children a cold build's parents named, found by id now that the id index exists.
		relinkMarked(db, rootWriteCounter(db));
	}).immediate();
}

/** A statement prepared on first use. */
const lazy = <T>(prepare: () => T) => {
	let statement: T | undefined;
	return () => (statement ??= prepare());
};

type RootWriteCounter = (source: string, root: string) => void;

/**
 * Counts a write to a root's rows (root_writes), under which its listing and kept answers are
 * remembered. Two single-row statements, not an upsert: neither needs a statement transaction.
 */
function rootWriteCounter(db: Database): RootWriteCounter {
	const bumpWrites = lazy(() => db.prepare('UPDATE root_writes SET writes = writes + 1 WHERE source = ? AND root = ?'));
	const firstWrite = lazy(() => db.prepare('INSERT INTO root_writes (source, root, writes) VALUES (?, ?, 1)'));
	return (source, root) => {
		if (bumpWrites().run(source, root).changes === 0) {
			firstWrite().run(source, root);
		}
	};
}

/**
 * Links between sessions (session_links): a child's parent stated by the parent's records; of
 * two parents naming one child, the smaller id, so the answer does not hang on reading order.
 */
const linkedParentSql = (source: string, id: string) => `SELECT min(parent_id) FROM session_links WHERE source = ${source} AND child_id = ${id} AND parent_key <> ''`;
const shownParentSql = `coalesce(summary ->> '$.parent_id', (${linkedParentSql('units.source', 'units.id')}))`;

/**
 * Gives the children marked in session_links (an empty parent key: their links changed after
 * their rows were saved) the parent their own records or links now say, found by id (the id
 * index), counts the write against each changed row's root, and clears the marks. Run in the
 * transaction that marked them, or, in a cold build, with the listing indexes.
 */
function relinkMarked(db: Database, countWrite: RootWriteCounter): void {
	const changed = db
		.prepare(`UPDATE units SET parent_id = ${shownParentSql} WHERE id IN (SELECT child_id FROM session_links WHERE parent_key = '') AND EXISTS (SELECT 1 FROM session_links AS mark WHERE mark.source = units.source AND mark.child_id = units.id AND mark.parent_key = '') AND parent_id IS NOT ${shownParentSql} RETURNING source, root`)
		.raw()
		.all() as Array<[string, string]>;
	for (const [source, root] of changed) {
		countWrite(source, root);
	}

	db.prepare("DELETE FROM session_links WHERE parent_key = ''").run();
}

/** Prepared statements over the catalog tables; rows go in and come out typed. */
export function catalogStore(db: Database) {
	// Prepared on first use (lazy): a warm call that changes nothing runs only a few of these.
	const upsert = lazy(() => db.prepare(`INSERT OR REPLACE INTO units (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`));
	const fingerprintsByRoot = lazy(() => db.prepare('SELECT key, fingerprint FROM units WHERE source = ? AND root = ?').raw());
	const byKey = lazy(() => db.prepare('SELECT * FROM units WHERE key = ?'));
	const remove = lazy(() => db.prepare('DELETE FROM units WHERE key = ?'));
	const invalidate = lazy(() => db.prepare("UPDATE units SET fingerprint = '' WHERE key = ?"));
	const removeOffsets = lazy(() => db.prepare('DELETE FROM offsets WHERE key = ?'));
	const insertOffset = lazy(() => db.prepare('INSERT OR REPLACE INTO offsets (key, line, offset) VALUES (?, ?, ?)'));
	const offsetBefore = lazy(() => db.prepare('SELECT line, offset FROM offsets WHERE key = ? AND offset <= ? ORDER BY offset DESC LIMIT 1'));
	const offsetForLine = lazy(() => db.prepare('SELECT line, offset FROM offsets WHERE key = ? AND line <= ? ORDER BY line DESC LIMIT 1'));
	const textUnitNo = lazy(() => db.prepare('SELECT no FROM text_units WHERE key = ?').pluck());
	const lastTextUnitNo = lazy(() => db.prepare('SELECT max(no) FROM text_units').pluck());
	const firstFreeTextUnitNo = lazy(() =>
		db
			.prepare('SELECT coalesce((SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM text_units WHERE no = 1)), (SELECT t.no + 1 FROM text_units t WHERE NOT EXISTS (SELECT 1 FROM text_units u WHERE u.no = t.no + 1) ORDER BY t.no LIMIT 1))')
			.pluck(),
	);
	const insertTextUnit = lazy(() => db.prepare('INSERT INTO text_units (no, key, docs) VALUES (?, ?, 0)'));
	const countTextDocs = lazy(() => db.prepare('UPDATE text_units SET docs = docs + ? WHERE no = ?'));
	const clearTextUnit = lazy(() => db.prepare('UPDATE text_units SET docs = 0, batches = 0, counted = 1 WHERE no = ?'));
	// Read, then bumped, not one UPDATE … RETURNING: a statement with RETURNING runs in a statement
	// savepoint, and each savepoint makes every FTS5 table written in the transaction flush what it
	// holds to a new segment (merged again later): a cold build paid that once per unit.
	const countBatches = lazy(() => db.prepare('SELECT batches FROM text_units WHERE no = ?').pluck());
	const bumpCountBatches = lazy(() => db.prepare('UPDATE text_units SET batches = batches + 1 WHERE no = ?'));
	const uncount = lazy(() => db.prepare('UPDATE text_units SET counted = 0 WHERE no = ?'));
	// Cast: FTS5 takes a rowid bound only as an integer, and better-sqlite3 binds numbers as
	// doubles; uncast, each delete read all of text_counts (~24 ms at L).
	const deleteCounts = lazy(() => db.prepare('DELETE FROM text_counts WHERE rowid BETWEEN CAST(? AS INTEGER) AND CAST(? AS INTEGER)'));
	const insertCounts = lazy(() => db.prepare('INSERT INTO text_counts (rowid, terms) VALUES (?, ?)'));
	const batchWords = lazy(() => scratchWords(db));
	const deleteTextUnit = lazy(() => db.prepare('DELETE FROM text_units WHERE no = ?'));
	const linesInRange = lazy(() => db.prepare('SELECT rowid FROM text_lines WHERE rowid BETWEEN ? AND ?').pluck());
	const deleteLines = lazy(() => db.prepare('DELETE FROM text_lines WHERE rowid BETWEEN ? AND ?'));
	const insertLine = lazy(() => db.prepare('INSERT OR IGNORE INTO text_lines (rowid, offset) VALUES (?, ?)'));
	const updateLine = lazy(() => db.prepare('UPDATE text_lines SET offset = ? WHERE rowid = ?'));
	const deleteText = lazy(() => db.prepare('DELETE FROM text_fts WHERE rowid = ?'));
	const insertText = lazy(() => db.prepare('INSERT INTO text_fts (rowid, words, chars) VALUES (?, ?, ?)'));
	const memoGet = lazy(() => db.prepare('SELECT value FROM discovery_memo WHERE key = ? AND stamp = ?').pluck());
	const memoSet = lazy(() => db.prepare('INSERT OR REPLACE INTO discovery_memo (key, stamp, value) VALUES (?, ?, ?)'));
	// A root's listing is remembered under the count of writes to its rows (root_writes), which
	// every write below adds to: a listing remembered under another count is not trusted, whichever
	// process wrote the rows since.
	const writesSql = 'CAST(coalesce((SELECT writes FROM root_writes WHERE source = ? AND root = ?), 0) AS TEXT)';
	const listingGet = lazy(() => db.prepare(`SELECT value FROM discovery_memo WHERE key = ? AND stamp = ${writesSql}`).pluck());
	const listingSet = lazy(() => db.prepare(`INSERT OR REPLACE INTO discovery_memo (key, stamp, value) VALUES (?, ${writesSql}, ?)`));
	const catalogedRoots = lazy(() => db.prepare('SELECT source, root FROM root_writes').raw());
	const forgetRootWrites = lazy(() => db.prepare('DELETE FROM root_writes WHERE source = ? AND root = ?'));
	const forgetListing = lazy(() => db.prepare('DELETE FROM discovery_memo WHERE key = ?'));
	const rootOfKey = lazy(() => db.prepare('SELECT source, root FROM units WHERE key = ?').raw());
	const countWrite = rootWriteCounter(db);
	/** Counts a write to the row of `key` against the root that holds it, if any. */
	const countWriteOf = (key: string) => {
		const holder = rootOfKey().get(key) as [string, string] | undefined;
		if (holder) {
			countWrite(holder[0], holder[1]);
		}
	};
	const listingKey = (source: string, root: string) => `listing:${source}:${root}`;

	// What a row showed before it is saved again: its parent, its own records' parent, and whether
	// it named children. Pages the replacing write reads anyway.
	const priorLinks = lazy(() => db.prepare("SELECT parent_id, summary ->> '$.parent_id', json_type(summary, '$.children') IS NOT NULL FROM units WHERE key = ?").raw());
	const linkedParent = lazy(() => db.prepare(linkedParentSql('?', '?')).pluck());
	const linksOf = lazy(() => db.prepare('SELECT source, child_id, parent_id FROM session_links WHERE parent_key = ?').raw());
	const dropLinks = lazy(() => db.prepare('DELETE FROM session_links WHERE parent_key = ?'));
	const addLink = lazy(() => db.prepare('INSERT OR IGNORE INTO session_links VALUES (?, ?, ?, ?)'));

	/**
	 * The parent a saved row shows: its own records', else, for a session new to the catalog, the
	 * one a parent's records link it to, else the one its row showed before (links that changed
	 * since are applied when they change: relinkChildrenOf). A row the catalog knew reads nothing
	 * of session_links, so a call that re-reads grown sessions reads no more pages than before.
	 */
	const parentOf = (row: CatalogRow, prior: readonly [string | null, string | null, number] | undefined): string | null => {
		const {id, parent_id: own} = row.summary;
		if (own !== null || id === null) {
			return own;
		}

		return prior === undefined ? ((linkedParent().get(row.source, id) as string | null) ?? null) : prior[0] === prior[1] ? null : prior[0];
	};

	/**
	 * Replaces the links a unit's records state (its summary's children) when they changed, marks
	 * the children gained or lost (a row with an empty parent key), and, once the id index exists,
	 * gives their saved rows the parent the links now say, in the same transaction.
	 */
	const relinkChildrenOf = (key: string, source: string, parentId: string | null, children: readonly string[]) => {
		const wanted = parentId === null ? [] : children;
		const before = linksOf().all(key) as Array<[string, string, string]>;
		if (before.length === wanted.length && before.every(([linkSource, child, parent]) => linkSource === source && parent === parentId && wanted.includes(child))) {
			return;
		}

		dropLinks().run(key);
		for (const child of wanted) {
			addLink().run(source, child, key, parentId);
		}

		for (const [linkSource, child] of [...before, ...wanted.map(child => [source, child])]) {
			addLink().run(linkSource, child, '', '');
		}

		if (hasListingIndexes(db)) {
			relinkMarked(db, countWrite);
		}
	};

	/** The unit's number in the text index, kept while the unit exists (re-indexing reuses it). */
	const textUnitFor = (key: string): number => {
		const known = textUnitNo().get(key) as number | undefined;
		if (known !== undefined) {
			return known;
		}

		const next = ((lastTextUnitNo().get() as number | null) ?? 0) + 1;
		const no = next < maxTextUnits ? next : (firstFreeTextUnitNo().get() as number);
		insertTextUnit().run(no, key);
		return no;
	};

	/** Drops a unit's documents; with `forget`, its number too (the unit itself is gone). */
	const removeTexts = (key: string, forget: boolean) => {
		const no = textUnitNo().get(key) as number | undefined;
		if (no === undefined) {
			return;
		}

		const [first, last] = textRowidRange(no);
		for (const rowid of linesInRange().all(first, last) as number[]) {
			deleteText().run(rowid);
		}

		deleteLines().run(first, last);
		deleteCounts().run(first, last);
		if (forget) {
			deleteTextUnit().run(no);
		} else {
			clearTextUnit().run(no);
		}
	};

	/** Indexes documents of one unit, at most one per line (see TextSink: rows sharing a line are merged before). */
	const addTexts = (key: string, texts: readonly TextDoc[]) => {
		const docs = texts.filter(doc => doc.line < 2 ** 32);
		if (docs.length === 0) {
			return;
		}

		// Its lines change what a search knows of the unit (kept answers: scope-memo.ts) before its
		// row is saved again; a new unit has no row yet, and no answer holds it.
		countWriteOf(key);
		const no = textUnitFor(key);
		const added: Segmented[] = [];
		let again = false;
		for (const doc of docs) {
			const rowid = textRowid(no, doc.line);
			const segmented = segmentForIndex(doc.text);
			if (insertLine().run(rowid, doc.offset).changes === 1) {
				added.push(segmented);
			} else {
				// A line indexed before: a scan killed after writing part of a unit's documents,
				// continued from the unit's last saved row, reads those lines again.
				deleteText().run(rowid);
				updateLine().run(doc.offset, rowid);
				again = true;
			}

			insertText().run(rowid, segmented.words, segmented.chars);
		}

		countTextDocs().run(added.length, no);
		// A line counted in an earlier batch cannot be taken out of it: the unit's counts stay
		// untrusted (a search counts its lines instead) until it is read from the start.
		if (again) {
			uncount().run(no);
		} else {
			addTermCounts(no, added);
		}
	};

	/** Counts, per word, how many of a batch's new lines hold it, as text_counts documents. */
	const addTermCounts = (no: number, lines: readonly Segmented[]) => {
		if (lines.length === 0) {
			return;
		}

		const batch = countBatches().get(no) as number;
		bumpCountBatches().run(no);
		if (batch >= maxCountBatches || lines.length >= maxCountLines) {
			uncount().run(no);
			return;
		}

		const byLines = new Map<number, string[]>();
		for (const [term, lineCount] of batchWords()(lines)) {
			const terms = byLines.get(lineCount);
			if (terms) {
				terms.push(term);
			} else {
				byLines.set(lineCount, [term]);
			}
		}

		// In rowid order: FTS5 writes what it holds to a new segment before any rowid lower than the
		// last one it was given, so counts out of order cost a flush (and a merge later) each.
		for (const [lineCount, terms] of [...byLines].sort(([a], [b]) => a - b)) {
			insertCounts().run(termCountRowid(no, batch, lineCount), terms.join(' '));
		}
	};

	return {
		/** Key → fingerprint of every unit under a root: what a refresh compares when the root's listing is not the one remembered. */
		fingerprintsForRoot(source: string, root: string): Map<string, string> {
			return new Map(fingerprintsByRoot().all(source, root) as Array<[string, string]>);
		},
		/** Every store root the catalog has written rows under, by source (root_writes: one row a root). */
		catalogedRoots(): Array<[source: string, root: string]> {
			return catalogedRoots().all() as Array<[string, string]>;
		},
		/** Drops what is kept of a root whose rows are all removed: its write count and remembered listing. */
		forgetRoot(source: string, root: string): void {
			forgetRootWrites().run(source, root);
			forgetListing().run(listingKey(source, root));
		},
		/**
		 * The digest of the listing a root's rows were last checked to match exactly (every key
		 * listed, with its fingerprint, and no other), while no row of the root has been written
		 * since; undefined when none is known. A discovery with this digest has nothing to refresh.
		 */
		matchedListing(source: string, root: string): string | undefined {
			const digest = listingGet().get(listingKey(source, root), source, root) as string | undefined;
			return digest === undefined ? undefined : (JSON.parse(digest) as string);
		},
		/**
		 * Remembers `digest` as the listing of a root when its rows match `units` exactly, checked
		 * under the write lock, so a row another process wrote meanwhile (from what it listed
		 * before this call did) is seen. Only an optimisation: a lock held by another process, or a
		 * catalog that cannot be written, leaves it unremembered, without waiting.
		 */
		rememberListing(source: string, root: string, units: ReadonlyArray<{readonly key: string; readonly fingerprint: string}>, digest: string): void {
			writeUnlessHeld(db, () => {
				const known = new Map(fingerprintsByRoot().all(source, root) as Array<[string, string]>);
				if (known.size === units.length && units.every(unit => known.get(unit.key) === unit.fingerprint)) {
					listingSet().run(listingKey(source, root), source, root, JSON.stringify(digest));
				}
			});
		},
		row(key: string): CatalogRow | undefined {
			// As scanned: a scan continues from what the session's own records said.
			const record = byKey().get(key) as UnitRecord | undefined;
			return record ? decodeScannedRow(record) : undefined;
		},
		/** Saves a scanned unit's row and its new line marks (its documents went in as the scan read them). */
		save(row: CatalogRow, offsets: readonly LineMark[]): void {
			const summary = row.summary;
			const prior = priorLinks().get(row.key) as [string | null, string | null, number] | undefined;
			const judgement = tailJudgement(row.tail);
			// The row it replaces may be another root's (a file listed under two roots).
			const holder = rootOfKey().get(row.key) as [string, string] | undefined;
			if (holder && (holder[0] !== row.source || holder[1] !== row.root)) {
				countWrite(holder[0], holder[1]);
			}

			countWrite(row.source, row.root);
			upsert().run(
				row.key,
				row.source,
				row.root,
				row.path,
				JSON.stringify(row.paths),
				row.variant,
				row.format,
				row.fingerprint,
				row.size,
				row.mtime_ms,
				lastWritten(summary.modified, row.mtime_ms),
				summary.id,
				parentOf(row, prior),
				summary.project,
				summary.started,
				summary.modified,
				summary.title,
				summary.conversational ? 1 : 0,
				row.archived ? 1 : 0,
				row.records,
				row.skipped,
				judgement.open ? 1 : 0,
				judgement.confidence,
				row.scanned_bytes,
				row.next_line,
				row.check_hash,
				row.error,
				JSON.stringify(summary),
				JSON.stringify(row.tail),
			);
			for (const mark of offsets) {
				insertOffset().run(row.key, mark.line, mark.offset);
			}

			if (summary.children !== undefined || prior?.[2]) {
				relinkChildrenOf(row.key, row.source, summary.id, summary.children ?? []);
			}
		},
		/**
		 * Before a unit is read again from the start: drops its line marks and documents, and
		 * makes its row stale (an empty fingerprint), so a scan that stops before saving the unit
		 * leaves a row the next refresh reads again, never one with half its documents.
		 */
		restart(key: string): void {
			countWriteOf(key);
			invalidate().run(key);
			removeOffsets().run(key);
			removeTexts(key, false);
		},
		addTexts,
		remove(key: string): void {
			countWriteOf(key);
			if ((priorLinks().get(key) as [string | null, string | null, number] | undefined)?.[2]) {
				relinkChildrenOf(key, '', null, []);
			}

			remove().run(key);
			removeOffsets().run(key);
			removeTexts(key, true);
		},
		/** The memo discovery may use (kept in the catalog, so it is as disposable as the rest). */
		memo: {
			get(key: string, stamp: string): unknown {
				const value = memoGet().get(key, stamp) as string | undefined;
				try {
					return value === undefined ? undefined : (JSON.parse(value) as unknown);
				} catch {
					return undefined; // A damaged memo is only a miss: discovery works it out again and stores it anew.
				}
			},
			set(key: string, stamp: string, value: unknown): void {
				memoSet().run(key, stamp, JSON.stringify(value));
			},
		},
		/** The nearest known line start at or before a byte offset (line 1 at 0 always qualifies). */
		markBefore(key: string, offset: number): LineMark {
			return (offsetBefore().get(key, offset) as LineMark | undefined) ?? {line: 1, offset: 0};
		},
		/** The nearest known line start at or before a line number. */
		markForLine(key: string, line: number): LineMark {
			return (offsetForLine().get(key, line) as LineMark | undefined) ?? {line: 1, offset: 0};
		},
	};
}

export type CatalogStore = ReturnType<typeof catalogStore>;
