import {fields, looseRecord, object, text} from '../shared/loose.js';
import type {GrokSummary} from './schema.js';

/**
 * grokSummarySchema (schema.ts) read by hand (shared/loose.ts): each session's `summary.json` is
 * read on every cold scan. test/adapters/loose-records.test.ts checks this against the schema.
 */
const summaryFields = fields({
	info: object(fields({id: text, cwd: text})),
	session_summary: text,
	generated_title: text,
	created_at: text,
	updated_at: text,
	last_active_at: text,
	current_model_id: text,
	parent_session_id: text,
	session_kind: text,
});

/** What `grokSummarySchema.safeParse(value)` gives on success, undefined where it fails. */
export function readGrokSummaryRecord(value: unknown): GrokSummary | undefined {
	return looseRecord(value, summaryFields) as GrokSummary | undefined;
}
