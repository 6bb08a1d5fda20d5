import type {IndexHandle} from '../index/open.js';
import {countQuarantined} from '../journal/quarantine.js';
import type {KbPaths} from '../kb/paths.js';
import {stateReason, type StateReason} from '../search/result-state.js';

/** What the index itself says is missing from any answer it gives: lines it could not read, lines in quarantine, a rebuild this call had to make. */
export function indexReasons(paths: KbPaths, index: IndexHandle): StateReason[] {
	const reasons: StateReason[] = [];
	if (index.rebuildReason === 'journal_rewritten') {
		reasons.push(stateReason('index_rebuilt_during_call', 'the journal was rewritten since the index was built, so this call rebuilt it'));
	}

	if (index.corrupt.length > 0) {
		reasons.push(stateReason('journal_lines_unreadable', `${index.corrupt.length} journal line(s) await quarantine and were not searched`, {count: index.corrupt.length}));
	}

	const quarantined = countQuarantined(paths).lines;
	if (quarantined > 0) {
		reasons.push(stateReason('quarantined_lines', `${quarantined} journal line(s) are in quarantine and were not searched`, {count: quarantined}));
	}

	return reasons;
}
