/**
 * --attachment-refs leaves base64 images and encrypted reasoning out of a page and lists them;
 * --attachment gives each back byte for byte when its hash matches, and refuses otherwise.
 * Through resume everything is masked first, and stays masked.
 */
import assert from 'node:assert/strict';
import {createHash, randomBytes} from 'node:crypto';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {resolvePointer} from '../source/engine/conversation/codec/decode.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {claudeSessionPath, codexSessionPath, writeLines} from './fixtures/tool-sessions.js';
import {tempDir} from './helpers/temp.js';

const claudeId = 'a77ac4ed-0000-4000-8000-000000000001';
const codexId = '0195a1c2-a77a-7a00-8a00-000000000001';
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** A real (tiny, valid) PNG, padded with a text chunk so it is the size of a screenshot thumbnail. */
function png(): string {
	const header = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
	return Buffer.concat([header, randomBytes(1500)]).toString('base64');
}

function scene(t: Parameters<typeof tempDir>[0]) {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const image = png();
	const signature = randomBytes(300).toString('base64');
	const reasoning = `gAAAAB${randomBytes(400).toString('base64')}`;
	// Base64 in shape, but an API key in content: masking must reach it through resume.
	const leaked = `sk-proj-${randomBytes(90).toString('base64url')}`;
	const common = {isSidechain: false, userType: 'external', cwd: '/work/app', sessionId: claudeId, version: '2.1.80', gitBranch: 'main'};
	const claudeLines = [
		{...common, parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-11-24T09:00:00.000Z', message: {role: 'user', content: [{type: 'image', source: {type: 'base64', media_type: 'image/png', data: image}}, {type: 'text', text: 'Why does this page render blank?'}]}},
		{...common, parentUuid: 'u1', type: 'assistant', uuid: 'a1', timestamp: '2026-11-24T09:00:05.000Z', message: {id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [{type: 'thinking', thinking: 'The screenshot shows an empty root.', signature}, {type: 'text', text: 'The root element never mounts.'}], stop_reason: 'end_turn', usage: {input_tokens: 10, output_tokens: 20}}},
	].map(line => JSON.stringify(line));
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeLines);
	const codexLines = [
		{timestamp: '2026-11-24T09:00:00.000Z', type: 'session_meta', payload: {id: codexId, timestamp: '2026-11-24T09:00:00.000Z', cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli'}},
		{timestamp: '2026-11-24T09:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Match this mock-up'}, {type: 'input_image', image_url: `data:image/png;base64,${image}`}]}},
		{timestamp: '2026-11-24T09:00:02.000Z', type: 'response_item', payload: {type: 'reasoning', id: 'rs_1', summary: [{type: 'summary_text', text: 'Comparing the layout'}], encrypted_content: reasoning}},
		{timestamp: '2026-11-24T09:00:03.000Z', type: 'response_item', payload: {type: 'reasoning', id: 'rs_2', summary: [], encrypted_content: leaked}},
		{timestamp: '2026-11-24T09:00:04.000Z', type: 'response_item', payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'The header needs a grid.'}]}},
	].map(line => JSON.stringify(line));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexLines);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	return {base, env, run, image, signature, reasoning, leaked, raw: {claude: claudeLines.map(line => JSON.parse(line)), codex: codexLines.map(line => JSON.parse(line))}};
}

type Entry = {record: number; line: number; pointer: string; kind: string; bytes: number; sha256: string};

test('attachment references list every image and reasoning blob, and each comes back byte-identical', t => {
	const {run, raw, image, signature, reasoning, leaked} = scene(t);
	const expected = {
		claude: [{line: 1, pointer: '/message/content/0/source/data', kind: 'image', value: image}, {line: 2, pointer: '/message/content/0/signature', kind: 'encrypted_reasoning', value: signature}],
		codex: [{line: 2, pointer: '/payload/content/1/image_url', kind: 'image', value: `data:image/png;base64,${image}`}, {line: 3, pointer: '/payload/encrypted_content', kind: 'encrypted_reasoning', value: reasoning}, {line: 4, pointer: '/payload/encrypted_content', kind: 'encrypted_reasoning', value: leaked}],
	};
	for (const [source, id] of [['claude', claudeId], ['codex', codexId]] as const) {
		const plain = run(['read', id, '--source', source, '--view', 'events']);
		const packed = run(['read', id, '--source', source, '--view', 'events', '--attachment-refs']);
		assert.equal(packed.code, 0, packed.stderr);
		const packet = packed.json();
		assert.equal(packet.encoding, 'engi.attachments.v1');
		assert.deepEqual(packet.layers, ['attachments']);
		assert.ok(packed.stdout.length < plain.stdout.length - 1000, 'the blobs are left out');
		const entries = packet.attachments as Entry[];
		assert.deepEqual(entries.map(entry => [entry.line, entry.pointer, entry.kind]), expected[source].map(item => [item.line, item.pointer, item.kind]));
		for (const [index, entry] of entries.entries()) {
			const want = expected[source][index]!;
			assert.deepEqual(resolvePointer(packet.page.records[entry.record].event, entry.pointer), {attachment: index}, 'the reference stands where the table says');
			assert.equal(resolvePointer(raw[source][entry.line - 1], entry.pointer), want.value, 'the pointer names the value in the native record');
			assert.deepEqual([entry.bytes, entry.sha256], [Buffer.byteLength(want.value), sha(want.value)]);
			for (const place of [['--lines', String(entry.line)], ['--offset', String(entry.line - 1)]]) {
				const back = run(['read', id, '--source', source, ...place, '--attachment', entry.pointer, '--expect-sha256', entry.sha256]);
				assert.equal(back.code, 0, back.stderr);
				assert.equal(back.json().value, want.value, 'the value comes back byte for byte');
				assert.equal(back.json().sha256, sha(back.json().value));
			}
		}

		const refused = run(['read', id, '--source', source, '--lines', String(entries[0]!.line), '--attachment', entries[0]!.pointer, '--expect-sha256', sha('something else')]);
		assert.deepEqual([refused.code, refused.error().code, refused.stdout], [1, 'attachment_hash_mismatch', '']);
		const nowhere = run(['read', id, '--source', source, '--lines', String(entries[0]!.line), '--attachment', '/no/such/place', '--expect-sha256', entries[0]!.sha256]);
		assert.equal(nowhere.error().code, 'attachment_not_found');
		// Compact layers go on top of the attachments layer; decoding keeps the attachments envelope.
		const compact = run(['read', id, '--source', source, '--view', 'events', '--attachment-refs', '--compact', '--deltas']).json();
		assert.equal(compact.layers[0], 'attachments');
	}
});

test('attachment flags come with what they need and refuse what they cannot take', t => {
	const {run} = scene(t);
	const cases: Array<[string[], string]> = [
		[['read', claudeId, '--view', 'dialogue', '--attachment-refs'], 'conflicting_flags'],
		[['read', claudeId, '--lines', '1', '--attachment', '/message'], 'missing_flag'],
		[['read', claudeId, '--attachment', '/message', '--expect-sha256', sha('x')], 'missing_flag'],
		[['read', claudeId, '--lines', '1,2', '--attachment', '/message', '--expect-sha256', sha('x')], 'conflicting_flags'],
		[['read', claudeId, '--lines', '1', '--attachment', '/message', '--expect-sha256', sha('x'), '--compact'], 'conflicting_flags'],
		[['read', claudeId, '--lines', '1', '--attachment', 'message', '--expect-sha256', sha('x')], 'invalid_flag_value'],
		[['read', claudeId, '--lines', '1', '--attachment', '/message', '--expect-sha256', 'abc'], 'invalid_flag_value'],
		[['read', claudeId, '--expect-sha256', sha('x')], 'missing_flag'],
		[['resume', claudeId, '--attachment-refs'], 'conflicting_flags'],
	];
	for (const [args, code] of cases) {
		const result = run(args);
		assert.equal(result.code, 1, args.join(' '));
		assert.equal(result.error().code, code, args.join(' '));
	}
});

test('through resume, attachments are listed and returned masked: a secret never comes back', t => {
	const {run, base, leaked, reasoning} = scene(t);
	const read = run(['read', codexId, '--source', 'codex', '--view', 'events', '--attachment-refs']).json();
	const resumed = run(['resume', codexId, '--source', 'codex', '--view', 'events', '--attachment-refs']);
	assert.equal(resumed.code, 0, resumed.stderr);
	assert.ok(!resumed.stdout.includes(leaked.slice(0, 40)), 'the key is masked in the page');
	const file = join(base, 'resumed.json');
	writeFileSync(file, resumed.stdout);
	const decoded = run(['read', '--decode-packet', file]).json();
	assert.equal(decoded.encoding, 'engi.attachments.v1', 'resume compacts by default, over the attachments layer');
	const entries = decoded.attachments as Entry[];
	assert.deepEqual(entries.map(entry => entry.line), [2, 3], 'the masked key is no base64 blob any more, so it is shown masked, not listed');
	const reasoningEntry = entries.find(entry => entry.line === 3)!;
	const back = run(['resume', codexId, '--source', 'codex', '--lines', '3', '--attachment', reasoningEntry.pointer, '--expect-sha256', reasoningEntry.sha256]);
	assert.equal(back.json().value, reasoning, 'a blob with no secret comes back whole');
	const secretEntry = (read.attachments as Entry[]).find(entry => entry.line === 4)!;
	const refused = run(['resume', codexId, '--source', 'codex', '--lines', '4', '--attachment', secretEntry.pointer, '--expect-sha256', secretEntry.sha256]);
	assert.deepEqual([refused.code, refused.error().code], [1, 'attachment_hash_mismatch'], 'resume refuses the raw value\'s hash: it only has the masked one');
	assert.ok(!refused.stderr.includes(leaked.slice(0, 40)));
	const masked = run(['resume', codexId, '--source', 'codex', '--lines', '4', '--attachment', secretEntry.pointer, '--expect-sha256', sha('[redacted:openai_api_key]')]);
	assert.equal(masked.json().value, '[redacted:openai_api_key]');
	const raw = run(['read', codexId, '--source', 'codex', '--lines', '4', '--attachment', secretEntry.pointer, '--expect-sha256', secretEntry.sha256]);
	assert.equal(raw.json().value, leaked, 'engi read shows a person their own transcript as it is');
});

test('attachment references also leave out other base64 media: a PDF a Claude prompt attached, an audio file a Codex prompt attached, audio an MCP tool returned', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const pdf = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(1200)]).toString('base64');
	const audio = randomBytes(1400).toString('base64');
	const common = {isSidechain: false, userType: 'external', cwd: '/work/app', sessionId: claudeId, version: '2.1.80', gitBranch: 'main'};
	const claudeLines = [
		{...common, parentUuid: null, type: 'user', uuid: 'u1', timestamp: '2026-11-24T09:00:00.000Z', message: {role: 'user', content: [{type: 'document', source: {type: 'base64', media_type: 'application/pdf', data: pdf}}, {type: 'text', text: 'Summarise the invoice terms.'}]}},
		{...common, parentUuid: 'u1', type: 'user', uuid: 'u2', timestamp: '2026-11-24T09:00:02.000Z', message: {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', content: [{type: 'audio', data: audio, mimeType: 'audio/wav'}]}]}},
		{...common, parentUuid: 'u2', type: 'user', uuid: 'u3', timestamp: '2026-11-24T09:00:03.000Z', message: {role: 'user', content: [{type: 'document', source: {type: 'text', media_type: 'text/plain', data: 'plain words stay where they are, however long they run on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on and on'}}]}},
	].map(line => JSON.stringify(line));
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeLines);
	const codexLines = [
		{timestamp: '2026-11-24T09:00:00.000Z', type: 'session_meta', payload: {id: codexId, timestamp: '2026-11-24T09:00:00.000Z', cwd: '/work/app', originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli'}},
		{timestamp: '2026-11-24T09:00:01.000Z', type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: '<audio name=[Audio #1]>'}, {type: 'input_audio', audio_url: `data:audio/mp4;base64,${audio}`}, {type: 'input_text', text: '</audio>'}, {type: 'input_text', text: 'Transcribe the stand-up'}]}},
	].map(line => JSON.stringify(line));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexLines);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	const expected = {
		claude: [[1, '/message/content/0/source/data', 'media', pdf], [2, '/message/content/0/content/0/data', 'media', audio]],
		codex: [[2, '/payload/content/1/audio_url', 'media', `data:audio/mp4;base64,${audio}`]],
	} as const;
	for (const [source, id] of [['claude', claudeId], ['codex', codexId]] as const) {
		const packed = run(['read', id, '--source', source, '--view', 'events', '--attachment-refs']);
		assert.equal(packed.code, 0, packed.stderr);
		const entries = packed.json().attachments as Entry[];
		assert.deepEqual(entries.map(entry => [entry.line, entry.pointer, entry.kind]), expected[source].map(([line, pointer, kind]) => [line, pointer, kind]), `${source}: every base64 medium is listed; plain text is not`);
		for (const [index, entry] of entries.entries()) {
			const back = run(['read', id, '--source', source, '--lines', String(entry.line), '--attachment', entry.pointer, '--expect-sha256', entry.sha256]);
			assert.equal(back.code, 0, back.stderr);
			assert.equal(back.json().value, expected[source][index]![3], 'the value comes back byte for byte');
		}

		const file = join(base, `${source}.json`);
		writeFileSync(file, packed.stdout);
		const decoded = run(['read', '--decode-packet', file]);
		assert.equal(decoded.code, 0, decoded.stderr);
	}
});
