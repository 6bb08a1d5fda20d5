import type {DiscoveredUnit, LoadedSession} from '../types.js';
import {sessionRows} from './normalize.js';
import {readSnapshot, replayMutationLog} from './replay.js';

/** A `.jsonl` unit is replayed from its mutation log; a `.json` unit is read as one snapshot. */
export function loadVscodeSession(unit: DiscoveredUnit): LoadedSession {
	const isLog = unit.variant === undefined ? unit.path.endsWith('.jsonl') : unit.variant === 'log';
	return sessionRows(isLog ? replayMutationLog(unit.path) : readSnapshot(unit.path), unit);
}
