import assert from 'node:assert/strict';
import {appendFileSync} from 'node:fs';
import test from 'node:test';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

/** The moment every query here is asked at; nodes are written at fixed distances before it. */
const asOf = '2026-06-30T00:00:00Z';
const daysBefore = (days: number) => new Date(Date.parse(asOf) - days * 24 * 3600 * 1000);

/** Appends one node, observed `days` before the moment (the CLI always writes "now"). */
function nodeAged(kb: KbSandbox, days: number, payload: Record<string, unknown>): void {
	appendFileSync(kb.journal, prepareEvents([{op: 'node.upsert', payload}], daysBefore(days)).map(event => serializeEvent(event)).join(''));
}

type Hit = {node_id: string; score: number; why: string; factors: {memory_type: string; decay: number; superseded: boolean; superseded_penalty: number; lifecycle: string; graph_boost: number; live_edges: number}};
const hits = (kb: KbSandbox, q: string, extra: string[] = []) => kb.ok(['query', '--q', q, '--view', 'hits', '--as-of', asOf, ...extra]) as {hits: Hit[]; archived_hidden: number; total: number};

test('ranking: a week-old correction beats a month-old fact that matches better by text alone', t => {
	const kb = makeKb(t);
	// The fact's text is nothing but the query, so BM25 alone puts it first.
	nodeAged(kb, 30, {id: 'note:timeout', kind: 'Note', label: 'parser timeout', provenance: 'test'});
	nodeAged(kb, 7, {id: 'note:timeout-fix', kind: 'Note', label: 'Fixed the parser timeout: the root cause was a retry loop that never backed off', provenance: 'test'});
	const ranked = hits(kb, 'parser timeout').hits;
	assert.deepEqual(ranked.map(hit => [hit.node_id, hit.factors.memory_type]), [
		['note:timeout-fix', 'correction'],
		['note:timeout', 'fact'],
	]);
	assert.ok(ranked[1]!.factors.decay < 0.51 && ranked[1]!.factors.decay > 0.49, `a 30-day-old fact keeps half its rank (${ranked[1]!.factors.decay})`);
	assert.match(ranked[0]!.why, /^all_terms_match: relevance [\d.]+ × correction 3 × decay 0\.999 \(7d, half-life 3650d\) × graph 1 \(0 live edges\) × superseded 1; active$/);
	assert.equal(ranked[0]!.score, 0.95, 'the best text match scores 0.95, leaving 1 to a literal id');
	const literal = hits(kb, 'note:timeout').hits[0]!;
	assert.deepEqual([literal.node_id, literal.score], ['note:timeout', 1]);
});

test('ranking: a superseded decision sinks below the one that replaced it; live edges lift a node', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'decision:cache-v1', '--kind', 'Decision', '--label', 'cache policy: keep entries for an hour']);
	kb.ok(['graph', 'node', '--id', 'decision:cache-v2', '--kind', 'Decision', '--label', 'cache policy: keep entries for a day, revalidate on read']);
	const before = kb.ok(['query', '--q', 'cache policy', '--view', 'hits']).hits as Hit[];
	assert.equal(before[0]!.node_id, 'decision:cache-v1', 'the shorter text matches better by BM25 alone');
	kb.ok(['graph', 'relate', '--from', 'decision:cache-v2', '--edge', 'SUPERSEDES', '--to', 'decision:cache-v1']);
	const after = kb.ok(['query', '--q', 'cache policy', '--view', 'hits']).hits as Hit[];
	assert.deepEqual(after.map(hit => [hit.node_id, hit.factors.superseded, hit.factors.superseded_penalty, hit.factors.live_edges]), [
		['decision:cache-v2', false, 1, 1],
		['decision:cache-v1', true, 0.1, 1],
	]);
	assert.equal(after[0]!.factors.graph_boost, 1.05, '+5% for its one live edge');
	assert.match(after[1]!.why, /× superseded 0\.1; active$/);
});

test('lifecycle: stale past its time to live, archived once faded too, derived from the clock; --include-archived and config change it', t => {
	const kb = makeKb(t);
	nodeAged(kb, 1, {id: 'note:fresh', kind: 'Note', label: 'release checklist item', provenance: 'test'});
	nodeAged(kb, 100, {id: 'note:stale', kind: 'Note', label: 'release checklist old', provenance: 'test'});
	nodeAged(kb, 200, {id: 'note:faded', kind: 'Note', label: 'release checklist ancient', provenance: 'test'});
	nodeAged(kb, 2, {id: 'note:twice', kind: 'Note', label: 'release checklist confirmed', provenance: 'test'});
	nodeAged(kb, 1, {id: 'note:twice', kind: 'Note', label: 'release checklist confirmed', provenance: 'test', status: 'checked'});
	const lifecycles = (result: {hits: Hit[]}) => Object.fromEntries(result.hits.map(hit => [hit.node_id, hit.factors.lifecycle]));

	const plain = hits(kb, 'release checklist');
	assert.deepEqual(lifecycles(plain), {'note:fresh': 'active', 'note:stale': 'stale', 'note:twice': 'validated'});
	assert.deepEqual([plain.total, plain.archived_hidden], [3, 1], 'the faded fact is left out and counted');
	const all = hits(kb, 'release checklist', ['--include-archived']);
	assert.equal(lifecycles(all)['note:faded'], 'archived');
	assert.deepEqual([all.total, all.archived_hidden], [4, 0]);
	const earlier = kb.ok(['query', '--q', 'release checklist', '--view', 'hits', '--as-of', canonical(daysBefore(150))]) as {hits: Hit[]};
	assert.equal(lifecycles(earlier)['note:faded'], 'active', 'nothing is deleted: as of 50 days after it was written it is active');
	assert.match(kb.run(['query', '--q', 'release checklist', '--as-of', asOf, '--format', 'human']).stdout, /, 1 archived left out \(--include-archived\)/);

	// A knowledge base that keeps facts longer: nothing fades out of reach.
	kb.ok(['config', 'set', 'memory.fact.half_life_days', '1000']);
	kb.ok(['config', 'set', 'memory.fact.ttl_days', 'none']);
	assert.deepEqual(kb.ok(['config', 'get', 'memory.fact.half_life_days']).value, '1000');
	const kept = hits(kb, 'release checklist');
	assert.deepEqual([kept.total, kept.archived_hidden, lifecycles(kept)['note:faded']], [4, 0, 'active']);
	assert.deepEqual(kept.hits.map(hit => hit.node_id).slice(0, 2).sort(), ['note:fresh', 'note:twice']);
});

test('config: memory keys are checked before anything is written', t => {
	const kb = makeKb(t);
	for (const [key, value, code] of [
		['memory.fact.weight', '0', 'invalid_config_value'],
		['memory.fact.half_life_days', 'soon', 'invalid_config_value'],
		['memory.fact.weight', 'none', 'invalid_config_value'],
		['memory.gossip.weight', '2', 'unknown_config_key'],
		['memory.fact.colour', '2', 'unknown_config_key'],
	] as const) {
		const result = kb.run(['config', 'set', key, value, '--format', 'json']);
		assert.equal(result.code, 1, `${key}=${value} should be refused`);
		assert.equal(result.error().code, code, `${key}=${value}`);
	}

	assert.equal(kb.ok(['config', 'get', 'memory.fact.weight']).value, null);
	kb.ok(['config', 'set', 'memory.correction.weight', '5']);
	assert.equal(kb.ok(['config', 'get', 'memory.correction.weight']).value, '5');
	assert.equal(kb.run(['config', 'set', 'memory.fact.weight', '2', '--global', '--format', 'json']).error().code, 'config_key_scope');
});

function canonical(date: Date): string {
	return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
