import {noteCacheWarning} from '../cache-notices.js';
import type {Deps} from '../deps.js';
import {readWatermark, refreshOpenIndex, requireKnowledgeBase, withIndex, type IndexHandle} from '../index/open.js';
import {unappliedEventIds} from '../index/unapplied.js';
import {appendEvents, type EventDraft} from '../journal/append.js';
import {repairJournal, type RepairResult} from '../journal/quarantine.js';
import type {JournalLine} from '../journal/schema.js';
import type {KbPaths} from '../kb/paths.js';
import {changesNothing, distinctFromHistory} from './effective.js';

export type WriteResult = {
	/** The events appended; empty when every draft already held. */
	readonly events: JournalLine[];
	/** Drafts skipped because the graph already says exactly that. */
	readonly unchanged: EventDraft[];
	/** Events skipped because the journal already held them when the lock was taken (a concurrent writer appended them). */
	readonly present: JournalLine[];
	/** Journal lines this write moved to quarantine before appending, if any. */
	readonly quarantined: RepairResult['lines'];
};

/**
 * The one path by which commands add knowledge: bring the index up to date, quarantine any
 * corrupt lines it found (a writing command may mend the journal; readers only report), run
 * the caller's checks against the graph, append what the journal does not hold by then, and
 * apply the new lines to the index so it matches the journal when the command ends. `build`
 * runs again if the index turns out damaged while it reads (the index is rebuilt first), so it
 * must not keep state between calls.
 */
export async function writeEvents(
	paths: KbPaths,
	deps: Deps,
	build: (index: IndexHandle) => EventDraft[],
): Promise<WriteResult> {
	requireKnowledgeBase(paths);
	return withIndex(paths, deps, async opened => {
		let index = opened;
		let quarantined: RepairResult['lines'] = [];
		if (index.corrupt.length > 0 || index.unterminatedTail !== undefined) {
			quarantined = (await repairJournal(paths, deps)).lines;
			index = refreshOpenIndex(paths, index);
		}

		// What the checks below see; appends after it are looked for again under the lock.
		const checked = readWatermark(index.db);
		const drafts = build(index);
		const unchanged = drafts.filter(draft => changesNothing(index.db, draft));
		const effective = drafts.filter(draft => !unchanged.includes(draft)).map(draft => distinctFromHistory(index.db, draft));
		const {events, present, repaired} = await appendEvents(paths, effective, deps, {presentIds: () => unappliedEventIds(checked, paths)});
		if (repaired) {
			quarantined = [...quarantined, ...repaired.lines];
		}

		if (events.length > 0 || repaired) {
			try {
				refreshOpenIndex(paths, index);
			} catch (error) {
				// The events are in the journal, which is what counts; the next read catches the index up.
				noteCacheWarning(`index_behind: the index could not take this write (${error instanceof Error ? error.message : 'error'}); the next read applies it`);
			}
		}

		return {events, unchanged, present, quarantined};
	});
}
