import {statSync} from 'node:fs';
import {noteCacheWarning} from '../cache-notices.js';
import type {Deps} from '../deps.js';
import {indexBusyWarning, readWatermark, refreshOpenIndex, withIndex, type IndexHandle} from '../index/open.js';
import {statUnchanged, type Watermark} from '../index/watermark.js';
import {appendEvents, type EventDraft} from '../journal/append.js';
import {repairJournal, type RepairResult} from '../journal/quarantine.js';
import type {JournalLine} from '../journal/schema.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {EngiError} from '../../lib/errors.js';
import {pauseAt} from '../../lib/test-pause.js';
import {changesNothing, distinctFromHistory} from './effective.js';

export type WriteResult = {
	/** The events appended; empty when every draft already held. */
	readonly events: JournalLine[];
	/** Drafts skipped because the graph already says exactly that (as it stood under the lock, if another writer appended meanwhile). */
	readonly unchanged: EventDraft[];
	/** Events skipped because this batch held them already, earlier. */
	readonly present: JournalLine[];
	/** Journal lines this write moved to quarantine before appending, if any. */
	readonly quarantined: RepairResult['lines'];
};

type Plan = {
	/** The index's watermark the checks saw. */
	readonly checked: Watermark | undefined;
	readonly unchanged: EventDraft[];
	readonly effective: EventDraft[];
};

/**
 * The one path by which commands add knowledge: bring the index up to date, quarantine any
 * corrupt lines it found (a writing command may mend the journal; readers only report), run
 * the caller's checks against the graph, append what they decide, and apply the new lines to
 * the index so it matches the journal when the command ends. When another writer appended
 * between the checks and the journal lock, the index takes its lines and the checks run again
 * under the lock: what is appended is decided against the journal as it is then, so a note
 * two writers planned is appended once, and a write is not lost to a retract it never saw.
 * `build` therefore runs again then, and when the index turns out damaged while it reads (the
 * index is rebuilt first), so it must not keep state between calls, nor write the index (it
 * runs inside a read transaction); `after` runs once the events are appended and applied, for
 * a writer that keeps state of its own in the index (wiki sync's held pages).
 */
export async function writeEvents(
	paths: KbPaths,
	deps: Deps,
	build: (index: IndexHandle) => EventDraft[],
	/** Runs once the events are appended and applied, over the index as this write leaves it (derived state a caller keeps of its write). */
	after?: (index: IndexHandle, events: readonly JournalLine[]) => void,
): Promise<WriteResult> {
	requireKnowledgeBase(paths);
	return withIndex(paths, deps, async opened => {
		let index = opened;
		let quarantined: RepairResult['lines'] = [];
		if (index.corrupt.length > 0 || index.unterminatedTail !== undefined) {
			quarantined = (await repairJournal(paths, deps)).lines;
			index = refreshOpenIndex(paths, index);
		}

		// One read transaction: other processes apply their appends to the shared index as they
		// end, and checks that saw some of those but not others would misjudge what is new.
		const plan = (locked: boolean): Plan =>
			index.db.transaction(() => {
				const checked = readWatermark(index.db);
				const drafts = build(index);
				const unchanged = drafts.filter(draft => changesNothing(index.db, draft));
				if (!locked) {
					pauseAt(deps.env, 'write.planning');
				}

				const effective = drafts.filter(draft => !unchanged.includes(draft)).map(draft => distinctFromHistory(index.db, draft));
				return {checked, unchanged, effective};
			})();

		let planned = plan(false);
		pauseAt(deps.env, 'write.before_lock');
		const replan = () => {
			if (statUnchanged(planned.checked, statSync(paths.journal, {throwIfNoEntry: false}))) {
				return undefined;
			}

			index = refreshOpenIndex(paths, index);
			planned = plan(true);
			return planned.effective;
		};

		const {events, present, repaired} = await appendEvents(paths, planned.effective, deps, {replan});
		if (repaired) {
			quarantined = [...quarantined, ...repaired.lines];
		}

		if (events.length > 0 || repaired) {
			try {
				index = refreshOpenIndex(paths, index);
			} catch (error) {
				// The events are in the journal, which is what counts; the next read catches the index up.
				noteCacheWarning(behindWarning(paths, error));
			}
		}

		after?.(index, events);
		return {events, unchanged: planned.unchanged, present, quarantined};
	});
}

/**
 * The warning of a write the index could not take after it: index_busy, as a reader or wiki sync
 * warns, when another process kept the index locked past the busy timeout (only held, nothing
 * wrong with it); index_behind for any other failure.
 */
function behindWarning(paths: KbPaths, error: unknown): string {
	if (error instanceof EngiError && error.code === 'index_busy') {
		return indexBusyWarning(paths, error, 'the journal has this write: the next read applies it to the index');
	}

	return `index_behind: the index could not take this write (${error instanceof Error ? error.message : 'error'}); the next read applies it`;
}
