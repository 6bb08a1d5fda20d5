import type {DiscoveryMemo} from '../../adapters/types.js';
import type {Database} from '../../lib/sqlite.js';
import {pauseAt} from '../../lib/test-pause.js';
import {joinLineDocs, type TextDoc} from '../search/line-doc.js';
import type {LineMark, ScanResult, TextSink} from './scan.js';
import type {CatalogStore} from './store.js';
import {commitWrites, settledWrites, type CatalogWrite} from './write-ops.js';
import type {WriteThread, WriteThreadUnavailable} from './write-thread-state.js';

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
 * stay saved. Once a writing thread has started (`allowThread`), the batches are committed
 * there, in the same order, while the refresh reads on.
 */
export function catalogWriter(db: Database, store: CatalogStore, env: Readonly<Record<string, string | undefined>>) {
	let pending: CatalogWrite[] = [];
	let pendingDocs = 0;
	let pendingChars = 0;
	let batches = 0;
	let thread: WriteThread | undefined;
	// How a raw document (TextDoc.raw) is masked (settleDoc): given with the thread, which masks them.
	let maskRaw: ((doc: TextDoc) => TextDoc | undefined) | undefined;

	// Set once a thread could not start: the rest is written here.
	let threadless = false;

	// Raw documents reach this connection only from a thread that could not start (its batches
	// handed back, and what was queued for it): masked here first.
	const commitHere = (batch: readonly CatalogWrite[]) => {
		commitWrites(db, store, maskRaw ? settledWrites(batch, maskRaw) : batch);
		pauseAt(env, 'catalog.after_batch');
	};

	/** A thread that could not start hands back what it was given, which is written here, in order. */
	const takeBack = (error: unknown) => {
		// By name: the class is loaded with the thread, never on a call that starts none.
		if (!(error instanceof Error) || error.name !== 'WriteThreadUnavailable') {
			throw error;
		}

		thread = undefined;
		threadless = true;
		for (const batch of (error as WriteThreadUnavailable).unfinished) {
			commitHere(batch);
		}
	};

	// Set once the refresh allows a thread (allowThread): started when its writes first fill a batch.
	let starter: (() => WriteThread | undefined) | undefined;

	const startThread = (start: () => WriteThread | undefined) => {
		starter = undefined;
		thread = start();
		threadless = thread === undefined;
	};

	/** Writes what is queued; `full`: the batch reached its bounds, which starts an allowed thread. */
	const flush = (full = false) => {
		if (pending.length === 0) {
			return;
		}

		if (full && starter) {
			startThread(starter);
		}

		const batch = pending;
		pending = [];
		pendingDocs = 0;
		pendingChars = 0;
		batches++;
		if (thread) {
			try {
				thread.post(batch);
				return;
			} catch (error) {
				takeBack(error);
			}
		}

		commitHere(batch);
	};

	const queue = (write: CatalogWrite) => {
		pending.push(write);
		if (pendingDocs >= batchDocs || pendingChars >= batchChars) {
			flush(true);
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
					queue({kind: 'texts', key, docs: batch});
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
				get maskLater() {
					return thread !== undefined;
				},
				restart() {
					docs = [];
					last = undefined;
					queue({kind: 'restart', key});
				},
				add(doc) {
					// Rows that share a line come one after another (rows are in line order), joined
					// as they are indexed: masked, the blank ones left out.
					if (last?.line === doc.line) {
						const [earlier, later] = [maskRaw && last.raw ? maskRaw(last) : last, maskRaw && doc.raw ? maskRaw(doc) : doc];
						last = earlier && later ? joinLineDocs(earlier, later) : (earlier ?? later);
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
					queue({kind: 'save', row: result.row, offsets});
				},
			};
		},
		remove(key: string): void {
			queue({kind: 'remove', key});
		},
		/**
		 * The memo discovery is given: read from the catalog, written in turn with the batches
		 * while a thread writes them (the catalog's lock is the thread's most of the time then).
		 */
		memo: {
			get: (key: string, stamp: string) => store.memo.get(key, stamp),
			set(key: string, stamp: string, value: unknown) {
				if (thread) {
					queue({kind: 'memo', key, stamp, value});
				} else {
					store.memo.set(key, stamp, value);
				}
			},
		} satisfies DiscoveryMemo,
		/** Writes what is queued: committed before this returns, or handed to the thread. */
		flush(): void {
			flush();
		},
		/** True while a thread commits the batches (what is flushed may not be committed yet). */
		get threaded(): boolean {
			return thread !== undefined;
		},
		/**
		 * Lets the batches go to the thread `start` starts (startWriteThread; undefined: none could
		 * be), once this refresh's writes first fill a batch (`now`: at once): a refresh that writes
		 * less than that never pays for starting one. `settleDoc` masks what the reading hands on
		 * unmasked while a thread writes, should it come back here.
		 */
		allowThread(start: () => WriteThread | undefined, settleDoc: (doc: TextDoc) => TextDoc | undefined, now: boolean): void {
			if (threadless || thread !== undefined || starter !== undefined) {
				return;
			}

			maskRaw = settleDoc;
			if (now) {
				flush();
				startThread(start);
			} else {
				starter = start;
			}
		},
		/** Writes what is queued and waits till all of it is committed; later batches are committed here again. */
		settle(): void {
			starter = undefined;
			flush();
			if (thread) {
				const settling = thread;
				thread = undefined;
				try {
					settling.drain();
					settling.close();
				} catch (error) {
					settling.stop();
					takeBack(error);
				}
			}
		},
		/** Ends a thread still writing, without waiting (a refresh that failed). */
		abandon(): void {
			thread?.stop();
			thread = undefined;
		},
		/** How many batches this writer has committed. */
		get batches(): number {
			return batches;
		},
	};
}

export type CatalogWriter = ReturnType<typeof catalogWriter>;
