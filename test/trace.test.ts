import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {writeClaudeTranscript} from './helpers/claude-transcript.js';
import {makeKb} from './helpers/kb.js';

const first = 'aaaaaaaa-0000-4000-8000-00000000000a';
const second = 'bbbbbbbb-0000-4000-8000-00000000000b';
const zh = 'cccccccc-0000-4000-8000-00000000000c';

/**
 * A knowledge base whose decision was discussed in one session, whose note derives from an
 * artifact that session delivered, and whose artifact is a JSON file naming a second session:
 * every hop type a trace follows, over real transcripts in the sandbox's Claude store.
 */
function setup(t: TestContext) {
	const kb = makeKb(t);
	const home = kb.env['HOME']!;
	const one = writeClaudeTranscript(home, {id: first, cwd: '/work/zep'}, [
		{user: 'why does the zeppelin cache miss on cold start?'},
		{assistant: 'The zeppelin cache is keyed by the build id, so a cold start always misses.'},
		{user: 'then key the zeppelin cache by content hash instead'},
		{assistant: 'Done: the zeppelin cache now keys by content hash.'},
	]);
	writeClaudeTranscript(home, {id: second, cwd: '/work/zep'}, [{user: 'benchmark the zeppelin cache after the rekey'}, {assistant: 'unrelated words only'}]);
	writeClaudeTranscript(home, {id: zh, cwd: '/work/zh'}, [{user: '把日志解析器改成逐行流式读取'}, {assistant: '已经把日志解析器改成流式读取了。'}]);
	const report = join(kb.base, 'report.json');
	writeFileSync(report, JSON.stringify({title: 'cache report', meta: {origin_session_id: second}}));
	const artifact = kb.ok(['artifact', 'add', '--file', report]).node_id as string;
	kb.ok(['graph', 'node', '--id', `conversation:claude:${first}`, '--kind', 'Conversation', '--label', 'zeppelin cache session']);
	kb.ok(['graph', 'node', '--id', `conversation:claude:${zh}`, '--kind', 'Conversation', '--label', '日志会话']);
	kb.ok(['graph', 'node', '--id', 'decision:rekey', '--kind', 'Decision', '--label', 'key the zeppelin cache by content hash']);
	kb.ok(['graph', 'node', '--id', 'note:report', '--kind', 'Note', '--label', 'zeppelin cache report', '--provenance', 'test']);
	kb.ok(['graph', 'node', '--id', 'decision:zh', '--kind', 'Decision', '--label', '日志解析器改成流式读取']);
	kb.ok(['graph', 'relate', '--from', 'decision:rekey', '--edge', 'DISCUSSED_IN', '--to', `conversation:claude:${first}`]);
	kb.ok(['graph', 'relate', '--from', 'decision:zh', '--edge', 'DISCUSSED_IN', '--to', `conversation:claude:${zh}`]);
	kb.ok(['graph', 'relate', '--from', 'note:report', '--edge', 'DERIVED_FROM', '--to', artifact, '--provenance', 'test']);
	kb.ok(['graph', 'relate', '--from', `conversation:claude:${first}`, '--edge', 'DELIVERED', '--to', artifact, '--provenance', 'test']);
	return {kb, artifact, transcript: one.path};
}

type Trace = {
	state: string;
	reasons: Array<{code: string; subject: string | null}>;
	bounds: Record<string, number>;
	spent: Record<string, number>;
	seeds: Array<{node_id: string}>;
	transcripts: Array<{session_id: string; status: string; hops: Array<{type: string}>}>;
	results: Array<{seed: string; session_id: string; line: number; pointer: string; quote: string; sha256: string; hops: Array<{type: string; direction: string; from: string; to: string; parent_sha256: string | null; pointer: string | null}>; expand: string[]}>;
};

test('trace: typed hops from the clue\'s seeds to the transcripts they came from, each result expandable after a hash check', t => {
	const {kb, artifact} = setup(t);
	const trace = kb.ok<Trace>(['trace', '--q', 'zeppelin cache']);
	assert.equal(trace.state, 'ok', JSON.stringify(trace.reasons));
	assert.deepEqual(trace.seeds.map(seed => seed.node_id).sort(), [`conversation:claude:${first}`, 'decision:rekey', 'note:report']);
	const reached = new Map(trace.transcripts.map(transcript => [transcript.session_id, transcript]));
	assert.deepEqual([...reached.keys()].sort(), [first, second], 'the Chinese session is not reached');
	assert.ok(trace.results.length >= 4);
	assert.ok(trace.results.every(result => result.session_id === first || result.session_id === second));
	assert.ok(trace.results.every(result => /zeppelin/i.test(result.quote)));
	// The second session is reached only through the artifact's file: a METADATA_SESSION_REF with the file's hash and field.
	const viaFile = trace.results.find(result => result.session_id === second)!;
	const hop = viaFile.hops.at(-1)!;
	assert.equal(hop.type, 'METADATA_SESSION_REF');
	assert.equal(hop.from, artifact);
	assert.equal(hop.to, second);
	assert.equal(hop.pointer, '/meta/origin_session_id');
	assert.match(hop.parent_sha256 ?? '', /^[\da-f]{64}$/);
	// The decision reaches the first session through DISCUSSED_IN; the note through DERIVED_FROM then DELIVERED reversed.
	const note = kb.ok<Trace>(['trace', '--q', 'zeppelin', '--seed', 'note:report', '--max-depth', '2']);
	assert.deepEqual(note.seeds.map(seed => seed.node_id), ['note:report']);
	const noteFirst = note.transcripts.find(transcript => transcript.session_id === first)!;
	assert.deepEqual(noteFirst.hops.map(step => step.type), ['DERIVED_FROM', 'DELIVERED']);
	assert.equal(note.results.find(result => result.session_id === first)!.hops[1]!.direction, 'reverse');
	const decision = kb.ok<Trace>(['trace', '--q', 'zeppelin cache', '--seed', 'decision:rekey']);
	assert.deepEqual(decision.transcripts.map(transcript => [transcript.session_id, transcript.hops.map(step => step.type)]), [[first, ['DISCUSSED_IN']]]);
	// expand is an engi command line that returns the exact text at the pointer.
	const result = decision.results[0]!;
	assert.deepEqual(result.expand.slice(0, 2), ['engi', 'read']);
	const expanded = kb.ok(result.expand.slice(1));
	assert.equal(expanded.sha256, result.sha256);
	assert.match(expanded.value, /zeppelin/);
});

test('trace: a changed transcript makes expand a typed refusal', t => {
	const {kb, transcript} = setup(t);
	const result = kb.ok<Trace>(['trace', '--q', 'zeppelin cache', '--seed', 'decision:rekey']).results.find(found => found.line === 3)!;
	writeFileSync(transcript, readFileSync(transcript, 'utf8').replace('key the zeppelin cache by content hash instead', 'key the zeppelin cache by the build id after all'));
	const refused = kb.run([...result.expand.slice(1), '--format', 'json']);
	assert.equal(refused.code, 1);
	assert.equal(JSON.parse(refused.stderr).error.code, 'attachment_hash_mismatch');
});

test('trace: every bound is honoured exactly, spent never passes it, and a bound that stops the trace says so', t => {
	const {kb} = setup(t);
	const full = kb.ok<Trace>(['trace', '--q', 'zeppelin cache']);
	const records = full.spent['records']!;
	assert.ok(records >= 4);
	for (const [flag, key] of [['--max-records', 'records'], ['--max-sources', 'sources'], ['--max-nodes', 'nodes'], ['--max-depth', 'depth']] as const) {
		for (const bound of [0, 1, 2]) {
			const trace = kb.ok<Trace>(['trace', '--q', 'zeppelin cache', flag, String(bound)]);
			assert.equal(trace.bounds[key], bound);
			for (const [name, value] of Object.entries(trace.spent)) {
				assert.ok(value <= trace.bounds[name]!, `${flag} ${bound}: spent ${name} ${value} > ${trace.bounds[name]}`);
			}

			const stopped = trace.reasons.some(reason => reason.code === 'bound_reached' && reason.subject === flag);
			assert.equal(stopped, full.spent[key]! > bound, `${flag} ${bound}: bound_reached only when the full trace needed more`);
			assert.equal(trace.state, stopped ? 'degraded' : full.state);
		}
	}

	assert.equal(kb.ok<Trace>(['trace', '--q', 'zeppelin cache', '--max-records', '2']).results.length, 2);
	assert.equal(kb.ok<Trace>(['trace', '--q', 'zeppelin cache', '--max-nodes', '0']).seeds.length > 0, true, 'seeds are listed even when none can be visited');
	assert.equal(kb.ok<Trace>(['trace', '--q', 'zeppelin cache', '--max-depth', '0']).results.every(result => result.hops.length === 0), true);
	// Bytes: an allowance of exactly the first k records' bytes takes k records; one byte less takes k - 1.
	const seeded = ['trace', '--q', 'zeppelin cache', '--seed', 'decision:rekey'];
	const one = kb.ok<Trace>([...seeded, '--max-records', '1']);
	const exact = one.spent['bytes']!;
	assert.ok(exact > 0);
	const fits = kb.ok<Trace>([...seeded, '--max-bytes', String(exact)]);
	assert.equal(fits.results.length, 1);
	assert.equal(fits.spent['bytes'], exact);
	assert.ok(fits.reasons.some(reason => reason.code === 'bound_reached' && reason.subject === '--max-bytes'));
	const short = kb.ok<Trace>([...seeded, '--max-bytes', String(exact - 1)]);
	assert.equal(short.results.length, 0);
	assert.ok(short.reasons.some(reason => reason.code === 'bound_reached' && reason.subject === '--max-bytes'));
	assert.ok(short.spent['bytes']! <= exact - 1);
});

test('trace: a Chinese clue seeds and searches as query does', t => {
	const {kb} = setup(t);
	const trace = kb.ok<Trace>(['trace', '--q', '流式读取']);
	assert.equal(trace.state, 'ok', JSON.stringify(trace.reasons));
	assert.deepEqual(trace.seeds.map(seed => seed.node_id), ['decision:zh']);
	assert.deepEqual(trace.transcripts.map(transcript => transcript.session_id), [zh]);
	assert.deepEqual(trace.results.map(result => result.line), [1, 2]);
	assert.match(trace.results[0]!.quote, /流式读取/);
	const nothing = kb.ok<Trace>(['trace', '--q', 'xylophone']);
	assert.deepEqual([nothing.state, nothing.seeds.length, nothing.results.length], ['empty', 0, 0]);
});
