import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Tiktoken} from 'js-tiktoken/lite';
import ranks from 'js-tiktoken/ranks/o200k_base';
import {prepareEvents, serializeEvent, type EventDraft} from '../../source/engine/journal/append.js';
import {kbPaths, type KbPaths} from '../../source/engine/kb/paths.js';
import {readSnapshot} from '../../source/engine/evidence/snapshot.js';
import {nodeSha256} from '../../source/engine/evidence/node-hash.js';
import {cutLongRuns} from '../../source/engine/tokens.js';
import type {Deps} from '../../source/engine/deps.js';

/** One journal event at a moment the test chose. */
export type TimedEvent = EventDraft & {readonly at: string};

export const node = (id: string, at: string, fields: Record<string, unknown> = {}): TimedEvent => ({op: 'node.upsert', payload: {id, kind: 'Decision', label: `label of ${id}`, provenance: 'test:fixture', ...fields}, at});
export const edge = (from: string, type: string, to: string, at: string, fields: Record<string, unknown> = {}): TimedEvent => ({op: 'edge.assert', payload: {from, type, to, provenance: 'test:fixture', ...fields}, at});

/** The journal lines engi itself would write for these events, observed when each says. */
export function journalText(events: readonly TimedEvent[]): string {
	return events.map(({at, ...draft}) => serializeEvent(prepareEvents([draft], new Date(at))[0]!)).join('');
}

/** A knowledge base directory (no index yet) whose journal holds exactly these events. */
export function writeKb(root: string, events: readonly TimedEvent[]): KbPaths {
	const paths = kbPaths(root);
	mkdirSync(paths.engi, {recursive: true});
	writeFileSync(paths.journal, journalText(events));
	return paths;
}

/** The pins of these nodes as of a moment, read the way an evaluation reads them. */
export function pinsOf(paths: KbPaths, asOf: string, ids: readonly string[]): Record<string, {node_sha256: string}> {
	const snapshot = readSnapshot(paths, asOf);
	return Object.fromEntries(ids.filter(id => snapshot.nodes.has(id)).map(id => [id, {node_sha256: nodeSha256(snapshot.nodes.get(id)!)}]));
}

export type ContractShape = {
	version?: unknown;
	question?: unknown;
	scope_receipt?: unknown;
	scope_nodes?: unknown;
	as_of?: unknown;
	min_observed_utc?: unknown;
	sources?: unknown;
	facts?: unknown;
	budget_tokens?: unknown;
	max_hops?: unknown;
	search_limit?: unknown;
	[key: string]: unknown;
};

export function contract(fields: ContractShape): Record<string, unknown> {
	return {
		version: 1,
		question: 'why?',
		scope_receipt: 'test scope',
		scope_nodes: ['a'],
		as_of: '2026-06-01T00:00:00Z',
		min_observed_utc: '2026-01-01T00:00:00Z',
		sources: {},
		facts: [{id: 'f', alternatives: [['a']]}],
		budget_tokens: 100_000,
		max_hops: 4,
		search_limit: 100_000,
		...fields,
	};
}

export function writeJson(path: string, value: unknown): string {
	writeFileSync(path, JSON.stringify(value, null, 2));
	return path;
}

export function testDeps(cwd: string, now = '2026-12-01T00:00:00Z'): Deps {
	return {env: {}, cwd, now: () => new Date(now), platform: process.platform};
}

let reference: Tiktoken | undefined;

/**
 * The o200k count by js-tiktoken's own encoder (long runs cut as tokens.ts cuts them): the
 * reference the fast counter and the solver are checked against.
 */
export function referenceTokens(text: string): number {
	reference ??= new Tiktoken(ranks);
	return cutLongRuns(text).reduce((sum, piece) => sum + reference!.encode(piece, [], []).length, 0);
}

export const journalOf = (root: string) => join(root, '.engi', 'journal.jsonl');
