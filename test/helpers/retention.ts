import assert from 'node:assert/strict';
import {lstatSync, readdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import type {KbSandbox} from './kb.js';

/** Long before any window a test uses: sessions stamped with it are old enough to retire. */
export const longAgo = new Date('2025-01-01T00:00:00Z');

/** Every file and directory under `root` (links not followed), sorted. */
export function entriesUnder(root: string): string[] {
	const found: string[] = [];
	const visit = (directory: string) => {
		for (const name of readdirSync(directory).sort()) {
			const path = join(directory, name);
			found.push(path);
			if (lstatSync(path).isDirectory()) {
				visit(path);
			}
		}
	};

	visit(root);
	return found;
}

/** The merged payloads of the journal's nodes of one kind, in the order they were first written. */
export function journalNodes(journal: string, kind: string): Array<Record<string, any>> {
	const nodes = new Map<string, Record<string, any>>();
	for (const line of readFileSync(journal, 'utf8').split('\n')) {
		if (line.trim() === '') {
			continue;
		}

		const event = JSON.parse(line) as {op: string; payload: Record<string, any>};
		if (event.op === 'node.upsert' && (event.payload['kind'] === kind || nodes.has(event.payload['id']))) {
			nodes.set(event.payload['id'], {...nodes.get(event.payload['id']), ...event.payload});
		}
	}

	return [...nodes.values()].filter(node => node['kind'] === kind);
}

/**
 * Every path a SessionPurgeReceipt or SessionPurgeFailure says was deleted: by its own run, or
 * (a receipt's `already_gone`) by an interrupted attempt it finished, which must have named the
 * path among its targets.
 */
export function recordedDeletions(journal: string): Set<string> {
	const attempts = new Map(journalNodes(journal, 'SessionPurgeAttempt').map(attempt => [attempt['id'], new Set((attempt['targets'] as Array<{path: string}>).map(target => target.path))]));
	const outcomes = [...journalNodes(journal, 'SessionPurgeReceipt'), ...journalNodes(journal, 'SessionPurgeFailure')];
	const recorded = new Set(outcomes.flatMap(node => node['deleted_targets'] as string[]));
	for (const outcome of outcomes) {
		for (const path of (outcome['already_gone'] as string[] | undefined) ?? []) {
			const named = (outcome['resumed_attempt_ids'] as string[]).some(attempt => attempts.get(attempt)?.has(path));
			if (named) {
				recorded.add(path);
			}
		}
	}

	return recorded;
}

/**
 * Asserts that everything that vanished from `root` since `before` was listed is named by a
 * purge receipt (or a failure that reports what it deleted first): nothing is ever deleted
 * without its record, and nothing outside the records is touched.
 */
export function assertDeletionsRecorded(kb: KbSandbox, root: string, before: readonly string[]): string[] {
	const now = new Set(entriesUnder(root));
	const gone = before.filter(path => !now.has(path));
	const recorded = recordedDeletions(kb.journal);
	assert.deepEqual(gone.filter(path => !recorded.has(path)), [], 'every deletion appears in a receipt');
	return gone;
}

/**
 * Makes a session attestable the way promotion would: its Conversation node, a knowledge node
 * (a Dataset, one of the kinds the core table lets be DERIVED_FROM a conversation) and the edge,
 * all through the real CLI. Returns the knowledge node's id.
 */
export function recordKnowledge(kb: KbSandbox, source: string, id: string, knowledge = `dataset:${source}-${id}`): string {
	const conversation = `conversation:${source}:${id}`;
	kb.ok(['graph', 'node', '--id', conversation, '--kind', 'Conversation', '--label', `${source} session ${id}`]);
	kb.ok(['graph', 'node', '--id', knowledge, '--kind', 'Dataset', '--label', `what ${id} found`]);
	kb.ok(['graph', 'relate', '--from', knowledge, '--edge', 'DERIVED_FROM', '--to', conversation]);
	return knowledge;
}

/** Records the knowledge and attests the session, asserting it succeeds. */
export function attestWithKnowledge(kb: KbSandbox, source: string, id: string, extra: readonly string[] = []): Record<string, any> {
	const knowledge = recordKnowledge(kb, source, id);
	return kb.ok(['retention', 'attest', id, '--source', source, '--knowledge-node', knowledge, '--session-closed', ...extra]);
}
