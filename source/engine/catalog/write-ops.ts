import type {Database} from '../../lib/sqlite.js';
import type {TextDoc} from '../search/line-doc.js';
import type {CatalogRow, LineMark} from './scan.js';
import type {CatalogStore} from './store.js';

/**
 * One write a refresh asks of the catalog, as plain data: the writer commits a batch of them in
 * one transaction, on its own connection or on its writing thread's (write-thread.ts), which is
 * given them as they are (structured clone) and applies them through the same store code, in
 * the same order.
 */
export type CatalogWrite =
	| {readonly kind: 'texts'; readonly key: string; readonly docs: readonly TextDoc[]}
	| {readonly kind: 'save'; readonly row: CatalogRow; readonly offsets: readonly LineMark[]}
	| {readonly kind: 'restart'; readonly key: string}
	| {readonly kind: 'remove'; readonly key: string}
	| {readonly kind: 'memo'; readonly key: string; readonly stamp: string; readonly value: unknown};

export function applyWrite(store: CatalogStore, write: CatalogWrite): void {
	switch (write.kind) {
		case 'texts': {
			store.addTexts(write.key, write.docs);
			break;
		}

		case 'save': {
			store.save(write.row, write.offsets);
			break;
		}

		case 'restart': {
			store.restart(write.key);
			break;
		}

		case 'remove': {
			store.remove(write.key);
			break;
		}

		case 'memo': {
			store.memo.set(write.key, write.stamp, write.value);
			break;
		}
	}
}

/** Applies a batch of writes in one immediate transaction (the write lock is taken at its start). */
export function commitWrites(db: Database, store: CatalogStore, writes: readonly CatalogWrite[]): void {
	db.transaction(() => {
		for (const write of writes) {
			applyWrite(store, write);
		}
	}).immediate();
}

/** A batch as it is indexed: raw documents masked by `settle`, blank ones left out. */
export function settledWrites(batch: readonly CatalogWrite[], settle: (doc: TextDoc) => TextDoc | undefined): readonly CatalogWrite[] {
	return batch.map(write => {
		if (write.kind !== 'texts' || !write.docs.some(doc => doc.raw)) {
			return write;
		}

		const docs: TextDoc[] = [];
		for (const doc of write.docs) {
			const kept = settle(doc);
			if (kept) {
				docs.push(kept);
			}
		}

		return {...write, docs};
	});
}
