import {workerData} from 'node:worker_threads';
import {reportThreadFailure, type WriteThreadSetup} from './write-thread-state.js';

/**
 * The catalog's writing thread (see write-thread.ts). Its work is imported here, inside a
 * try, so a thread that cannot even load its code says so: the refresh waits on it without an
 * event loop, and would otherwise wait for a thread that is gone.
 */
const setup = workerData as WriteThreadSetup;
try {
	const {serveWrites} = await import('./write-thread-work.js');
	serveWrites(setup);
} catch (error) {
	reportThreadFailure(setup, error);
}
