import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {makeKb} from './helpers/kb.js';

type Packet = {
	status: string;
	packet: {sha256: string; as_of: string; max_pairs: number; max_bytes: number};
	units: Array<{n: number; node_id: string; node_sha256: string; text: string}>;
	pairs: Array<{a: number; b: number; shared: string[]}>;
	counts: {candidates: number; offered: number; left_out: number; bytes: number};
	proposal_schema: Record<string, unknown>;
};

/** Lets the clock pass the packet's second, so what is written after it is later than its moment. */
const nextSecond = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1100 - (Date.now() % 1000));

function setup(t: TestContext) {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'decision:postgres', '--kind', 'Decision', '--label', 'Store the session table in postgres', '--body', 'Sessions stay in postgres with row locking.']);
	kb.ok(['graph', 'node', '--id', 'decision:dynamo', '--kind', 'Decision', '--label', 'Store the session table in dynamodb', '--body', 'Sessions move out of postgres.']);
	kb.ok(['graph', 'node', '--id', 'decision:fonts', '--kind', 'Decision', '--label', 'Ship the serif font']);
	const file = join(kb.base, 'proposal.json');
	return {kb, file};
}

const unitOf = (packet: Packet, id: string) => packet.units.find(unit => unit.node_id === id)!.n;

test('dream --prepare contradictions: deterministic candidate pairs with exact node text and hashes, within its bounds', t => {
	const {kb} = setup(t);
	const packet = kb.ok<Packet>(['dream', '--prepare', 'contradictions']);
	assert.equal(packet.status, 'prepared');
	assert.equal(packet.pairs.length, 1, JSON.stringify(packet.pairs));
	const pair = packet.pairs[0]!;
	assert.deepEqual([pair.a, pair.b].map(n => packet.units.find(unit => unit.n === n)!.node_id).sort(), ['decision:dynamo', 'decision:postgres']);
	assert.ok(pair.shared.includes('postgres') && pair.shared.includes('session'));
	assert.equal(packet.units.find(unit => unit.node_id === 'decision:postgres')!.text, 'Store the session table in postgres\nSessions stay in postgres with row locking.');
	assert.match(packet.units[0]!.node_sha256, /^[\da-f]{64}$/);
	assert.ok(packet.proposal_schema['properties']);
	const again = kb.ok<Packet>(['dream', '--prepare', 'contradictions']);
	assert.deepEqual(again.units, packet.units, 'the same journal makes the same units');
	assert.deepEqual(again.pairs, packet.pairs);
	const bounded = kb.ok<Packet>(['dream', '--prepare', 'contradictions', '--max-bytes', String(packet.counts.bytes - 1)]);
	assert.deepEqual([bounded.pairs.length, bounded.counts.left_out, bounded.counts.bytes <= packet.counts.bytes - 1], [0, 1, true]);
	const before = readFileSync(kb.journal, 'utf8');
	kb.ok(['dream', '--prepare', 'contradictions']);
	assert.equal(readFileSync(kb.journal, 'utf8'), before, 'prepare writes nothing');
});

test('dream --accept contradictions: the citation filter, a dry run, then only what a reviewer approved, once', t => {
	const {kb, file} = setup(t);
	const packet = kb.ok<Packet>(['dream', '--prepare', 'contradictions']);
	const pg = unitOf(packet, 'decision:postgres');
	const dynamo = unitOf(packet, 'decision:dynamo');
	writeFileSync(file, JSON.stringify({
		packet: packet.packet,
		model: 'test-model',
		contradictions: [
			{from: pg, to: dynamo, text: 'one keeps the sessions in postgres, the other moves them to dynamodb', units: [pg, dynamo]},
			{from: pg, to: dynamo, text: '  ', units: [pg, dynamo]},
			{from: pg, to: dynamo, text: 'cites one end only', units: [pg]},
			{from: pg, to: pg, text: 'a node against itself', units: [pg]},
			{from: pg, to: dynamo, text: 'cites a unit the packet does not have', units: [pg, dynamo, 99]},
		],
	}));
	nextSecond();
	const journal = readFileSync(kb.journal, 'utf8');
	const checked = kb.ok(['dream', '--accept', 'contradictions', '--file', file]);
	assert.equal(checked.status, 'checked');
	assert.deepEqual(checked.kept.map((entry: {index: number; from: string; to: string}) => [entry.index, entry.from, entry.to]), [[0, 'decision:postgres', 'decision:dynamo']]);
	assert.deepEqual(checked.dropped.map((entry: {index: number; reason: string}) => [entry.index, entry.reason]), [[1, 'empty_text'], [2, 'endpoint_not_cited'], [3, 'same_node'], [4, 'unknown_turn']]);
	assert.equal(readFileSync(kb.journal, 'utf8'), journal, 'a dry run writes nothing');
	const approve = checked.approve as string[];
	assert.deepEqual(approve.slice(0, 8), ['engi', 'dream', '--accept', 'contradictions', '--file', file, '--approve', 'all']);

	const wrongHash = kb.run(['dream', '--accept', 'contradictions', '--file', file, '--approve', 'all', '--reviewer', 'ada', '--review-sha256', '0'.repeat(64), '--format', 'json']);
	assert.equal(JSON.parse(wrongHash.stderr).error.code, 'review_changed');
	const noReviewer = kb.run(['dream', '--accept', 'contradictions', '--file', file, '--approve', 'all', '--format', 'json']);
	assert.equal(JSON.parse(noReviewer.stderr).error.code, 'missing_flag');
	const badIndex = kb.run(['dream', '--accept', 'contradictions', '--file', file, '--approve', '2', '--reviewer', 'ada', '--review-sha256', checked.review_sha256, '--format', 'json']);
	assert.equal(JSON.parse(badIndex.stderr).error.code, 'invalid_flag_value', 'a dropped proposal cannot be approved');
	assert.equal(readFileSync(kb.journal, 'utf8'), journal, 'refused approvals write nothing');

	const applied = kb.ok(['dream', '--accept', 'contradictions', '--file', file, '--approve', 'all', '--reviewer', 'ada', '--review-sha256', checked.review_sha256]);
	assert.deepEqual([applied.status, applied.events.appended, applied.approved, applied.reviewer], ['applied', 1, [0], 'ada']);
	const edges = readFileSync(kb.journal, 'utf8').trim().split('\n').map(line => JSON.parse(line)).filter(event => event.op === 'edge.assert' && event.payload.type === 'CONTRADICTS');
	assert.equal(edges.length, 1);
	const edge = edges[0].payload;
	assert.deepEqual([edge.from, edge.to, edge.reviewer, edge.model, edge.packet_sha256], ['decision:postgres', 'decision:dynamo', 'ada', 'test-model', packet.packet.sha256]);
	assert.deepEqual(edge.citations.map((citation: {node_id: string}) => citation.node_id).sort(), ['decision:dynamo', 'decision:postgres']);
	assert.equal(edge.citations.find((citation: {node_id: string}) => citation.node_id === 'decision:postgres').node_sha256, packet.units.find(unit => unit.n === pg)!.node_sha256);
	const again = kb.ok(['dream', '--accept', 'contradictions', '--file', file, '--approve', 'all', '--reviewer', 'ada', '--review-sha256', checked.review_sha256]);
	assert.equal(again.events.appended, 0, 'approving again appends nothing');
	assert.equal(kb.ok<Packet>(['dream', '--prepare', 'contradictions']).pairs.length, 0, 'a settled pair is not offered again');
});

test('dream --accept contradictions: typed errors for bad files and for a packet the knowledge base no longer gives', t => {
	const {kb, file} = setup(t);
	const code = (args: string[]) => {
		const result = kb.run([...args, '--format', 'json']);
		assert.equal(result.code, 1, result.stdout);
		return JSON.parse(result.stderr).error.code as string;
	};

	const accept = ['dream', '--accept', 'contradictions', '--file', file];
	assert.equal(code(accept), 'file_unreadable');
	writeFileSync(file, '{"packet": ');
	assert.equal(code(accept), 'invalid_json');
	writeFileSync(file, JSON.stringify({model: 'm', contradictions: []}));
	assert.equal(code(accept), 'invalid_contradictions');
	const packet = kb.ok<Packet>(['dream', '--prepare', 'contradictions']);
	writeFileSync(file, JSON.stringify({packet: {...packet.packet, sha256: '1'.repeat(64)}, model: 'm', contradictions: []}));
	assert.equal(code(accept), 'packet_changed', 'an edited packet object');
	writeFileSync(file, JSON.stringify({packet: packet.packet, model: 'm', contradictions: []}));
	assert.equal(kb.ok(accept).status, 'checked');
	nextSecond();
	kb.ok(['graph', 'node', '--id', 'decision:postgres', '--kind', 'Decision', '--label', 'Store the session table in postgres, sharded']);
	assert.equal(code(accept), 'packet_changed', 'a node of the packet changed since');
	assert.equal(code(['dream', '--accept', 'contradictions']), 'missing_flag');
	assert.equal(code(['dream', '--file', file]), 'missing_flag');
});
