import type {SessionSummary} from './summarize.js';
import type {TailState} from '../sessions/tail.js';
import type {Database} from '../util/sqlite.js';
import type {CatalogRow, Checkpoint} from './scan.js';
import type {TextDoc} from '../search/session-text.js';
import {segmentForIndex} from '../search/segment.js';
import {tailIsOpen} from '../sessions/reasons.js';

type UnitRecord = Omit<CatalogRow, 'paths' | 'summary' | 'tail'> & {paths: string; summary: string; tail: string; tail_open: number};

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
	'id',
	'parent_id',
	'project',
	'started',
	'modified',
	'title',
	'conversational',
	'records',
	'skipped',
	'summary',
	'tail',
	'tail_open',
	'scanned_bytes',
	'next_line',
	'check_hash',
	'error',
] as const;

export function decodeRow(record: UnitRecord): CatalogRow {
	return {
		...record,
		paths: JSON.parse(record.paths) as string[],
		summary: JSON.parse(record.summary) as SessionSummary,
		tail: JSON.parse(record.tail) as TailState,
	};
}

/** Prepared statements over the catalog tables; rows go in and come out typed. */
export function catalogStore(db: Database) {
	const upsert = db.prepare(`INSERT OR REPLACE INTO units (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`);
	const fingerprintsByRoot = db.prepare('SELECT key, fingerprint FROM units WHERE source = ? AND root = ?').raw();
	const byKey = db.prepare('SELECT * FROM units WHERE key = ?');
	const remove = db.prepare('DELETE FROM units WHERE key = ?');
	const removeOffsets = db.prepare('DELETE FROM offsets WHERE key = ?');
	const insertOffset = db.prepare('INSERT OR REPLACE INTO offsets (key, line, offset) VALUES (?, ?, ?)');
	const offsetBefore = db.prepare('SELECT line, offset FROM offsets WHERE key = ? AND offset <= ? ORDER BY offset DESC LIMIT 1');
	const offsetForLine = db.prepare('SELECT line, offset FROM offsets WHERE key = ? AND line <= ? ORDER BY line DESC LIMIT 1');
	const docRowids = db.prepare('SELECT rowid FROM text_docs WHERE key = ?').pluck();
	const deleteText = db.prepare('DELETE FROM text_fts WHERE rowid = ?');
	const deleteDocs = db.prepare('DELETE FROM text_docs WHERE key = ?');
	const insertDoc = db.prepare('INSERT INTO text_docs (key, line) VALUES (?, ?)');
	const insertText = db.prepare('INSERT INTO text_fts (rowid, words, chars) VALUES (?, ?, ?)');
	const memoGet = db.prepare('SELECT value FROM discovery_memo WHERE key = ? AND stamp = ?').pluck();
	const memoSet = db.prepare('INSERT OR REPLACE INTO discovery_memo (key, stamp, value) VALUES (?, ?, ?)');
	const removeTexts = (key: string) => {
		for (const rowid of docRowids.all(key) as number[]) {
			deleteText.run(rowid);
		}

		deleteDocs.run(key);
	};

	return {
		/** Key → fingerprint of every unit under a root: all a warm refresh needs to find what changed. */
		fingerprintsForRoot(source: string, root: string): Map<string, string> {
			return new Map(fingerprintsByRoot.all(source, root) as Array<[string, string]>);
		},
		row(key: string): CatalogRow | undefined {
			const record = byKey.get(key) as UnitRecord | undefined;
			return record ? decodeRow(record) : undefined;
		},
		save(row: CatalogRow, offsets: readonly Checkpoint[], replaceOffsets: boolean, texts: readonly TextDoc[] = []): void {
			const summary = row.summary;
			upsert.run(
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
				summary.id,
				summary.parent_id,
				summary.project,
				summary.started,
				summary.modified,
				summary.title,
				summary.conversational ? 1 : 0,
				row.records,
				row.skipped,
				JSON.stringify(summary),
				JSON.stringify(row.tail),
				tailIsOpen(row.tail) ? 1 : 0,
				row.scanned_bytes,
				row.next_line,
				row.check_hash,
				row.error,
			);
			if (replaceOffsets) {
				removeOffsets.run(row.key);
				removeTexts(row.key);
			}

			for (const checkpoint of offsets) {
				insertOffset.run(row.key, checkpoint.line, checkpoint.offset);
			}

			for (const doc of texts) {
				const rowid = Number(insertDoc.run(row.key, doc.line).lastInsertRowid);
				const {words, chars} = segmentForIndex(doc.text);
				insertText.run(rowid, words, chars);
			}
		},
		remove(key: string): void {
			remove.run(key);
			removeOffsets.run(key);
			removeTexts(key);
		},
		/** The memo discovery may use (kept in the catalog, so it is as disposable as the rest). */
		memo: {
			get(key: string, stamp: string): unknown {
				const value = memoGet.get(key, stamp) as string | undefined;
				return value === undefined ? undefined : (JSON.parse(value) as unknown);
			},
			set(key: string, stamp: string, value: unknown): void {
				memoSet.run(key, stamp, JSON.stringify(value));
			},
		},
		/** The nearest known line start at or before a byte offset (line 1 at 0 always qualifies). */
		checkpointBefore(key: string, offset: number): Checkpoint {
			return (offsetBefore.get(key, offset) as Checkpoint | undefined) ?? {line: 1, offset: 0};
		},
		/** The nearest known line start at or before a line number. */
		checkpointForLine(key: string, line: number): Checkpoint {
			return (offsetForLine.get(key, line) as Checkpoint | undefined) ?? {line: 1, offset: 0};
		},
	};
}

export type CatalogStore = ReturnType<typeof catalogStore>;
