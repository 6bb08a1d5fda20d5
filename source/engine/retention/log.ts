import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {nodeKindOf} from '../graph/merge.js';
import {withIndex} from '../index/open.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {nextOffset} from '../../lib/words.js';
import {interruptedAttempts, purgeHistory, retentionKinds, toAttempt, toOutcome, type PurgeAttempt, type PurgeHistory, type PurgeOutcome} from './journal.js';

const entryKinds = ['attempt', 'receipt', 'failure'] as const;
const outcomes = ['purged', 'failed', 'interrupted'] as const;

export const logEntrySchema = lazySchema(() => z.object({
	id: z.string(),
	kind: z.enum(entryKinds),
	observed_utc: z.string(),
	session_id: z.string(),
	source: z.string(),
	/** Attempts: how they ended (interrupted: no receipt or failure names them; the process died or is still running). */
	outcome: z.nullable(z.enum(outcomes)),
	/** Attempts: the receipt or failure that closed them; receipts and failures: their attempt. */
	attempt_id: z.nullable(z.string()),
	outcome_id: z.nullable(z.string()),
	/** Receipts and failures: interrupted attempts they finished. */
	resumed_attempt_ids: z.array(z.string()),
	/** Attempts: what they set out to delete; receipts and failures: what was deleted. */
	targets: z.array(z.string()),
	freed_bytes: z.nullable(z.number()),
	reason: z.nullable(z.string()),
	detail: z.nullable(z.string()),
}));

export type LogEntry = z.infer<typeof logEntrySchema>;

export const logOutputSchema = lazySchema(() => z.object({
	attempts: z.number(),
	purged: z.number(),
	failed: z.number(),
	interrupted: z.number(),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	/** Newest first. */
	entries: z.array(logEntrySchema),
}));

export type LogOutput = z.infer<typeof logOutputSchema>;

function attemptEntry(attempt: PurgeAttempt, closing: PurgeOutcome | undefined): LogEntry {
	return {
		id: attempt.id,
		kind: 'attempt',
		observed_utc: attempt.observed_utc,
		session_id: attempt.session_id,
		source: attempt.source,
		outcome: closing ? closing.kind : 'interrupted',
		attempt_id: null,
		outcome_id: closing?.id ?? null,
		resumed_attempt_ids: attempt.resumes,
		targets: attempt.targets.map(target => target.path),
		freed_bytes: null,
		reason: null,
		detail: null,
	};
}

function outcomeEntry(outcome: PurgeOutcome): LogEntry {
	return {
		id: outcome.id,
		kind: outcome.kind === 'purged' ? 'receipt' : 'failure',
		observed_utc: outcome.observed_utc,
		session_id: outcome.session_id,
		source: outcome.source,
		outcome: null,
		attempt_id: outcome.attempt_id,
		outcome_id: null,
		resumed_attempt_ids: outcome.resumed_attempt_ids,
		targets: outcome.deleted_targets,
		freed_bytes: outcome.freed_bytes,
		reason: outcome.reason,
		detail: outcome.detail,
	};
}

/** Every attempt, receipt and failure, newest first, each attempt with the outcome that closed it. */
export function logEntries(history: PurgeHistory): LogEntry[] {
	const closing = new Map<string, PurgeOutcome>();
	for (const outcome of history.outcomes) {
		for (const attempt of [outcome.attempt_id, ...outcome.resumed_attempt_ids]) {
			closing.set(attempt, outcome);
		}
	}

	const rows = [...history.attempts.map(attempt => ({line: attempt.line, entry: attemptEntry(attempt, closing.get(attempt.id))})), ...history.outcomes.map(outcome => ({line: outcome.line, entry: outcomeEntry(outcome)}))];
	return rows.sort((a, b) => b.line - a.line).map(row => row.entry);
}

/** Log entries a page shows unless told otherwise. */
export const logPageSize = 50;

/** `engi retention log`: what retention deleted, tried to, and where a process died doing it. */
export async function retentionLog(input: {offset?: number; limit?: number}, paths: KbPaths, deps: Deps): Promise<LogOutput> {
	requireKnowledgeBase(paths);
	const {offset = 0, limit = logPageSize} = input;
	return withIndex(paths, deps, index => {
		const history = purgeHistory(index.db);
		const entries = logEntries(history);
		const page = entries.slice(offset, offset + limit);
		return {
			attempts: history.attempts.length,
			purged: history.outcomes.filter(outcome => outcome.kind === 'purged').length,
			failed: history.outcomes.filter(outcome => outcome.kind === 'failed').length,
			interrupted: history.interrupted.length,
			total: entries.length,
			offset,
			next_offset: nextOffset(offset, page.length, entries.length),
			entries: page,
		};
	});
}

/** Interrupted attempts among replayed nodes (doctor reads the journal itself, never the index). */
export function interruptedAmong(nodes: ReadonlyMap<string, Record<string, unknown>>): PurgeAttempt[] {
	const records = (kind: string) => [...nodes].filter(([, payload]) => nodeKindOf(payload) === kind).map(([id, payload]) => ({id, payload, line: 0}));
	const attempts = records(retentionKinds.attempt).map(record => toAttempt(record));
	const settled = [...records(retentionKinds.purged).map(record => toOutcome(record, 'purged')), ...records(retentionKinds.failure).map(record => toOutcome(record, 'failed'))];
	return interruptedAttempts(attempts, settled);
}
