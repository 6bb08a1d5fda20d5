import type {Deps} from '../deps.js';
import {openIndex, requireKnowledgeBase, type IndexHandle} from '../index/open.js';
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
 * the caller's checks against the graph, then append what the journal does not hold by then.
 */
export async function writeEvents(
	paths: KbPaths,
	deps: Deps,
	build: (index: IndexHandle) => EventDraft[],
): Promise<WriteResult> {
	requireKnowledgeBase(paths);
	let index = openIndex(paths);
	let quarantined: RepairResult['lines'] = [];
	try {
		if (index.corrupt.length > 0 || index.unterminatedTail !== undefined) {
			index.close();
			quarantined = (await repairJournal(paths, deps)).lines;
			index = openIndex(paths);
		}

		const drafts = build(index);
		const unchanged = drafts.filter(draft => changesNothing(index.db, draft));
		const effective = drafts.filter(draft => !unchanged.includes(draft)).map(draft => distinctFromHistory(index.db, draft));
		const current = index;
		const {events, present, repaired} = await appendEvents(paths, effective, deps, {presentIds: () => unappliedEventIds(current.db, paths)});
		if (repaired) {
			quarantined = [...quarantined, ...repaired.lines];
		}

		return {events, unchanged, present, quarantined};
	} finally {
		index.close();
	}
}
