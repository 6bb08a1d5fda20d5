import type {SourceId} from '../../../adapters/types.js';
import {isPruneNote} from './rules.js';

/**
 * Where a store keeps, beside a successful edit's result, the whole file as it was before the
 * edit (for its diff view and undo): Claude Code's `toolUseResult.originalFile` (formats.md §1).
 * The model was shown only that the edit was made; what the file held it had read before, and
 * the native record keeps it (`engi read --lines`).
 */
const preEditFields: Partial<Record<SourceId, ReadonlyArray<readonly [string, string]>>> = {
	claude: [['toolUseResult', 'originalFile']],
};

export const preEditReason = 'file before the edit, not shown to the model';

/**
 * A copy of a native record of `source` with its pre-edit file copy replaced by a note, when
 * the note is shorter; undefined when the record has none. Copies only the objects on the path.
 */
export function dropPreEditFile(source: SourceId, raw: unknown): {raw: unknown; saved: number} | undefined {
	for (const [outer, inner] of preEditFields[source] ?? []) {
		const holder = raw !== null && typeof raw === 'object' ? (raw as Record<string, unknown>)[outer] : undefined;
		const value = holder !== null && typeof holder === 'object' && !Array.isArray(holder) ? (holder as Record<string, unknown>)[inner] : undefined;
		// Already a note (a pruned session read again): pruning twice changes nothing.
		if (typeof value !== 'string' || isPruneNote(value)) {
			continue;
		}

		const note = `[omitted: ${preEditReason}; ${value.length} chars]`;
		if (note.length >= value.length) {
			continue;
		}

		return {raw: {...(raw as object), [outer]: {...(holder as object), [inner]: note}}, saved: value.length - note.length};
	}

	return undefined;
}
