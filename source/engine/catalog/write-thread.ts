import {existsSync} from 'node:fs';
import {fileURLToPath} from 'node:url';
import {setFlagsFromString} from 'node:v8';
import {MessageChannel, receiveMessageOnPort, Worker} from 'node:worker_threads';
import type {CatalogWrite} from './write-ops.js';
import {closedSlot, failedSlot, finishedSlot, startedSlot, stateSlots, WriteThreadUnavailable, type ThreadFailure, type WriteThread, type WriteThreadSetup} from './write-thread-state.js';

/**
 * Batches posted and not yet finished, at most, before the refresh waits: what bounds the
 * memory the hand-over holds (a batch is at most catalogWriter's few thousand documents).
 */
const inFlight = 2;

/** How long the refresh waits for a thread that has not started before it writes on its own. */
const startLimitMs = 30_000;

/**
 * How long a started thread may go without finishing a batch before the refresh takes the
 * batches back: far past the 10 s a batch may wait for another process's lock (busy_timeout),
 * and past any batch's own work.
 */
const stallLimitMs = 60_000;

/**
 * The heap growth both isolates are held to while a thread writes (V8's --heap-growing-percent:
 * a heap may grow to twice what a collection left). Two isolates each growing their heaps by
 * V8's own factors (up to 4×) took a cold build of 15,000 sessions from 207 MB (one thread) to
 * 257-273 MB; held to 2×, 228 MB. 1.6× gave 217-224 MB but cost cold M ~3% more collecting;
 * 2.5×, 239 MB. Set back to V8's own (0) when the thread ends.
 */
const heapGrowingPercent = 100;

/**
 * A thread that commits the catalog's writes while the refresh goes on reading: a cold build
 * spent a quarter of its time in SQLite (the text index, its term counts, the commits), which
 * now runs beside the reading, on a second core. It has a connection of its own and applies the
 * batches in the order they were posted, through the same store code, so the catalog comes out
 * as one thread would have written it. The refresh waits only when two batches are outstanding,
 * and before it reads what it wrote (`drain`).
 */
export function startWriteThread(path: string, env: Readonly<Record<string, string | undefined>>): WriteThread | undefined {
	// Run from source (the tests' own imports), or an install missing part of the build: no thread
	// at all. A thread whose entry cannot load never answers (node's loader for .ts is not the
	// thread's).
	const entry = threadFile();
	if (entry === undefined || !existsSync(entry)) {
		return undefined;
	}

	const state = new Int32Array(new SharedArrayBuffer(stateSlots * Int32Array.BYTES_PER_ELEMENT));
	const failures = new MessageChannel();
	const setup: WriteThreadSetup = {path, env, state, failures: failures.port2};
	setFlagsFromString(`--heap-growing-percent=${heapGrowingPercent}`);
	// The thread's young generation held small too: what it allocates per batch dies young.
	const worker = new Worker(entry, {workerData: setup, transferList: [failures.port2], resourceLimits: {maxYoungGenerationSizeMb: 8}});
	// Neither keeps the process alive: the refresh ends the thread (close, stop) or the process exits.
	worker.unref();
	failures.port1.unref();
	// A thread that dies (its code would not load, its heap ran out) says so only through this
	// event, which the refresh, waiting without an event loop, never sees: it notices the silence
	// (stallLimitMs) instead. Listened to, so the event does not end the process.
	worker.on('error', () => undefined);
	// ENGI_TEST_THREAD_STALL_MS: the tests' thread that dies is noticed sooner.
	const silenceLimit = Number(env['ENGI_TEST_THREAD_STALL_MS'] ?? stallLimitMs);
	// Batches posted and not yet known finished, in order: a thread that falls silent hands them back.
	const outstanding: Array<readonly CatalogWrite[]> = [];
	let finishedSeen = 0;
	let heardAt = Date.now();
	let ended = false;

	const end = () => {
		if (!ended) {
			ended = true;
			setFlagsFromString('--heap-growing-percent=0');
		}
	};

	const stop = () => {
		end();
		void worker.terminate();
	};

	const failIfFailed = () => {
		if (Atomics.load(state, failedSlot) === 0) {
			return;
		}

		const failure = (receiveMessageOnPort(failures.port1)?.message as ThreadFailure | undefined) ?? {name: 'Error', message: 'the catalog writing thread failed'};
		stop();
		if (Atomics.load(state, startedSlot) === 0) {
			throw new WriteThreadUnavailable(`the catalog writing thread could not start (${failure.code ?? failure.name})`, outstanding);
		}

		throw Object.assign(new Error(failure.message), {name: failure.name}, failure.code === undefined ? {} : {code: failure.code});
	};

	/** Waits till at most `limit` posted batches are unfinished. */
	const waitTill = (limit: number) => {
		for (;;) {
			failIfFailed();
			const finished = Atomics.load(state, finishedSlot);
			if (finished > finishedSeen) {
				outstanding.splice(0, finished - finishedSeen);
				finishedSeen = finished;
				heardAt = Date.now();
			}

			if (outstanding.length <= limit) {
				return;
			}

			const limitMs = Atomics.load(state, startedSlot) === 0 ? startLimitMs : silenceLimit;
			if (Date.now() - heardAt > limitMs) {
				stop();
				throw new WriteThreadUnavailable('the catalog writing thread fell silent', outstanding);
			}

			Atomics.wait(state, finishedSlot, finished, 1000);
		}
	};

	return {
		post(batch: readonly CatalogWrite[]): void {
			waitTill(inFlight - 1);
			worker.postMessage(batch);
			outstanding.push(batch);
		},
		/** Waits till every posted batch is committed; throws the thread's failure. */
		drain(): void {
			waitTill(0);
		},
		/**
		 * Has the thread close its connection, and waits for that (after drain): a connection left
		 * open when the process exits keeps the catalog's -wal file, which the refresh's own
		 * connection, the last to close, otherwise folds in and removes.
		 */
		close(): void {
			worker.postMessage('close');
			const asked = Date.now();
			while (Atomics.load(state, closedSlot) === 0 && Atomics.load(state, failedSlot) === 0 && Date.now() - asked < silenceLimit) {
				Atomics.wait(state, closedSlot, 0, 1000);
			}

			end();
		},
		/** Ends the thread now, whatever it holds: after a failure nothing it was given is wanted. */
		stop,
	};
}

/**
 * The thread's entry: beside the bundle's chunks (build/write-thread-entry.mjs, an entry of the
 * split build, which both the modules and the one-script build reach as `../write-thread-entry.mjs`
 * from build/chunks/); none when run from source.
 */
function threadFile(): string | undefined {
	const here = import.meta.url;
	return here.endsWith('.ts') ? undefined : fileURLToPath(new URL('../write-thread-entry.mjs', here));
}
