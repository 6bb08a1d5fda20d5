import {closeSync, fstatSync, openSync, statSync} from 'node:fs';
import {appendDurably, endsWithNewline} from '../../lib/files.js';
import type {Deps} from '../deps.js';
import {EngiError, writeError} from '../../lib/errors.js';
import {withExclusiveLock} from '../kb/lock.js';
import type {KbPaths} from '../kb/paths.js';
import {exceedsJsonDepth, maxJsonDepth} from '../../lib/json-depth.js';
import {pauseAt} from '../../lib/test-pause.js';
import {canonicalUtc} from '../../lib/time.js';
import {canonicalJson, eventId} from './canonical.js';
import {repairJournalLocked, type RepairResult} from './quarantine.js';
import {payloadSchemas, type JournalLine, type JournalOp} from './schema.js';

export type EventDraft = {readonly op: JournalOp; readonly payload: Record<string, unknown>};

/** Checks every draft before anything is written: one bad event means nothing is appended. */
export function prepareEvents(drafts: readonly EventDraft[], now: Date): JournalLine[] {
	const observed = canonicalUtc(now);
	return drafts.map((draft, index) => {
		// The line wraps the payload in one more object; past the bound no reader could walk it.
		if (exceedsJsonDepth(draft.payload, maxJsonDepth - 1)) {
			throw new EngiError('too_deep', `event ${index + 1} (${draft.op}): payload nested deeper than ${maxJsonDepth - 1} levels`, {hint: 'nothing was written'});
		}

		const result = payloadSchemas[draft.op].safeParse(draft.payload);
		if (!result.success) {
			const issue = result.error.issues[0];
			const where = issue?.path.map(String).join('.') || 'payload';
			throw new EngiError('invalid_event', `event ${index + 1} (${draft.op}): ${where}: ${issue?.message ?? 'invalid'}`, {
				hint: 'nothing was written',
			});
		}

		return {id: eventId(draft.op, draft.payload), observed_utc: observed, op: draft.op, payload: draft.payload};
	});
}

export function serializeEvent(event: JournalLine): string {
	return `{"id":${JSON.stringify(event.id)},"observed_utc":${JSON.stringify(event.observed_utc)},"op":${JSON.stringify(event.op)},"payload":${canonicalJson(event.payload)}}\n`;
}

export type AppendResult = {
	/** The events written. */
	readonly events: JournalLine[];
	/** Events not written because this batch held them already, earlier. */
	readonly present: JournalLine[];
	readonly repaired: RepairResult | undefined;
};

export type AppendOptions = {
	/**
	 * Called under the lock: the drafts to append instead, planned again against the journal as
	 * it is then, when another writer appended since the caller planned; undefined keeps them.
	 * So two writers preparing the same events append them once, and no write is decided
	 * against a graph that no longer holds.
	 */
	readonly replan?: () => readonly EventDraft[] | undefined;
};

/**
 * Appends events under the journal lock with one write (looped over short writes) and an
 * fsync; a failed append is cut back off, so the journal never keeps half a line. If the file
 * does not end in a newline (a crash cut the last line), the journal is repaired first so the
 * new line is never glued onto a torn one.
 */
export async function appendEvents(paths: KbPaths, drafts: readonly EventDraft[], deps: Deps, options: AppendOptions = {}): Promise<AppendResult> {
	const prepared = prepareEvents(drafts, deps.now());
	if (prepared.length === 0) {
		return {events: prepared, present: [], repaired: undefined};
	}

	return withExclusiveLock(paths.engi, 'journal', lock => {
		let repaired: AppendResult['repaired'];
		if (!endsWithNewline(paths.journal)) {
			repaired = repairJournalLocked(paths, deps, lock);
		}

		const replanned = options.replan?.();
		const seen = new Set<string>();
		const events: JournalLine[] = [];
		const present: JournalLine[] = [];
		for (const event of replanned ? prepareEvents(replanned, deps.now()) : prepared) {
			(seen.has(event.id) ? present : events).push(event);
			seen.add(event.id);
		}

		if (events.length === 0) {
			return {events, present, repaired};
		}

		let fd: number;
		try {
			fd = openSync(paths.journal, 'a', 0o600);
		} catch (error) {
			throw writeError(paths.journal, error);
		}

		try {
			pauseAt(deps.env, 'journal.before_append');
			lock.confirm();
			appendDurably(fd, paths.journal, Buffer.from(events.map(event => serializeEvent(event)).join('')));
			// A writer that took the lock over and renamed a rewrite over the journal meanwhile
			// would have left these bytes in a file nobody reads any more.
			if (statSync(paths.journal).ino !== fstatSync(fd).ino) {
				throw new EngiError('lock_lost', `${paths.journal} was replaced while this process appended to it`, {hint: 'run the command again: an event already in the journal is not added twice'});
			}
		} finally {
			closeSync(fd);
		}

		return {events, present, repaired};
	});
}
