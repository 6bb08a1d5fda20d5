import type {Database} from '../../lib/sqlite.js';
import {pauseAt} from '../../lib/test-pause.js';
import {joinLineDocs, type TextDoc} from '../search/line-doc.js';
import type {LineMark, ScanResult, TextSink} from './scan.js';
import type {CatalogStore} from './store.js';

/** Documents (or their characters) a refresh holds before it writes them: what bounds its memory. */
const batchDocs = 4096;
const batchChars = 4 * 1024 * 1024;

/**
 * Writes what a refresh scans as it goes, in short transactions of a bounded batch each, so
 * neither the memory a cold scan holds nor the time it keeps the write lock grows with the
 * number or size of the sessions: a 1 GB transcript's documents leave in thousands of small
 * batches, and another process waits for one batch at most. A unit's row is saved last, after
 * its documents, and a unit read from the start first makes its old row stale (`restart`), so
 * a process killed mid-unit leaves a row the next refresh reads again; units saved before it
 * stay saved.
 */
export function catalogWriter(db: Database, store: CatalogStore, env: Readonly<Record<string, string | undefined>>) {
	let pending: Array<() => void> = [];
	let pendingDocs = 0;
	let pendingChars = 0;
	let batches = 0;

	const flush = () => {
		if (pending.length === 0) {
			return;
		}

		const batch = pending;
		pending = [];
		pendingDocs = 0;
		pendingChars = 0;
		db.transaction(() => {
			for (const write of batch) {
				write();
			}
		}).immediate();
		batches++;
		pauseAt(env, 'catalog.after_batch');
	};

	const queue = (write: () => void) => {
		pending.push(write);
		if (pendingDocs >= batchDocs || pendingChars >= batchChars) {
			flush();
		}
	};

	return {
		/** The sink a unit's scan sends its documents to; `finish` saves the unit after them. */
		unit(key: string): TextSink & {finish(result: ScanResult): void} {
			let docs: TextDoc[] = [];
			let last: TextDoc | undefined;
			const queueDocs = () => {
				if (docs.length > 0) {
					const batch = docs;
					docs = [];
					queue(() => store.addTexts(key, batch));
				}
			};

			const keep = (doc: TextDoc) => {
				docs.push(doc);
				pendingDocs++;
				pendingChars += doc.text.length;
				if (pendingDocs >= batchDocs || pendingChars >= batchChars) {
					queueDocs();
				}
			};

			return {
				restart() {
					docs = [];
					last = undefined;
					queue(() => store.restart(key));
				},
				add(doc) {
					// Rows that share a line come one after another (rows are in line order).
					if (last?.line === doc.line) {
						last = joinLineDocs(last, doc);
						return;
					}

					if (last) {
						keep(last);
					}

					last = doc;
				},
				finish(result) {
					if (last) {
						keep(last);
						last = undefined;
					}

					queueDocs();
					const offsets: readonly LineMark[] = result.offsets;
					queue(() => store.save(result.row, offsets));
				},
			};
		},
		remove(key: string): void {
			queue(() => store.remove(key));
		},
		flush,
		/** How many batches this writer has committed. */
		get batches(): number {
			return batches;
		},
	};
}

export type CatalogWriter = ReturnType<typeof catalogWriter>;
