import type {MessagePort} from 'node:worker_threads';
import {systemErrorCode} from '../../lib/errors.js';
import type {CatalogWrite} from './write-ops.js';

/**
 * What the refresh and its writing thread share: an Int32Array over shared memory, read and
 * waited on with Atomics, so the refresh (synchronous code, deep in a scan) can wait for the
 * thread without an event loop. Failures travel on a port of their own, read with
 * receiveMessageOnPort once the failed slot says one was sent.
 */
export type WriteThreadSetup = {
	readonly path: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly state: Int32Array;
	readonly failures: MessagePort;
};

/** Batches the thread has finished with (committed, or passed over after a failure). */
export const finishedSlot = 0;
/** 1 once the thread has loaded its code and opened the catalog. */
export const startedSlot = 1;
/** 1 once the thread has failed: its failure is on the port, and it commits nothing more. */
export const failedSlot = 2;
/** 1 once the thread has closed its connection, at the refresh's word. */
export const closedSlot = 3;
export const stateSlots = 4;

/** What crosses the port when the thread fails: enough to rebuild the error the refresh judges. */
export type ThreadFailure = {readonly name: string; readonly message: string; readonly code?: string};

export function reportThreadFailure(setup: WriteThreadSetup, error: unknown): void {
	const code = systemErrorCode(error);
	const failure: ThreadFailure = {name: error instanceof Error ? error.name : 'Error', message: error instanceof Error ? error.message : String(error), ...(code === undefined ? {} : {code})};
	// Posted before the slot is set: whoever sees the slot finds the message already queued.
	setup.failures.postMessage(failure);
	Atomics.store(setup.state, failedSlot, 1);
	Atomics.notify(setup.state, finishedSlot);
}

/** The refresh's handle on its writing thread (startWriteThread). */
export type WriteThread = {
	post(batch: readonly CatalogWrite[]): void;
	drain(): void;
	close(): void;
	stop(): void;
};

/** The thread could not start (its code would not load, or it never answered): the refresh writes on its own. */
export class WriteThreadUnavailable extends Error {
	constructor(
		message: string,
		/** The batches it was given and never committed, in order. */
		readonly unfinished: ReadonlyArray<readonly CatalogWrite[]>,
	) {
		super(message);
		this.name = 'WriteThreadUnavailable';
	}
}

