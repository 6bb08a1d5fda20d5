import {closeSync, fsyncSync, openSync} from 'node:fs';
import {endsWithNewline, writeAll} from '../util/files.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../errors.js';
import {withExclusiveLock} from '../kb/lock.js';
import type {KbPaths} from '../kb/paths.js';
import {canonicalUtc} from '../util/time.js';
import {canonicalJson, eventId} from './canonical.js';
import {repairJournalLocked, type RepairResult} from './quarantine.js';
import {payloadSchemas, type JournalLine, type JournalOp} from './schema.js';

export type EventDraft = {readonly op: JournalOp; readonly payload: Record<string, unknown>};

/** Checks every draft before anything is written: one bad event means nothing is appended. */
export function prepareEvents(drafts: readonly EventDraft[], now: Date): JournalLine[] {
	const observed = canonicalUtc(now);
	return drafts.map((draft, index) => {
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
	/** Events not written because the journal already held them (or this batch did, earlier). */
	readonly present: JournalLine[];
	readonly repaired: RepairResult | undefined;
};

export type AppendOptions = {
	/**
	 * Ids of events in the journal that the caller's checks did not see (another writer's
	 * appends since). Called under the lock, so two writers preparing the same events append
	 * them once: replay would apply such a repeat only once anyway.
	 */
	readonly presentIds?: () => ReadonlySet<string>;
};

/**
 * Appends events under the journal lock with a single write and an fsync. If the file does not
 * end in a newline (a crash cut the last line), the journal is repaired first so the new line is
 * never glued onto a torn one.
 */
export async function appendEvents(paths: KbPaths, drafts: readonly EventDraft[], deps: Deps, options: AppendOptions = {}): Promise<AppendResult> {
	const prepared = prepareEvents(drafts, deps.now());
	if (prepared.length === 0) {
		return {events: prepared, present: [], repaired: undefined};
	}

	return withExclusiveLock(paths.engi, 'journal', () => {
		let repaired: AppendResult['repaired'];
		if (!endsWithNewline(paths.journal)) {
			repaired = repairJournalLocked(paths, deps);
		}

		const seen = new Set(options.presentIds?.());
		const events: JournalLine[] = [];
		const present: JournalLine[] = [];
		for (const event of prepared) {
			(seen.has(event.id) ? present : events).push(event);
			seen.add(event.id);
		}

		if (events.length > 0) {
			const fd = openSync(paths.journal, 'a');
			try {
				writeAll(fd, Buffer.from(events.map(event => serializeEvent(event)).join('')));
				fsyncSync(fd);
			} finally {
				closeSync(fd);
			}
		}

		return {events, present, repaired};
	});
}
