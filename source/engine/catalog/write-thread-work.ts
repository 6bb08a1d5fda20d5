import {parentPort} from 'node:worker_threads';
import {openDatabase} from '../../lib/sqlite.js';
import {pauseAt} from '../../lib/test-pause.js';
import {settleDoc} from '../search/session-text.js';
import {catalogStore} from './store.js';
import {commitWrites, settledWrites, type CatalogWrite} from './write-ops.js';
import {closedSlot, failedSlot, finishedSlot, reportThreadFailure, startedSlot, type WriteThreadSetup} from './write-thread-state.js';

/**
 * Commits the batches the refresh posts, in order, each in its own transaction on a connection
 * of the thread's own, as the refresh would have on its. After a failure it commits nothing
 * more (a later batch may depend on the failed one) and only counts what arrives as finished.
 */
export function serveWrites(setup: WriteThreadSetup): void {
	const db = openDatabase(setup.path, {fileMustExist: true});
	// As the refresh's own connection has it while it writes: no fsync (the catalog is rebuilt
	// when a power loss damages it), and pages through SQLite's small cache, not a memory map,
	// whose every touched page stays resident.
	db.pragma('synchronous = OFF');
	db.pragma('mmap_size = 0');
	const store = catalogStore(db);
	Atomics.store(setup.state, startedSlot, 1);
	Atomics.notify(setup.state, finishedSlot);
	parentPort!.on('message', (batch: readonly CatalogWrite[] | 'close') => {
		if (batch === 'close') {
			db.close();
			setup.failures.close();
			parentPort!.close();
			Atomics.store(setup.state, closedSlot, 1);
			Atomics.notify(setup.state, closedSlot);
			return;
		}

		// For the tests: a thread that dies before its n-th batch, saying nothing (as one whose heap ran out).
		if (setup.env['ENGI_TEST_THREAD_EXIT_AT'] === String(Atomics.load(setup.state, finishedSlot) + 1)) {
			process.exit(1);
		}

		if (Atomics.load(setup.state, failedSlot) === 0) {
			try {
				// Masked here: the refresh hands on short texts unmasked (rowDoc's maskLater).
				commitWrites(db, store, settledWrites(batch, settleDoc));
				pauseAt(setup.env, 'catalog.after_batch');
			} catch (error) {
				reportThreadFailure(setup, error);
			}
		}

		Atomics.add(setup.state, finishedSlot, 1);
		Atomics.notify(setup.state, finishedSlot);
	});
}
