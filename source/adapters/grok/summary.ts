import {readSmallJson} from '../shared/fs.js';
import type {SessionInfo} from '../events.js';
import type {GrokSummary} from './schema.js';
import {readGrokSummaryRecord} from './summary-record.js';

/** A session's `summary.json`, or undefined when it is missing or not a readable summary. */
export function readGrokSummary(path: string): GrokSummary | undefined {
	const value = readSmallJson(path);
	return value === undefined ? undefined : readGrokSummaryRecord(value);
}

function nonEmpty(value: string | null | undefined): string | undefined {
	return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The session facts `summary.json` states, in the event model's shape. */
export function summaryFacts(summary: GrokSummary): SessionInfo {
	const id = nonEmpty(summary.info?.id);
	const cwd = nonEmpty(summary.info?.cwd);
	// A session is never its own parent: a summary naming itself names none.
	const parent = nonEmpty(summary.parent_session_id);
	// The generated title is the tool's own; `session_summary` holds the same kind of text.
	const title = nonEmpty(summary.generated_title) ?? nonEmpty(summary.session_summary);
	const model = nonEmpty(summary.current_model_id);
	const started = nonEmpty(summary.created_at);
	// chat_history has no timestamps: the summary's own times say when the session was active.
	const modified = nonEmpty(summary.last_active_at) ?? nonEmpty(summary.updated_at);
	return {
		...(id ? {id} : {}),
		...(cwd ? {cwd} : {}),
		...(parent && parent !== id ? {parent_id: parent} : {}),
		...(title ? {title} : {}),
		...(model ? {model} : {}),
		...(started ? {started} : {}),
		...(modified ? {modified} : {}),
	};
}

/**
 * A session a parent agent spawned: its prompts are the parent's, not a person's. Only
 * `session_kind` says so: `parent_session_id` is also the session a fork, or a remote session
 * restored into a local child, came from, where the person goes on typing. A subagent forked
 * from the parent's conversation, or one resumed, has a kind of its own (`subagent_fork`,
 * `subagent_resume`), still a subagent's.
 */
const subagentKinds = new Set(['subagent', 'subagent_fork', 'subagent_resume']);

export function isSubagentSummary(summary: GrokSummary): boolean {
	return typeof summary.session_kind === 'string' && subagentKinds.has(summary.session_kind);
}
