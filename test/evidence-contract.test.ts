import assert from 'node:assert/strict';
import {appendFileSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {loadContract, type ContractMode} from '../source/engine/evidence/contract.js';
import {renderPacket} from '../source/engine/evidence/packet.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {contract, edge, journalText, node, pinsOf, referenceTokens, writeJson, type TimedEvent} from './helpers/evidence.js';
import {kbPaths} from '../source/engine/kb/paths.js';
import {sha256Hex} from '../source/lib/hash.js';
import {tempDir} from './helpers/temp.js';

const before = '2025-12-01T00:00:00Z';
const t1 = '2026-02-01T00:00:00Z';
const asOf = '2026-06-01T00:00:00Z';
const after = '2026-08-01T00:00:00Z';

/** A journal with one node or edge for every rule an evaluation checks. */
const fixture: TimedEvent[] = [
	node('d:stream', t1, {label: 'Stream the CSV rather than build it in memory'}),
	node('d:size', t1, {label: 'Order exports reach 2 GB'}),
	node('t:csv', t1, {kind: 'Task', label: 'CSV export of orders'}),
	edge('d:stream', 'DEPENDS_ON', 'd:size', t1),
	node('d:old', before),
	node('d:late', after),
	node('d:bad-time', t1, {observed_utc: '2026-13-45T99:00:00Z'}),
	node('d:claims-later', t1, {observed_utc: '2026-09-01T00:00:00Z'}),
	node('d:no-provenance', t1, {provenance: ' '}),
	node('d:unpinned', t1),
	node('d:changed', t1),
	node('d:outside', t1),
	node('h:a', t1),
	node('h:b', t1),
	node('h:c', t1),
	edge('h:a', 'DEPENDS_ON', 'h:b', t1),
	edge('h:b', 'DEPENDS_ON', 'h:c', t1),
	node('p:a', t1),
	node('p:b', t1),
	edge('p:a', 'DEPENDS_ON', 'p:b', t1, {provenance: ''}),
	node('o:a', t1),
	edge('o:a', 'DEPENDS_ON', 'd:outside', t1),
	node('l:a', t1),
	node('l:b', t1),
	edge('l:a', 'depends-on', 'l:b', t1),
	node('c:a', t1),
	node('c:b', t1),
	edge('c:a', 'CONTRADICTS', 'c:b', t1),
	node('c:x', t1),
	edge('c:x', 'contradicts', 'd:outside', t1),
	node('r:a', t1),
	node('r:b', t1),
	edge('r:a', 'CONTRADICTS', 'r:b', t1),
	{op: 'edge.retract', payload: {from: 'r:a', type: 'CONTRADICTS', to: 'r:b'}, at: t1},
	node('e:a', t1),
	node('e:b', t1),
	edge('e:a', 'CONTRADICTS', 'e:b', t1, {valid_until: '2026-03-01T00:00:00Z'}),
];

const allIds = [...new Set(fixture.flatMap(event => (event.op === 'node.upsert' ? [event.payload['id'] as string] : [])))];
const scope = [...allIds.filter(id => id !== 'd:outside'), 'd:missing'];

function fixtureKb(t: TestContext): KbSandbox & {pins: Record<string, {node_sha256: string}>; evaluate: (fields: Record<string, unknown>, args?: string[]) => ReturnType<KbSandbox['run']>} {
	const kb = makeKb(t);
	writeFileSync(kb.journal, journalText(fixture));
	const paths = kbPaths(kb.root);
	const pins = {...pinsOf(paths, asOf, scope.filter(id => id !== 'd:unpinned')), ...pinsOf(paths, after, ['d:late']), 'd:changed': {node_sha256: '0'.repeat(64)}, 'd:missing': {node_sha256: 'a'.repeat(64)}};
	let counter = 0;
	const evaluate = (fields: Record<string, unknown>, args: string[] = []) => {
		const file = writeJson(join(kb.base, `contract-${counter++}.json`), contract({scope_nodes: scope, sources: pins, as_of: asOf, ...fields}));
		return kb.run(['query', '--q', 'why?', '--evidence-contract', file, '--format', 'json', ...args]);
	};

	return {...kb, pins, evaluate};
}

const single = (id: string, alternatives: string[][]) => ({id, alternatives});

test('every eligibility rule rejects in its order, with its reason, and names only sources in scope', t => {
	const kb = fixtureKb(t);
	const cases: Array<[string, string, string | null]> = [
		['d:outside', 'scope_or_source_unavailable', null],
		['d:unpinned', 'source_pin_missing', 'd:unpinned'],
		['d:missing', 'scope_or_source_unavailable', 'd:missing'],
		['d:late', 'scope_or_source_unavailable', 'd:late'],
		['d:changed', 'source_changed', 'd:changed'],
		['d:bad-time', 'observation_time_unknown', 'd:bad-time'],
		['d:old', 'observation_outside_window', 'd:old'],
		['d:claims-later', 'observation_outside_window', 'd:claims-later'],
		['d:no-provenance', 'source_provenance_missing', 'd:no-provenance'],
	];
	const result = kb.evaluate({facts: [...cases.map(([id], index) => single(`f${index}`, [[id]])), single('fine', [['t:csv']])]});
	assert.equal(result.code, 2, result.stderr);
	const answer = result.json();
	assert.equal(answer.resolution, 'blocked');
	assert.deepEqual(answer.rejected_alternatives, cases.map(([, reason, source], index) => ({fact: `f${index}`, alternative: 0, reason, source})));
	assert.deepEqual(answer.missing_facts, cases.map((_, index) => `f${index}`));
	assert.deepEqual(answer.source_requests.map((request: {node: string}) => request.node), ['d:changed', 'd:unpinned']);
	assert.equal(answer.packet, null);
	assert.equal(answer.packet_tokens, null);
	assert.doesNotMatch(result.stdout, /d:outside/, 'a node outside the scope is never named');
});

test('closure follows DEPENDS_ON in any spelling within max_hops; provenance, hops and scope of dependencies are checked', t => {
	const kb = fixtureKb(t);
	const result = kb.evaluate({max_hops: 1, facts: [single('hops', [['h:a']]), single('provenance', [['p:a']]), single('outside', [['o:a']]), single('spelled', [['l:a']]), single('settled', [['r:a', 'e:a']])]});
	assert.equal(result.code, 2, result.stderr);
	const answer = result.json();
	assert.equal(answer.resolution, 'blocked');
	assert.deepEqual(answer.rejected_alternatives, [
		{fact: 'hops', alternative: 0, reason: 'hop_limit', source: 'h:c'},
		{fact: 'provenance', alternative: 0, reason: 'dependency_provenance_missing', source: 'p:b'},
		{fact: 'outside', alternative: 0, reason: 'scope_or_source_unavailable', source: null},
	]);

	const covered = kb.evaluate({max_hops: 2, facts: [single('hops', [['h:a']]), single('spelled', [['l:a']]), single('settled', [['r:a', 'e:a']])]});
	assert.equal(covered.code, 0, covered.stderr);
	const packet = covered.json().packet;
	assert.deepEqual(packet.evidence.map((entry: {id: string}) => entry.id), ['e:a', 'h:a', 'h:b', 'h:c', 'l:a', 'l:b', 'r:a'], 'dependencies are in the packet; retracted and expired contradictions do not block');
	assert.deepEqual(packet.dependency_paths.map((path: {from: string; to: string; type: string}) => `${path.from} ${path.type} ${path.to}`), ['h:a DEPENDS_ON h:b', 'h:b DEPENDS_ON h:c', 'l:a DEPENDS_ON l:b']);
	for (const path of packet.dependency_paths) {
		assert.equal(path.journal_citations.length, 1);
		assert.match(path.journal_citations[0].event, /^[0-9a-f]{64}$/);
	}
});

test('an active contradiction anywhere among the alternatives gives conflict, even beside a usable one', t => {
	const kb = fixtureKb(t);
	const result = kb.evaluate({facts: [single('f', [['c:a'], ['t:csv']]), single('g', [['c:x'], ['d:size']])]});
	assert.equal(result.code, 2, result.stderr);
	const answer = result.json();
	assert.equal(answer.resolution, 'conflict');
	assert.deepEqual(answer.rejected_alternatives, [
		{fact: 'f', alternative: 0, reason: 'unresolved_conflict', source: 'c:b'},
		{fact: 'g', alternative: 0, reason: 'scope_or_source_unavailable', source: null},
	]);
	assert.deepEqual(answer.missing_facts, []);
	assert.equal(answer.packet, null);
});

test('a covered contract: the smallest packet, shared nodes once, counted exactly, within the budget; then too small a budget', t => {
	const kb = fixtureKb(t);
	const facts = [
		{id: 'why', description: 'the reason to stream', alternatives: [['d:stream'], ['d:size', 't:csv', 'l:a']]},
		{id: 'size', alternatives: [['h:a', 'h:b'], ['d:size']]},
	];
	const result = kb.evaluate({facts});
	assert.equal(result.code, 0, result.stderr);
	const answer = result.json();
	assert.equal(answer.resolution, 'covered');
	assert.deepEqual(answer.chosen_alternatives, [{fact: 'why', alternative: 0}, {fact: 'size', alternative: 1}]);
	assert.deepEqual(answer.packet.facts, [{fact: 'why', roots: ['d:stream'], description: 'the reason to stream'}, {fact: 'size', roots: ['d:size']}]);
	assert.deepEqual(answer.packet.evidence.map((entry: {id: string}) => entry.id), ['d:size', 'd:stream'], 'd:size, a dependency of one fact and the root of the other, appears once');
	assert.equal(answer.packet.evidence[0].node_sha256, kb.pins['d:size']!.node_sha256);
	assert.deepEqual(answer.packet.evidence[0].journal_citations, [{line: 2, event: answer.packet.evidence[0].journal_citations[0].event, at: t1}]);
	assert.equal(answer.packet_tokens, referenceTokens(renderPacket(answer.packet)), 'packet_tokens is the o200k count of the rendered packet');
	assert.equal(answer.budget_tokens, 100_000);
	assert.equal(answer.packet.claim_boundary, answer.claim_boundary);
	assert.deepEqual(answer.permissions, {reads: ['journal'], writes: []});
	assert.deepEqual(answer.freshness, {as_of: asOf, min_observed_utc: '2026-01-01T00:00:00Z', events_considered: fixture.length - 1, events_after_as_of: 1, newest_observed_utc: t1});
	assert.match(answer.contract_sha256, /^[0-9a-f]{64}$/);

	const short = kb.evaluate({facts, budget_tokens: answer.packet_tokens - 1});
	assert.equal(short.code, 2);
	assert.equal(short.json().resolution, 'budget_insufficient');
	assert.equal(short.json().packet, null);
	const exact = kb.evaluate({facts, budget_tokens: answer.packet_tokens});
	assert.equal(exact.json().resolution, 'covered', 'a packet exactly at the budget fits');

	const human = kb.run(['query', '--q', 'why?', '--evidence-contract', writeJson(join(kb.base, 'human.json'), contract({scope_nodes: scope, sources: kb.pins, as_of: asOf, facts})), '--format', 'human']);
	assert.equal(human.code, 0);
	assert.match(human.stdout, new RegExp(`^covered: "why\\?" in ${answer.packet_tokens} of 100000 tokens`));
	assert.match(human.stdout, /fact why: alternative 0 \(d:stream\)/);
});

test('a contract built to exceed its search limit is search_limit_unknown; with room the same contract is covered', t => {
	// Triangles: three facts, each answered by either of two of three equally long nodes. Two nodes
	// cover a triangle, but every fractional bound sees one and a half, so no bound settles it
	// early and the search must branch.
	const kb = makeKb(t);
	const triangles = 5;
	const corners = ['a', 'b', 'c'];
	const ids = Array.from({length: triangles}, (_, triangle) => corners.map(corner => `tri:${triangle}:${corner}`)).flat();
	writeFileSync(kb.journal, journalText(ids.map(id => node(id, t1, {label: 'one of three equally long decisions'}))));
	const pins = pinsOf(kbPaths(kb.root), asOf, ids);
	const facts = Array.from({length: triangles}, (_, triangle) => corners.map((corner, index) => single(`f${triangle}${corner}`, [[`tri:${triangle}:${corner}`], [`tri:${triangle}:${corners[(index + 1) % 3]}`]]))).flat();
	const evaluate = (search_limit: number) => kb.run(['query', '--q', 'why?', '--evidence-contract', writeJson(join(kb.base, `c-${search_limit}.json`), contract({scope_nodes: ids, sources: pins, as_of: asOf, facts, search_limit})), '--format', 'json']);
	const limited = evaluate(30);
	assert.equal(limited.code, 2, limited.stderr);
	assert.equal(limited.json().resolution, 'search_limit_unknown');
	assert.deepEqual(limited.json().search, {states: 30, limit: 30});
	assert.equal(limited.json().packet, null);
	const roomy = evaluate(100_000);
	assert.equal(roomy.code, 0, roomy.stderr);
	assert.equal(roomy.json().resolution, 'covered');
	assert.equal(roomy.json().packet.evidence.length, 2 * triangles, 'two nodes per triangle');
	assert.ok(roomy.json().search.states > 30, `${roomy.json().search.states} states`);
});

test('the pin query --view evidence prints is the one a contract checks; it changes when the node changes, and as_of hides later observations', t => {
	const kb = fixtureKb(t);
	const pinOf = (at: string) => kb.ok(['query', '--q', 'd:size', '--view', 'evidence', '--as-of', at]).candidates[0].node_sha256 as string;
	const pinned = pinOf(asOf);
	assert.equal(pinned, kb.pins['d:size']!.node_sha256);
	const facts = [single('size', [['d:size']])];
	assert.equal(kb.evaluate({facts, sources: {'d:size': {node_sha256: pinned}}}).json().resolution, 'covered');

	appendFileSync(kb.journal, journalText([node('d:size', '2026-04-01T00:00:00Z', {label: 'Order exports reach 3 GB'})]));
	const changed = pinOf(asOf);
	assert.notEqual(changed, pinned, 'an upsert changes the pin');
	const stale = kb.evaluate({facts, sources: {'d:size': {node_sha256: pinned}}}).json();
	assert.deepEqual([stale.resolution, stale.rejected_alternatives[0].reason, stale.source_requests], ['blocked', 'source_changed', [{node: 'd:size', action: 'inspect current evidence, then update source pin only if accepted'}]]);
	assert.equal(kb.evaluate({facts, sources: {'d:size': {node_sha256: changed}}}).json().resolution, 'covered');
	const earlier = kb.evaluate({facts, sources: {'d:size': {node_sha256: pinned}}, as_of: '2026-03-01T00:00:00Z'}).json();
	assert.equal(earlier.resolution, 'covered', 'as of before the change, the old pin holds');
	assert.equal(earlier.packet.evidence[0].node.label, 'Order exports reach 2 GB');
	assert.equal(earlier.freshness.events_after_as_of, 2);

	const late = [single('late', [['d:late']])];
	assert.equal(kb.evaluate({facts: late}).json().rejected_alternatives[0].reason, 'scope_or_source_unavailable', 'a node first observed after as_of does not exist yet');
	const laterPins = pinsOf(kbPaths(kb.root), '2026-09-01T00:00:00Z', ['d:late']);
	assert.equal(kb.evaluate({facts: late, sources: laterPins, as_of: '2026-09-01T00:00:00Z'}).json().resolution, 'covered');
});

/** Each check of the contract schema, with the field it names. */
const invalidContracts: Array<[string, Record<string, unknown>, RegExp, ContractMode?]> = [
	['an unknown field', {extra: 1}, /\(document\): unknown field\(s\) "extra"/],
	['an unknown field in a fact', {facts: [{id: 'f', alternatives: [['a']], weight: 2}]}, /facts\.0: unknown field\(s\) "weight"/],
	['an unknown field in a pin', {sources: {a: {node_sha256: 'a'.repeat(64), at: 'x'}}}, /sources\.a: unknown field\(s\) "at"/],
	['a missing field', {budget_tokens: undefined}, /budget_tokens: must be given/],
	['version 2', {version: 2}, /version: must be 1/],
	['a blank question', {question: '  '}, /question: question must not be blank/],
	['a question other than --q', {question: 'why not?'}, /question: must equal --q exactly/],
	['a blank scope receipt', {scope_receipt: ''}, /scope_receipt: scope_receipt must not be blank/],
	['no scope nodes', {scope_nodes: []}, /scope_nodes: needs at least 1 node/],
	['2001 scope nodes', {scope_nodes: Array.from({length: 2001}, (_, index) => `n${index}`)}, /scope_nodes: allows at most 2000 nodes/],
	['a blank scope node', {scope_nodes: ['a', ' ']}, /scope_nodes\.1: a scope node id must not be blank/],
	['an offset timestamp', {as_of: '2026-06-01T08:00:00+08:00'}, /as_of: must be a UTC time/],
	['fractional seconds', {as_of: '2026-06-01T00:00:00.5Z'}, /as_of: must be a UTC time/],
	['an impossible date', {as_of: '2026-02-30T00:00:00Z'}, /as_of: must be a UTC time YYYY-MM-DDTHH:MM:SSZ with a real calendar date/],
	['a year before 1970', {min_observed_utc: '1969-12-31T23:59:59Z'}, /min_observed_utc: must be in 1970 or later/],
	['min_observed_utc after as_of', {min_observed_utc: '2026-07-01T00:00:00Z'}, /min_observed_utc: must not be later than as_of/],
	['2001 sources', {sources: Object.fromEntries(Array.from({length: 2001}, (_, index) => [`n${index}`, {node_sha256: 'a'.repeat(64)}]))}, /sources: allows at most 2000 sources/],
	['a blank source id', {sources: {' ': {node_sha256: 'a'.repeat(64)}}}, /sources: a source id must not be blank/],
	['a short pin', {sources: {a: {node_sha256: 'abc'}}}, /sources\.a\.node_sha256: must be 64 hex characters/],
	['no facts', {facts: []}, /facts: needs at least 1 fact/],
	['17 facts', {facts: Array.from({length: 17}, (_, index) => single(`f${index}`, [['a']]))}, /facts: allows at most 16 facts/],
	['repeated fact ids', {facts: [single('f', [['a']]), single('f', [['a']])]}, /facts\.1\.id: fact ids must be unique; "f" repeats/],
	['a blank fact id', {facts: [single(' ', [['a']])]}, /facts\.0\.id: a fact id must not be blank/],
	['a fact without alternatives', {facts: [single('f', [])]}, /facts\.0\.alternatives: a fact needs at least 1 alternative/],
	['17 alternatives', {facts: [single('f', Array.from({length: 17}, () => ['a']))]}, /facts\.0\.alternatives: a fact allows at most 16 alternatives/],
	['an empty alternative', {facts: [single('f', [[]])]}, /facts\.0\.alternatives\.0: an alternative needs at least 1 id/],
	['65 ids in an alternative', {facts: [single('f', [Array.from({length: 65}, () => 'a')])]}, /facts\.0\.alternatives\.0: an alternative allows at most 64 ids/],
	['max_hops 0', {max_hops: 0}, /max_hops: must be an integer from 1 to 16/],
	['max_hops 17', {max_hops: 17}, /max_hops: must be an integer from 1 to 16/],
	['search_limit 0', {search_limit: 0}, /search_limit: must be an integer from 1 to 100000/],
	['search_limit 100001', {search_limit: 100_001}, /search_limit: must be an integer from 1 to 100000/],
	['a zero budget', {budget_tokens: 0}, /budget_tokens: must be a whole number of tokens above 0/],
	['a fractional budget', {budget_tokens: 1.5}, /budget_tokens: must be a whole number of tokens above 0/],
	['a string budget', {budget_tokens: '100'}, /budget_tokens: must be a number/],
	['facts with --prepare-proposal', {sources: {a: {node_sha256: 'a'.repeat(64)}}}, /facts: --prepare-proposal needs facts: \[\]/, 'prepare_proposal'],
	['no sources with --prepare-proposal', {facts: []}, /sources: --prepare-proposal needs 1 to 64 sources, got 0/, 'prepare_proposal'],
	['65 sources with --prepare-proposal', {facts: [], sources: Object.fromEntries(Array.from({length: 65}, (_, index) => [`n${index}`, {node_sha256: 'a'.repeat(64)}]))}, /sources: --prepare-proposal needs 1 to 64 sources, got 65/, 'prepare_proposal'],
];

test('every contract rule has its own error, naming the file and the field', t => {
	const directory = tempDir(t);
	for (const [what, fields, message, mode] of invalidContracts) {
		const file = writeJson(join(directory, 'contract.json'), contract(fields));
		assert.throws(() => loadContract(file, directory, 'why?', mode ?? 'evaluate'), (error: {code: string; message: string}) => {
			assert.equal(error.code, 'invalid_contract', what);
			assert.match(error.message, message, what);
			assert.ok(error.message.startsWith(file), `${what}: names the file`);
			return true;
		});
	}

	writeFileSync(join(directory, 'broken.json'), '{"version": 1, "question": "secret text');
	assert.throws(() => loadContract('broken.json', directory, 'why?', 'evaluate'), (error: {code: string; message: string}) => error.code === 'invalid_contract' && /broken\.json is not valid JSON$/.test(error.message) && !error.message.includes('secret'));
	writeFileSync(join(directory, 'big.json'), ' '.repeat(1024 * 1024 + 1));
	assert.throws(() => loadContract('big.json', directory, 'why?', 'evaluate'), {code: 'invalid_contract', message: /big\.json is 1048577 bytes; at most 1048576 \(1 MiB\)/});
	assert.throws(() => loadContract('absent.json', directory, 'why?', 'evaluate'), {code: 'file_unreadable'});
	const indented = loadContract(writeJson(join(directory, 'indented.json'), contract({})), directory, 'why?', 'evaluate');
	writeFileSync(join(directory, 'compact.json'), JSON.stringify(contract({})));
	assert.equal(loadContract('compact.json', directory, 'why?', 'evaluate').sha256, indented.sha256, 'the contract hash does not depend on formatting');
});

test('contract errors exit 1 with the error envelope; contract flags conflict or need one another', t => {
	const kb = fixtureKb(t);
	const bad = kb.evaluate({max_hops: 99});
	assert.equal(bad.code, 1);
	assert.equal(bad.error().code, 'invalid_contract');
	assert.equal(bad.error()['field'], 'max_hops');
	const file = writeJson(join(kb.base, 'c.json'), contract({}));
	for (const flag of [['--as-of', asOf], ['--include-expired'], ['--view', 'hits'], ['--limit', '5'], ['--offset', '1'], ['--local-scan']]) {
		const result = kb.run(['query', '--q', 'why?', '--evidence-contract', file, ...flag, '--format', 'json']);
		assert.equal(result.code, 1, flag.join(' '));
		assert.equal(result.error().code, 'conflicting_flags', flag.join(' '));
	}

	const needs: Array<[string[], RegExp]> = [
		[['--prepare-proposal'], /--prepare-proposal needs --evidence-contract/],
		[['--task-proposal', file], /--task-proposal needs --evidence-contract/],
		[['--task-draft', file], /--task-draft needs --evidence-contract/],
		[['--evidence-contract', file, '--evidence-ids'], /--evidence-ids needs --prepare-proposal/],
		[['--evidence-contract', file, '--proposal-review', file], /--proposal-review needs --task-proposal or --task-draft/],
	];
	for (const [args, message] of needs) {
		const result = kb.run(['query', '--q', 'why?', ...args, '--format', 'json']);
		assert.equal(result.code, 1, args.join(' '));
		assert.equal(result.error().code, 'missing_flag');
		assert.match(result.error().message, message);
	}

	for (const pair of [['--prepare-proposal', '--task-proposal', file], ['--task-proposal', file, '--task-draft', file], ['--prepare-proposal', '--proposal-review', file]]) {
		assert.equal(kb.run(['query', '--q', 'why?', '--evidence-contract', file, ...pair, '--format', 'json']).error().code, 'conflicting_flags', pair.join(' '));
	}
});

test('the snapshot is strict: a bad line, a torn tail, an unsupported op, bad validity times, invalid UTF-8 or a huge journal are errors', t => {
	const kb = fixtureKb(t);
	const good = journalText(fixture);
	const facts = [single('f', [['d:size']])];
	const cases: Array<[string, string | Buffer, string, RegExp]> = [
		['a line that is not JSON', `${good}{"id":\n`, 'journal_line_invalid', /journal\.jsonl:38: not a journal event \(not_json\)/],
		['a torn last line', `${good}{"id":"x"`, 'journal_line_invalid', /journal\.jsonl:38: the last line has no newline/],
		['node.delete', `${good}{"id":"x","observed_utc":"${t1}","op":"node.delete","payload":{"id":"d:size"}}\n`, 'journal_line_invalid', /journal\.jsonl:38: unsupported journal operation "node\.delete"/],
		['an offset validity time', `${good}{"id":"x","observed_utc":"${t1}","op":"edge.assert","payload":{"from":"a","type":"DEPENDS_ON","to":"b","valid_from":"2026-01-01T00:00:00+01:00"}}\n`, 'journal_line_invalid', /journal\.jsonl:38: not a journal event \(invalid_payload\)/],
		['a non-canonical observed time', `${good}{"id":"x","observed_utc":"2026-02-01 00:00:00","op":"node.upsert","payload":{"id":"a"}}\n`, 'journal_line_invalid', /journal\.jsonl:38: not a journal event \(not_an_event\)/],
		['invalid UTF-8', Buffer.concat([Buffer.from(good), Buffer.from([0xff, 0xfe, 10])]), 'journal_not_utf8', /journal\.jsonl:38: not valid UTF-8/],
		['invalid UTF-8 after a bad line', Buffer.concat([Buffer.from(`${good}{"id":\n`), Buffer.from([0xff, 0xfe, 10])]), 'journal_line_invalid', /journal\.jsonl:38: not a journal event \(not_json\)/],
		['invalid UTF-8 mid-line, then a bad line', Buffer.concat([Buffer.from(`${good}{"id":"`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n{"id":\n')]), 'journal_not_utf8', /journal\.jsonl:38: not valid UTF-8/],
	];
	for (const [what, content, code, message] of cases) {
		writeFileSync(kb.journal, content);
		const result = kb.evaluate({facts});
		assert.equal(result.code, 1, what);
		assert.equal(result.error().code, code, what);
		assert.match(result.error().message, message, what);
	}

	writeFileSync(kb.journal, `${good}\n\r\n`);
	const blanks = kb.evaluate({facts}).json();
	assert.equal(blanks.resolution, 'covered', 'blank lines are not events, and not errors');
	assert.equal(blanks.journal_sha256, sha256Hex(readFileSync(kb.journal)), 'the streamed hash is the hash of every byte, newlines and carriage returns included');
	writeFileSync(kb.journal, '');
	assert.equal(kb.evaluate({facts}).json().rejected_alternatives[0].reason, 'scope_or_source_unavailable', 'an empty journal has no nodes');
	truncateSync(kb.journal, 64 * 1024 * 1024 + 1);
	const big = kb.evaluate({facts});
	assert.equal(big.error().code, 'journal_too_large');
});

/** Every file under .engi (and the directory itself) with its size, mtime and content hash. */
function engiFiles(root: string) {
	const engi = join(root, '.engi');
	const entries = readdirSync(engi, {recursive: true, encoding: 'utf8'}).sort();
	return [engi, ...entries.map(entry => join(engi, entry))].map(path => {
		const stat = statSync(path);
		return {path, size: stat.size, mtimeMs: stat.mtimeMs, sha256: stat.isFile() ? sha256Hex(readFileSync(path)) : 'directory'};
	});
}

test('evaluations write nothing: journal and index keep their bytes and mtimes, also when the journal is corrupt', t => {
	const kb = fixtureKb(t);
	kb.ok(['status']); // Builds the index, so there is one to keep unchanged.
	const facts = [single('why', [['d:stream'], ['d:size']])];
	const prepare = writeJson(join(kb.base, 'prepare.json'), contract({scope_nodes: scope, sources: {'d:size': kb.pins['d:size']}, as_of: asOf, facts: []}));
	const runs = () => [
		kb.evaluate({facts}).code,
		kb.evaluate({facts: [single('f', [['c:a']])]}).code,
		kb.evaluate({facts: [single('f', [['d:changed']])]}).code,
		kb.evaluate({facts, budget_tokens: 1}).code,
		kb.evaluate({facts, search_limit: 1}).code,
		kb.evaluate({max_hops: 0}).code,
		kb.run(['query', '--q', 'why?', '--evidence-contract', prepare, '--prepare-proposal', '--evidence-ids']).code,
	];
	const clean = engiFiles(kb.root);
	assert.ok(clean.some(file => file.path.endsWith('index.sqlite')), 'the index exists');
	assert.deepEqual(runs(), [0, 2, 2, 2, 2, 1, 0]);
	assert.deepEqual(engiFiles(kb.root), clean);

	appendFileSync(kb.journal, '{"not": "an event"}\n');
	const corrupt = engiFiles(kb.root);
	assert.deepEqual(runs(), [1, 1, 1, 1, 1, 1, 1], 'a corrupt journal is an error for every evaluation');
	assert.deepEqual(engiFiles(kb.root), corrupt, 'nothing repaired, nothing quarantined');
});
