// Fuzzing of the reading beside the transcripts (fast-check, seeded, bounded in time): the small
// keyed JSONL indexes (Codex's session_index.jsonl, the agy CLI's history.jsonl), media notes in
// tool output, the protobuf walk over an agy step database's metadata blob, the zstd frame walk
// fed in pieces, Claude hook attachments and Codex records with wrong types in every field,
// workspace.yaml scalars, Cursor's .workspace-trusted and Gemini's retirement. Nothing may throw;
// what is valid is still read; nothing costs more than a small multiple of its input.
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import {conversationWorkspace} from '../../source/adapters/antigravity/conversation-db.js';
import {indexedWorkspace} from '../../source/adapters/antigravity/history.js';
import {claudeAdapter} from '../../source/adapters/claude/index.js';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import {indexedThreadName} from '../../source/adapters/codex/session-index.js';
import {workspaceCwd, workspaceName} from '../../source/adapters/copilot/discover.js';
import {copilotAdapter} from '../../source/adapters/copilot/index.js';
import {cursorAdapter} from '../../source/adapters/cursor/index.js';
import {geminiRetirement} from '../../source/adapters/gemini/retire.js';
import {createUpdatesReducer} from '../../source/adapters/grok/updates.js';
import {adapters} from '../../source/adapters/index.js';
import {readAllRows} from '../../source/adapters/rows.js';
import {mediaAwareOutput, mediaNote} from '../../source/adapters/shared/media.js';
import type {DocumentAdapter, LineState} from '../../source/adapters/types.js';
import {createFrameWalk, forEachDecompressedLine} from '../../source/lib/zstd-lines.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const seed = 20_261_218;
const payload = 'QkFTRTY0LVBBWUxPQUQtZnV6ejE4';

/** Values of every JSON type, and the objects that break a careless String() or `in`. */
const weird: fc.Arbitrary<unknown> = fc.oneof(
	fc.constant(null),
	fc.integer(),
	fc.double({noNaN: true, noDefaultInfinity: true}),
	fc.boolean(),
	fc.string({maxLength: 12}),
	fc.constant(''),
	fc.constant([]),
	fc.constant({}),
	fc.constantFrom('SessionStart', 'UserPromptSubmit', 'Stop', 'PreToolUse:Bash', '__proto__', 'constructor', 'toString', '<image>', '</image>', 'Warmup'),
	fc.constant(JSON.parse('{"toString": 1}') as unknown),
	fc.constant(JSON.parse('{"toString": 1, "valueOf": 1}') as unknown),
	fc.constant(JSON.parse('{"__proto__": {"x": 1}}') as unknown),
	fc.constant([['deep', [{text: 7}]]]),
	fc.constant({type: 'text', text: 'typed'}),
);

const orText = (texts: fc.Arbitrary<string>) => fc.oneof(texts, weird);

test('keyed indexes: any lines, torn, repeated or wrongly typed, never throw and give the latest name and first workspace of the valid ones', t => {
	const directory = tempDir(t);
	const id = fc.constantFrom('a', 'b', 'c');
	const line = fc.oneof(
		fc.record({id: orText(id), thread_name: orText(fc.constantFrom('one', ' two ', '', '  ')), updated_at: weird}).map(value => JSON.stringify(value)),
		fc.record({conversationId: orText(id), workspace: orText(fc.constantFrom('/w/one', ' /w/two', '', ' ')), display: weird}).map(value => JSON.stringify(value)),
		fc.constantFrom('{', '{"', '{"thread_name":', '{"conversationId": "a", "workspace": "/w/x"', '\0\0\0\0', '"thread_name" "conversationId"', '[{"thread_name": "x", "id": "a"}]', 'null', '{"thread_name": "x", "id": "a"}}'),
		fc.nat({max: 50_000}).map(length => `{"id": "a", "thread_name": "${'x'.repeat(length)}`),
	);
	let run = 0;
	fc.assert(
		fc.property(fc.array(line, {maxLength: 30}), lines => {
			// A fresh directory each run: the cache keys a file by its size and time.
			const home = join(directory, String(run++));
			mkdirSync(join(home, 'sessions'), {recursive: true});
			const text = lines.join('\n');
			writeFileSync(join(home, 'session_index.jsonl'), text);
			writeFileSync(join(home, 'history.jsonl'), text);
			const names = new Map<string, string>();
			const workspaces = new Map<string, string>();
			for (const each of lines) {
				let value: unknown;
				try {
					value = JSON.parse(each);
				} catch {
					continue;
				}

				if (value === null || typeof value !== 'object' || Array.isArray(value)) {
					continue;
				}

				const record = value as Record<string, unknown>;
				if (each.includes('"thread_name"') && typeof record['id'] === 'string' && typeof record['thread_name'] === 'string' && record['thread_name'].trim() !== '') {
					names.set(record['id'], record['thread_name'].trim());
				}

				const workspace = record['workspace'];
				if (each.includes('"conversationId"') && typeof record['conversationId'] === 'string' && typeof workspace === 'string' && workspace.trim() !== '' && !workspaces.has(record['conversationId'])) {
					workspaces.set(record['conversationId'], workspace.trim());
				}
			}

			for (const key of ['a', 'b', 'c', '__proto__', 'constructor']) {
				assert.equal(indexedThreadName(join(home, 'sessions', 'rollout.jsonl'), key), names.get(key));
				assert.equal(indexedWorkspace(home, key), workspaces.get(key));
			}
		}),
		{seed, numRuns: 120},
	);
});

test('media: any block, nested or wrongly typed, never throws, and a media payload is never copied into the text', () => {
	const mediaType = orText(fc.constantFrom('image/png', 'audio/wav', 'application/pdf', ''));
	const block = fc.oneof(
		fc.record({type: fc.constant('image'), source: fc.oneof(weird, fc.record({type: orText(fc.constant('base64')), media_type: mediaType, data: fc.constant(payload)}))}),
		fc.record({type: fc.constantFrom('image', 'audio'), data: fc.constant(payload), mimeType: mediaType, mime_type: mediaType}),
		fc.record({type: fc.constant('resource'), resource: fc.record({blob: fc.constant(payload), mimeType: mediaType, uri: weird})}),
		fc.record({type: fc.constant('input_image'), image_url: fc.oneof(fc.constantFrom(`data:image/png;base64,${payload}`, `data:;base64,${payload}`, `data:image/jpeg,${payload}`), fc.record({url: fc.constant(`data:image/webp;base64,${payload}`)}))}),
		fc.record({type: weird, text: weird, image_url: weird, source: weird, resource: weird}),
		weird,
	);
	fc.assert(
		fc.property(fc.oneof(block, fc.array(block, {maxLength: 6})), value => {
			const blocks = Array.isArray(value) ? value : [value];
			for (const each of blocks) {
				const note = mediaNote(each);
				assert.ok(note === undefined || (note.startsWith('[') && !note.includes(payload)), String(note));
			}

			const text = mediaAwareOutput(value);
			assert.equal(typeof text, 'string');
			if (blocks.some(each => mediaNote(each) !== undefined)) {
				// Every block that carries the payload is a media block here: none of it is copied.
				assert.ok(!text.includes(payload), text.slice(0, 200));
			}
		}),
		{seed, numRuns: 400},
	);
});

/** A protobuf varint. */
function varint(value: bigint): number[] {
	const bytes: number[] = [];
	let rest = BigInt.asUintN(64, value);
	do {
		const low = Number(rest & 0x7fn);
		rest >>= 7n;
		bytes.push(rest > 0n ? low | 0x80 : low);
	} while (rest > 0n);
	return bytes;
}

type Field = {number: number; wire: 0; value: bigint} | {number: number; wire: 1 | 5} | {number: number; wire: 2; bytes: number[]};

function encode(fields: readonly Field[]): number[] {
	return fields.flatMap(field => {
		const key = varint(BigInt(field.number * 8 + field.wire));
		if (field.wire === 0) {
			return [...key, ...varint(field.value)];
		}

		if (field.wire === 2) {
			return [...key, ...varint(BigInt(field.bytes.length)), ...field.bytes];
		}

		return [...key, ...Array.from({length: field.wire === 1 ? 8 : 4}, () => 0xff)];
	});
}

/** Fields other than 1: varints of any 64-bit value (a negative int64 takes ten bytes), fixed fields, nested bytes. */
const otherField: fc.Arbitrary<Field> = fc.oneof(
	fc.record({number: fc.integer({min: 2, max: 5000}), wire: fc.constant(0 as const), value: fc.bigInt({min: -(2n ** 63n), max: 2n ** 64n - 1n})}),
	fc.record({number: fc.integer({min: 2, max: 5000}), wire: fc.constantFrom(1 as const, 5 as const)}),
	fc.record({number: fc.integer({min: 2, max: 5000}), wire: fc.constant(2 as const), bytes: fc.array(fc.integer({min: 0, max: 255}), {maxLength: 40})}),
);

function stepDatabase(path: string, blob: Buffer | string | null): void {
	const db = new Database(path);
	db.exec('CREATE TABLE trajectory_metadata_blob (id TEXT PRIMARY KEY, data BLOB)');
	db.prepare("INSERT INTO trajectory_metadata_blob VALUES ('main', ?)").run(blob);
	db.close();
}

test('agy step database: a metadata blob with other fields around the workspace, in any order, gives its path; any damage gives none, quickly', t => {
	const directory = tempDir(t);
	// One database, its blob changed between reads (no WAL: a read opens the file as it stands).
	const path = join(directory, 'conversation.db');
	stepDatabase(path, null);
	const db = new Database(path);
	t.after(() => db.close());
	const update = db.prepare("UPDATE trajectory_metadata_blob SET data = ? WHERE id = 'main'");
	fc.assert(
		fc.property(fc.array(otherField, {maxLength: 4}), fc.array(otherField, {maxLength: 4}), fc.array(otherField, {maxLength: 3}), (before, inside, after) => {
			const uri = [...Buffer.from('file:///home/ada/dev/shop')];
			const workspace = encode([...inside, {number: 1, wire: 2, bytes: uri}, {number: 2, wire: 0, value: 1_767_225_600_000_000n}]);
			update.run(Buffer.from(encode([...before, {number: 1, wire: 2, bytes: workspace}, ...after])));
			assert.equal(conversationWorkspace(path), '/home/ada/dev/shop');
		}),
		{seed, numRuns: 100},
	);

	const flip = fc.record({at: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}), xor: fc.integer({min: 1, max: 255})});
	const blobs = fc.oneof(
		fc.uint8Array({maxLength: 200}).map(bytes => Buffer.from(bytes)),
		// Lengths past the end, keys and varints that never end, fields nested a thousand deep.
		fc.constantFrom(
			Buffer.from([0x0a, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f]),
			Buffer.from([0x0a, ...varint(2n ** 62n)]),
			Buffer.alloc(5000, 0xff),
			Buffer.alloc(5000, 0x80),
			Buffer.alloc(5000, 0),
			Buffer.from([0x08, ...Array.from({length: 20}, () => 0x80), 0x01]),
			Buffer.from(Array.from({length: 1000}, () => [0x0a, 0x00]).flat()),
		),
		fc.tuple(fc.integer({min: 0, max: 1000}), fc.array(flip, {minLength: 1, maxLength: 3}), fc.option(fc.double({min: 0, max: 1, noNaN: true}))).map(([depth, flips, cut]) => {
			let message = encode([{number: 1, wire: 2, bytes: [...Buffer.from('file:///w')]}]);
			for (let level = 0; level < depth % 50; level++) {
				message = encode([{number: 1, wire: 2, bytes: message}]);
			}

			const bytes = Buffer.from(message);
			for (const {at, xor} of flips) {
				const index = Math.floor(at * bytes.length);
				bytes[index] = bytes[index]! ^ xor;
			}

			return cut === null ? bytes : bytes.subarray(0, Math.floor(cut * bytes.length));
		}),
	);
	fc.assert(
		fc.property(blobs, blob => {
			update.run(blob);
			const started = performance.now();
			const found = conversationWorkspace(path);
			assert.ok(found === undefined || (typeof found === 'string' && !found.includes('\0')), String(found));
			assert.ok(performance.now() - started < 200);
		}),
		{seed, numRuns: 200},
	);

	// Not a database, an empty file, a text blob, no row, no such table, no file, a directory.
	const notSqlite = join(directory, 'text.db');
	writeFileSync(notSqlite, '{"not": "sqlite"}\n'.repeat(100));
	const empty = join(directory, 'empty.db');
	writeFileSync(empty, '');
	update.run('file:///home/ada');
	const other = join(directory, 'other.db');
	new Database(other).exec('CREATE TABLE steps (id INTEGER)').close();
	for (const each of [notSqlite, empty, path, other, join(directory, 'missing.db'), directory]) {
		assert.equal(conversationWorkspace(each), undefined, each);
	}

	update.run(null);
	assert.equal(conversationWorkspace(path), undefined);
});

const zstdFixtures = [
	'test/fixtures/zstd/lines.txt.zst',
	'test/fixtures/zstd/multi.txt.zst',
	'test/fixtures/format-cases/codex/compressed/sessions/2026/11/20/rollout-2026-11-20T08-00-00-019a8f10-2b00-7c00-8d00-0000000000e1.jsonl.zst',
];

/** Every decompressed line of a file, or the error thrown. */
function decompressedLines(path: string): {lines: string[]; error?: unknown} {
	const lines: string[] = [];
	try {
		forEachDecompressedLine(path, line => {
			lines.push(line.buffer.toString('utf8', line.start, line.end));
		});
		return {lines};
	} catch (error) {
		return {lines, error};
	}
}

function skippable(length: number, declared = length): Buffer {
	const header = Buffer.alloc(8);
	header.writeUInt32LE(0x18_4d_2a_50 + (length % 16), 0);
	header.writeUInt32LE(declared, 4);
	return Buffer.concat([header, Buffer.alloc(Math.min(length, 64), 0xab)]);
}

test('zstd frame walk: frames and skippable frames in any order, split at every offset, declare the same windows; a skippable frame of gigabytes allocates nothing', t => {
	const directory = tempDir(t);
	const frames = zstdFixtures.map(path => readFileSync(path));
	const wholeWindows = frames.map(frame => createFrameWalk()(frame));
	const part = fc.oneof(fc.nat({max: frames.length - 1}).map(index => ({index})), fc.nat({max: 64}).map(length => ({length})));
	fc.assert(
		fc.property(fc.array(part, {minLength: 1, maxLength: 5}), fc.integer({min: 1, max: 300}), (parts, piece) => {
			const bytes = Buffer.concat(parts.map(each => ('index' in each ? frames[each.index]! : skippable(each.length))));
			const expected = Math.max(0, ...parts.map(each => ('index' in each ? wholeWindows[each.index]! : 0)));
			for (const size of [1, piece, bytes.length]) {
				const walk = createFrameWalk();
				let largest = 0;
				for (let at = 0; at < bytes.length; at += size) {
					largest = Math.max(largest, walk(bytes.subarray(at, at + size)));
				}

				assert.equal(largest, expected, `in pieces of ${size}`);
			}
		}),
		{seed, numRuns: 60},
	);

	// Every split point of a two-frame file, with a skippable frame between.
	const two = Buffer.concat([frames[0]!, skippable(7), frames[1]!]);
	for (let at = 0; at <= two.length; at++) {
		const walk = createFrameWalk();
		assert.equal(Math.max(walk(two.subarray(0, at)), walk(two.subarray(at))), Math.max(wholeWindows[0]!, wholeWindows[1]!), `split at ${at}`);
	}

	// Read through the decoder: a skippable frame between frames is passed over, and one declaring 4 GB that the file cuts short costs nothing.
	const adjacent = join(directory, 'adjacent.txt.zst');
	writeFileSync(adjacent, Buffer.concat([frames[0]!, frames[1]!]));
	const between = join(directory, 'between.txt.zst');
	writeFileSync(between, two);
	assert.deepEqual(decompressedLines(between), decompressedLines(adjacent));
	for (const tail of [skippable(64, 0xff_ff_ff_f0), skippable(3, 0xff_ff_ff_ff).subarray(0, 6), Buffer.from([0x28, 0xb5, 0x2f]), Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00])]) {
		const path = join(directory, 'tail.txt.zst');
		writeFileSync(path, Buffer.concat([frames[0]!, tail]));
		const started = performance.now();
		const read = decompressedLines(path);
		assert.ok(read.error === undefined || (read.error as {code?: string}).code === 'ZSTD_UNREADABLE', String(read.error));
		// The first frame's lines are read; a file that ends damaged is refused before its unended last line.
		const whole = decompressedLines(zstdFixtures[0]!).lines;
		assert.deepEqual(read.lines, read.error === undefined ? whole : whole.slice(0, read.lines.length));
		assert.ok(read.lines.length >= whole.length - 1);
		assert.ok(performance.now() - started < 1000);
		assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024);
	}
});

const claudeFile = 'test/fixtures/stores/claude/projects/-work-app/11111111-1111-4111-8111-111111111111.jsonl';
const claudeAgentFile = 'test/fixtures/stores/claude/projects/-work-app/agent-aaaa1111.jsonl';

test('claude: hook attachments, cut-off replies and warmups with wrong types in every field never throw', () => {
	const units = [looseUnit(claudeFile), looseUnit(claudeAgentFile)];
	const attachment = fc.record(
		{
			type: fc.oneof({arbitrary: fc.constantFrom('hook_success', 'hook_additional_context', 'hook_blocking_error', 'hook_stopped_continuation', 'queued_command', 'hook_cancelled'), weight: 4}, {arbitrary: weird, weight: 1}),
			hookName: weird,
			hookEvent: weird,
			content: fc.oneof(fc.string({minLength: 1, maxLength: 12}), weird, fc.array(weird, {maxLength: 3})),
			message: weird,
			blockingError: fc.oneof(weird, fc.record({blockingError: weird, command: weird})),
			toolUseID: weird,
			prompt: weird,
			commandMode: weird,
			isMeta: weird,
			origin: weird,
		},
		{requiredKeys: ['type', 'hookName', 'hookEvent', 'content', 'message', 'blockingError']},
	);
	const base = {uuid: 'f1', parentUuid: null, sessionId: '11111111-1111-4111-8111-111111111111', timestamp: '2026-11-01T10:00:00.000Z', cwd: '/work/app'};
	const record = fc.oneof(
		fc.record({type: fc.constant('attachment'), attachment: fc.oneof({arbitrary: attachment, weight: 4}, {arbitrary: weird, weight: 1}), isSidechain: weird}).map(value => ({...base, ...value})),
		fc.record({type: fc.constant('assistant'), isAbortedMidStream: weird, message: fc.record({role: fc.constant('assistant'), content: fc.oneof(weird, fc.array(fc.oneof(weird, fc.record({type: orText(fc.constantFrom('text', 'tool_use')), text: weird, name: weird, id: weird, input: weird})), {maxLength: 3}))})}).map(value => ({...base, ...value})),
		fc.record({type: fc.constant('user'), isSidechain: weird, isMeta: weird, message: fc.record({role: orText(fc.constant('user')), content: fc.oneof(weird, fc.constant('Warmup'), fc.constant([{type: 'text', text: 'Warmup'}]), fc.array(fc.record({type: orText(fc.constantFrom('tool_result', 'image', 'text')), content: weird, tool_use_id: weird, is_error: weird, source: weird}), {maxLength: 3}))})}).map(value => ({...base, ...value})),
	);
	fc.assert(
		fc.property(fc.array(record, {minLength: 1, maxLength: 6}), fc.nat(), (records, pick) => {
			const state: LineState = {};
			const unit = units[pick % units.length]!;
			// Through JSON, as a line is read: own keys like toString and __proto__.
			for (const [index, each] of records.entries()) {
				const events = claudeAdapter.normalizeLine(JSON.parse(JSON.stringify(each)), index + 1, state, unit);
				assert.ok(events === null || Array.isArray(events) || typeof events === 'object');
			}
		}),
		{seed, numRuns: 400},
	);
});

const codexFork = 'test/fixtures/stores/codex/sessions/2026/11/21/rollout-2026-11-21T15-00-00-0195a1c2-0c00-7c00-8c00-00000000000c.jsonl';

test('codex: tool outputs, image tags and fork copies with wrong types in every field never throw', () => {
	const unit = looseUnit(codexFork);
	const meta = readFileSync(codexFork, 'utf8').split('\n').slice(0, 2).map(line => JSON.parse(line) as unknown);
	const script = fc.constantFrom('Script failed\nWall time 0.1 seconds\nScript error: x', '  Script terminated\r\nWall time ', 'Script running with cell ID 3', `Script failed\n${'Wall time '.repeat(2000)}`, ' '.repeat(100_000) + 'Script failed');
	const content = fc.array(fc.oneof(weird, fc.record({type: orText(fc.constantFrom('input_text', 'output_text', 'input_image')), text: orText(fc.constantFrom('<image name=[Image #1]>', '<image>', '</image>', 'hi', `<image name=${'x'.repeat(50_000)}`)), image_url: weird})), {maxLength: 6});
	const record = fc.oneof(
		fc.record({type: fc.constantFrom('function_call_output', 'custom_tool_call_output', 'mcp_tool_call_output'), call_id: weird, output: fc.oneof(weird, script, content, fc.record({content: fc.oneof(script, content, weird), success: weird}))}).map(value => ({type: 'response_item', payload: value})),
		fc.record({type: fc.constant('message'), role: orText(fc.constantFrom('user', 'assistant', 'developer')), content: fc.oneof(content, weird)}).map(value => ({type: 'response_item', payload: value})),
		fc.record({type: fc.constant('task_started'), turn_id: orText(fc.constantFrom('0195a1c2-0b00-7b00-8b00-00000000000b', 'turn-1', '')), started_at: weird}).map(value => ({type: 'event_msg', payload: value})),
		fc.record({turn_id: orText(fc.constantFrom('0195a1c2-0b00-7b00-8b00-00000000000b', 'turn-1', '')), cwd: weird, model: weird}).map(value => ({type: 'turn_context', payload: value})),
		fc.record({type: fc.constantFrom('user_message', 'agent_message', 'exec_command_end'), message: weird, images: weird, local_images: weird, exit_code: weird, call_id: weird, aggregated_output: weird}).map(value => ({type: 'event_msg', payload: value})),
	);
	// Warmed up first: a first read loads the adapter's lazy parts, which no time bound is about.
	codexAdapter.normalizeLine({timestamp: '2026-11-21T14:00:01.000Z', type: 'response_item', payload: {type: 'function_call_output', call_id: 'c', output: 'Script failed\nWall time 1'}}, 1, {}, unit);
	fc.assert(
		fc.property(fc.array(fc.tuple(record, weird), {minLength: 1, maxLength: 8}), fc.boolean(), (records, forked) => {
			const state: LineState = {};
			let line = 1;
			for (const each of forked ? meta : []) {
				codexAdapter.normalizeLine(each, line++, state, unit);
			}

			for (const [each, ordinal] of records) {
				const value = JSON.parse(JSON.stringify({timestamp: '2026-11-21T14:00:01.000Z', ...each, ordinal})) as unknown;
				const started = performance.now();
				codexAdapter.normalizeLine(value, line++, state, unit);
				assert.ok(performance.now() - started < 500);
			}
		}),
		{seed, numRuns: 300},
	);
});

test('copilot workspace.yaml: odd scalars (quotes, multiline, huge, runs of blanks) never throw and take linear time', t => {
	const directory = tempDir(t);
	const scalar = fc.oneof(
		fc.string({maxLength: 40}),
		fc.constantFrom("'it''s'", '"a \\"quoted\\" name"', '"\\u0000\\ud800"', '"unterminated', "'", '"', '|\n  block\n  text', '>-\n  folded', '&anchor *alias', '~', 'null', '[a, b]', '{a: b}'),
		fc.tuple(fc.constantFrom(' ', '\t', ' \t', 'x '), fc.integer({min: 100, max: 8000}), fc.constantFrom('', 'b', '\r', '#')).map(([unit, count, end]) => `a${unit.repeat(count)}${end}`),
	);
	const yaml = fc.array(fc.tuple(fc.constantFrom('name', 'summary', 'cwd', 'other', ' name', 'name ', 'NAME'), fc.constantFrom(':', ': ', ':\t', ' :'), scalar), {maxLength: 6}).map(lines => lines.map(([key, colon, value]) => `${key}${colon}${value}`).join('\n'));
	const path = join(directory, 'workspace.yaml');
	writeFileSync(path, 'name: warm-up\n');
	workspaceName(path);
	fc.assert(
		fc.property(yaml, text => {
			writeFileSync(path, text);
			const started = performance.now();
			const name = workspaceName(path);
			const cwd = workspaceCwd(path);
			assert.ok(performance.now() - started < 50, `${Math.round(performance.now() - started)} ms`);
			for (const value of [name, cwd]) {
				assert.ok(value === undefined || (typeof value === 'string' && value.trim() === value && value !== ''), String(value));
			}
		}),
		{seed, numRuns: 200},
	);
});

test('cursor .workspace-trusted: odd JSON never throws, and only an absolute workspacePath names the project', t => {
	const directory = tempDir(t);
	const slug = join(directory, 'projects', 'no-such-slug');
	const transcript = join(slug, 'agent-transcripts', 'a.jsonl');
	mkdirSync(join(slug, 'agent-transcripts'), {recursive: true});
	writeFileSync(transcript, `${JSON.stringify({role: 'user', message: {content: [{type: 'text', text: 'hello'}]}})}\n`);
	const trusted = fc.oneof(
		fc.record({trustedAt: weird, workspacePath: orText(fc.constantFrom('/home/ada/shop', 'relative/path', 'C:\\Users\\ada', '', '/')), trustMethod: weird}).map(value => JSON.stringify(value)),
		fc.constantFrom('', '{', '{"workspacePath": "/home/ada', 'null', '[]', '"\\/home"', '\0\0\0', '{"workspacePath": "/a"}{"workspacePath": "/b"}', `${'['.repeat(100_000)}`, `{"workspacePath": "/${'x'.repeat(2_000_000)}"}`),
		weird.map(value => JSON.stringify(value) ?? ''),
	);
	fc.assert(
		fc.property(trusted, text => {
			writeFileSync(join(slug, '.workspace-trusted'), text);
			const read = readAllRows(cursorAdapter, looseUnit(transcript));
			const cwd = read.rows.flatMap(row => row.events).find(event => event.kind === 'meta' && event.session?.cwd)?.session?.cwd;
			assert.ok(cwd === undefined || /^(?:\/|[A-Za-z]:[\\/])/.test(cwd), cwd);
		}),
		{seed, numRuns: 80},
	);
});

test('gemini retirement: chats named anything, files holding anything, never throw', t => {
	const directory = tempDir(t);
	let run = 0;
	const name = fc.oneof(fc.constantFrom('session-2026-11-01T10-00-abcd1234.json', 'session-2026-11-01T10-00-abcd1234.jsonl', 'session-x.jsonl', '.json', '-.json', 'a-b-c.json.jsonl', 'notes.txt'), fc.string({minLength: 1, maxLength: 20}).filter(text => /^[\w.-]+$/.test(text) && text !== '.' && text !== '..'));
	const body = fc.constantFrom('', '{"sessionId": "abcd1234"}', '{"sessionId": "abcd1234"}\n{"type": "user"}\n', '\0\0', '\n\n\n');
	fc.assert(
		fc.property(name, fc.array(fc.tuple(name, body), {maxLength: 5}), fc.constantFrom('abcd1234', 'chats', 'logs', 'x', '__proto__'), (main, others, id) => {
			const project = join(directory, String(run++));
			const chats = join(project, 'chats');
			mkdirSync(join(project, 'logs'), {recursive: true});
			mkdirSync(chats, {recursive: true});
			for (const [other, text] of others) {
				writeFileSync(join(chats, other), text);
			}

			writeFileSync(join(chats, main), '{}\n');
			writeFileSync(join(project, 'logs', `session-${id}.jsonl`), '{}\n');
			const retirement = geminiRetirement(looseUnit(join(chats, main)), directory, id);
			for (const path of [...retirement.directories, ...(retirement.files ?? [])]) {
				assert.ok(path.startsWith(project), path);
			}
		}),
		{seed, numRuns: 80},
	);
});

test('prompt attachments: Copilot attachments, VS Code variableData, Grok prompt chunks and Cursor image blocks with wrong types in every field never throw, and no payload or misused media type reaches the text', t => {
	const directory = tempDir(t);
	const mimeType = fc.oneof(weird, fc.constantFrom('image/png', 'application/pdf', 'image/png\n[file]', `image/${'x'.repeat(500)}`, 'text/plain; charset=utf-8'));
	const copilotAttachment = fc.oneof(weird, fc.record({type: orText(fc.constantFrom('blob', 'file', 'selection', 'directory')), mimeType, data: fc.constant(payload), assetId: orText(fc.constantFrom('sha256:ab', '')), path: weird, displayName: weird}));
	const copilotLine = fc.record({content: orText(fc.constantFrom('Look at this', '', '  ')), attachments: fc.oneof(weird, fc.array(copilotAttachment, {maxLength: 4}))}).map(data => ({type: 'user.message', id: 'u1', timestamp: '2026-12-01T10:00:00.000Z', data}));
	const vscodeEntry = fc.oneof(weird, fc.record({kind: orText(fc.constantFrom('image', 'file')), isImage: weird, mimeType, value: fc.constant(payload), name: weird}));
	const vscodeRequest = fc.record({requestId: orText(fc.constant('r1')), message: fc.oneof(weird, fc.record({text: orText(fc.constantFrom('Why?', ''))})), variableData: fc.oneof(weird, fc.record({variables: fc.oneof(weird, fc.array(vscodeEntry, {maxLength: 4}))})), response: weird});
	const grokChunk = fc.record({sessionUpdate: fc.constantFrom('user_message_chunk', 'agent_message_chunk'), content: fc.oneof(weird, fc.record({type: orText(fc.constantFrom('image', 'text', 'audio', 'resource')), data: fc.constant(payload), mimeType, text: weird})), _meta: fc.oneof(weird, fc.record({promptIndex: weird}))});
	const cursorText = fc.array(fc.constantFrom('[Image]\n', '<image_files>\n1. /home/dev/.cursor/projects/p/assets/image-1.png\n</image_files>\n', '<image_files>\n', '</image_files>\n', '<user_query>\nWhat now?\n</user_query>', '<user_query>', '</user_query>', '<timestamp>Monday, Dec 7, 2026, 9:00 AM (UTC)</timestamp>\n', '2. x\n', 'typed words\n'), {maxLength: 8}).map(pieces => pieces.join(''));
	const vscodeAdapter = adapters.vscode as DocumentAdapter;
	const copilotUnit = looseUnit(join('test/fixtures/format-cases/copilot/session-state/0d6e8f1a-2b3c-4d5e-8f60-718293a4b5c6/events.jsonl'));
	const cursorUnit = looseUnit('test/fixtures/format-cases/cursor/projects/home-dev-mosaic/agent-transcripts/d7e9f1a3-5b6c-4d8e-9f01-2a3b4c5d6e44/d7e9f1a3-5b6c-4d8e-9f01-2a3b4c5d6e44.jsonl');
	const wellFormed = /^\[(?:image|file|audio|video)(?:: [\w!#$&^.+/-]+)?\]$/;
	let run = 0;
	fc.assert(
		fc.property(copilotLine, fc.array(vscodeRequest, {minLength: 1, maxLength: 3}), fc.array(grokChunk, {maxLength: 5}), cursorText, (copilot, requests, chunks, cursor) => {
			const copilotEvents = copilotAdapter.normalizeLine(JSON.parse(JSON.stringify(copilot)), 1, {}, copilotUnit);
			const document = join(directory, `chat-${run++}.json`);
			writeFileSync(document, JSON.stringify({version: 3, sessionId: 's', creationDate: 1, requests}));
			const vscodeEvents = readUnit(vscodeAdapter, looseUnit(document, {idHint: 's'})).events;
			const updates = createUpdatesReducer();
			for (const [index, update] of chunks.entries()) {
				updates.add(JSON.parse(JSON.stringify({method: 'session/update', params: {sessionId: 'g', update}})), index + 1);
			}

			const grokEvents = updates.finish().flatMap(row => row.events);
			const cursorEvents = cursorAdapter.normalizeLine({role: 'user', message: {content: [{type: 'text', text: cursor}]}}, 1, {}, cursorUnit);
			const all = JSON.stringify([copilotEvents, vscodeEvents, grokEvents, cursorEvents]);
			assert.doesNotMatch(all, new RegExp(payload));
			assert.doesNotMatch(all, /xxxxxxxxxx/, 'a media type too long to be one is not copied');
			for (const event of [...(Array.isArray(copilotEvents) ? copilotEvents : []), ...vscodeEvents, ...(Array.isArray(cursorEvents) ? cursorEvents : [])]) {
				const notes = event.kind === 'user' ? (event.text ?? '').split('\n').filter(line => /^\[(?:image|file|audio|video)\b/.test(line)) : [];
				assert.ok(notes.every(line => wellFormed.test(line)), `notes are whole lines of a kind and a media type: ${JSON.stringify(notes)}`);
			}
		}),
		{seed, numRuns: 300},
	);
});
