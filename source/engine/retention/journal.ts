import {liveSourcesInto, nodeKind, nodesOfKindByLine, type Moment} from '../index/store.js';
import {conversationNodeId} from '../knowledge/conversation-node.js';
import type {SourceId} from '../../adapters/types.js';
import type {Database} from '../../lib/sqlite.js';

/**
 * What retention writes to the journal and reads back: receipts that pin a session's bytes to
 * the knowledge taken from it, and for every deletion an attempt followed by a receipt or a
 * failure. They are ordinary nodes of custom kinds, so they replay, merge and sync like any.
 */
export const retentionKinds = {
	receipt: 'SessionRetentionReceipt',
	attempt: 'SessionPurgeAttempt',
	purged: 'SessionPurgeReceipt',
	failure: 'SessionPurgeFailure',
	compact: 'CompactTranscript',
} as const;

/** The edges that say a knowledge node was taken from a conversation. */
export const provenanceEdges = ['DERIVED_FROM', 'DISCUSSED_IN'] as const;

/** A file's or directory's identity as a receipt pins it. */
export type Pin = {
	readonly path: string;
	readonly kind: 'file' | 'directory';
	readonly bytes: number;
	readonly dev: number;
	readonly ino: number;
	/** Files only. */
	readonly sha256?: string;
};

export type RetentionReceipt = {
	readonly id: string;
	readonly session_id: string;
	readonly source: string;
	readonly source_sha256: string;
	readonly source_bytes: number;
	readonly targets: Pin[];
	readonly knowledge_node_ids: string[];
	readonly provenance: string;
	/** Journal line of its latest upsert: later receipts win. */
	readonly line: number;
};

export type PurgeAttempt = {
	readonly id: string;
	readonly session_id: string;
	readonly source: string;
	readonly receipt_id: string;
	readonly boundary: string;
	readonly targets: Array<{path: string; kind: 'file' | 'directory'}>;
	readonly resumes: string[];
	/** The process that journaled it (none before engi recorded it): a live one is still at work. */
	readonly holder: {readonly pid: number; readonly host: string} | null;
	readonly observed_utc: string;
	readonly line: number;
};

export type PurgeOutcome = {
	readonly id: string;
	readonly kind: 'purged' | 'failed';
	readonly session_id: string;
	readonly source: string;
	readonly attempt_id: string;
	readonly resumed_attempt_ids: string[];
	readonly deleted_targets: string[];
	readonly reason: string | null;
	readonly detail: string | null;
	readonly freed_bytes: number;
	readonly observed_utc: string;
	readonly line: number;
};

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []);
const number = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);

type NodeRecord = {id: string; payload: Record<string, unknown>; line: number};

function pinsOf(value: unknown): Pin[] {
	return (Array.isArray(value) ? value : []).flatMap((item): Pin[] => {
		if (item === null || typeof item !== 'object') {
			return [];
		}

		const pin = item as Record<string, unknown>;
		const kind = pin['kind'] === 'directory' ? 'directory' : 'file';
		return [{path: text(pin['path']), kind, bytes: number(pin['bytes']), dev: number(pin['dev']), ino: number(pin['ino']), ...(typeof pin['sha256'] === 'string' ? {sha256: pin['sha256']} : {})}];
	});
}

export function toReceipt(record: NodeRecord): RetentionReceipt {
	const {payload} = record;
	return {
		id: record.id,
		session_id: text(payload['session_id']),
		source: text(payload['source']),
		source_sha256: text(payload['source_sha256']),
		source_bytes: number(payload['source_bytes']),
		targets: pinsOf(payload['targets']),
		knowledge_node_ids: strings(payload['knowledge_node_ids']),
		provenance: text(payload['provenance']),
		line: record.line,
	};
}

export function toAttempt(record: NodeRecord): PurgeAttempt {
	const {payload} = record;
	return {
		id: record.id,
		session_id: text(payload['session_id']),
		source: text(payload['source']),
		receipt_id: text(payload['receipt_id']),
		boundary: text(payload['boundary']),
		targets: pinsOf(payload['targets']).map(pin => ({path: pin.path, kind: pin.kind})),
		resumes: strings(payload['resumes']),
		holder: holderOf(payload['holder']),
		observed_utc: text(payload['observed_utc']),
		line: record.line,
	};
}

function holderOf(value: unknown): PurgeAttempt['holder'] {
	if (typeof value !== 'object' || value === null) {
		return null;
	}

	const {pid, host} = value as Record<string, unknown>;
	return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 && typeof host === 'string' ? {pid, host} : null;
}

export function toOutcome(record: NodeRecord, kind: PurgeOutcome['kind']): PurgeOutcome {
	const {payload} = record;
	return {
		id: record.id,
		kind,
		session_id: text(payload['session_id']),
		source: text(payload['source']),
		attempt_id: text(payload['attempt_id']),
		resumed_attempt_ids: strings(payload['resumed_attempt_ids']),
		deleted_targets: strings(payload['deleted_targets']),
		reason: typeof payload['reason'] === 'string' ? payload['reason'] : null,
		detail: typeof payload['detail'] === 'string' ? payload['detail'] : null,
		freed_bytes: number(payload['freed_bytes']),
		observed_utc: text(payload['observed_utc']),
		line: record.line,
	};
}

export const sessionKey = (source: string, sessionId: string) => `${source}\u0000${sessionId}`;

/** Receipts by session, newest first. */
export function receiptsBySession(db: Database): Map<string, RetentionReceipt[]> {
	const bySession = new Map<string, RetentionReceipt[]>();
	for (const record of nodesOfKindByLine(db, retentionKinds.receipt)) {
		const receipt = toReceipt(record);
		const key = sessionKey(receipt.source, receipt.session_id);
		bySession.set(key, [receipt, ...(bySession.get(key) ?? [])]);
	}

	return bySession;
}

export type PurgeHistory = {
	readonly attempts: PurgeAttempt[];
	readonly outcomes: PurgeOutcome[];
	/** Attempts with neither a receipt nor a failure naming them: the process died (or is running now). */
	readonly interrupted: PurgeAttempt[];
};

/** Every attempt, receipt and failure, and which attempts never reached an outcome. */
export function purgeHistory(db: Database): PurgeHistory {
	const attempts = nodesOfKindByLine(db, retentionKinds.attempt).map(record => toAttempt(record));
	const outcomes = [...nodesOfKindByLine(db, retentionKinds.purged).map(record => toOutcome(record, 'purged')), ...nodesOfKindByLine(db, retentionKinds.failure).map(record => toOutcome(record, 'failed'))].sort((a, b) => a.line - b.line);
	return {attempts, outcomes, interrupted: interruptedAttempts(attempts, outcomes)};
}

/** Attempts no outcome names, by its own attempt id or among those it resumed. */
export function interruptedAttempts(attempts: readonly PurgeAttempt[], outcomes: readonly PurgeOutcome[]): PurgeAttempt[] {
	const settled = new Set(outcomes.flatMap(outcome => [outcome.attempt_id, ...outcome.resumed_attempt_ids]));
	return attempts.filter(attempt => !settled.has(attempt.id));
}

/**
 * Which knowledge nodes are missing, and which exist but have no live DERIVED_FROM or
 * DISCUSSED_IN edge to the session's conversation node.
 */
export function provenanceGaps(db: Database, source: SourceId, sessionId: string, knowledgeIds: readonly string[], moment: Moment): {missing: string[]; unlinked: string[]} {
	const linked = new Set(liveSourcesInto(db, conversationNodeId(source, sessionId), provenanceEdges, moment));
	const missing = knowledgeIds.filter(id => nodeKind(db, id) === undefined);
	return {missing, unlinked: knowledgeIds.filter(id => !missing.includes(id) && !linked.has(id))};
}

