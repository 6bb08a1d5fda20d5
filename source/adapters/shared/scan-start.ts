import type {LineState} from '../types.js';

/** The line states this process has read a record with (weakly held: a finished scan's goes with it). */
const scanStates = new WeakSet<LineState>();

/**
 * Whether this record begins a scan: the first read with its line state, a fresh one or a copy of
 * the state a catalog row kept (the engine continues a grown file from it). A name a sidecar gives
 * is looked up again there, so a continued scan states the name a read of the whole file would.
 * Call it once per record.
 */
export function beginsScan(lineState: LineState): boolean {
	if (scanStates.has(lineState)) {
		return false;
	}

	scanStates.add(lineState);
	return true;
}
