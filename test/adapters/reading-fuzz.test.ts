// Fuzzing of the line reading added for damaged and compressed stores (fast-check, seeded,
// bounded in time): `.zst` files with flipped bytes and cut short, JSONL with records split by
// raw newlines, held records that never end, torn lines with many `{"` starts. Nothing may
// escape but the typed errors the code documents, every line is read or counted as skipped,
// and nothing costs more than a small multiple of its input.
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import fc from 'fast-check';
import {commandItemRole, legacyEventsOf} from '../../source/adapters/codex/thread-items.js';
import {cursorSentAt, normalizeCursorLine} from '../../source/adapters/cursor/normalize.js';
import {parseJsonLine, tornLineTail} from '../../source/adapters/shared/json-line.js';
import {streamJsonValues} from '../../source/adapters/shared/json-lines.js';
import {forEachLine} from '../../source/lib/lines.js';
import {CompressedFileError, createFrameWalk} from '../../source/lib/zstd-lines.js';
import {tempDir} from '../helpers/temp.js';

const seed = 20_261_206;

const zstdFixtures = [
	'test/fixtures/zstd/lines.txt.zst',
	'test/fixtures/zstd/multi.txt.zst',
	'test/fixtures/zstd/corrupt.txt.zst',
	'test/fixtures/format-cases/codex/compressed/sessions/2026/11/20/rollout-2026-11-20T08-00-00-019a8f10-2b00-7c00-8d00-0000000000e1.jsonl.zst',
	'test/fixtures/format-cases/codex/compressed/sessions/2026/11/20/rollout-2026-11-20T09-00-00-019a8f11-4c00-7c00-8d00-0000000000e2.jsonl.zst',
];

/** Every line of a `.zst` file, or the typed error; anything else thrown fails the test. */
function readCompressed(path: string): {lines: number; error?: CompressedFileError} {
	let lines = 0;
	try {
		forEachLine(path, () => {
			lines++;
		}, {maxLineBytes: 1024 * 1024});
		return {lines};
	} catch (error) {
		assert.ok(error instanceof CompressedFileError, `not the typed error: ${String(error)}`);
		assert.equal(error.code, 'ZSTD_UNREADABLE');
		return {lines, error};
	}
}

test('a .zst file with flipped bytes or cut short reads or fails with ZSTD_UNREADABLE, quickly and in bounded memory', t => {
	const directory = tempDir(t);
	const originals = zstdFixtures.map(path => readFileSync(path));
	const flip = fc.record({at: fc.double({min: 0, max: 1, noNaN: true, maxExcluded: true}), xor: fc.integer({min: 1, max: 255})});
	fc.assert(
		fc.property(fc.nat({max: originals.length - 1}), fc.array(flip, {minLength: 0, maxLength: 4}), fc.option(fc.double({min: 0, max: 1, noNaN: true})), (which, flips, cut) => {
			const bytes = Buffer.from(originals[which]!);
			for (const {at, xor} of flips) {
				const index = Math.floor(at * bytes.length);
				bytes[index] = bytes[index]! ^ xor;
			}

			const path = join(directory, 'fuzz.jsonl.zst');
			writeFileSync(path, cut === null ? bytes : bytes.subarray(0, Math.floor(cut * bytes.length)));
			const started = performance.now();
			readCompressed(path);
			assert.ok(performance.now() - started < 2000, 'a damaged 30 KB file took seconds');
			assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024, 'a damaged 30 KB file took hundreds of megabytes');
		}),
		{seed, numRuns: 150},
	);
});

test('a frame header whose content size was damaged to gigabytes is ZSTD_UNREADABLE, not 2 GB of memory', t => {
	// lines.txt.zst is one single-segment frame: bytes 5-8 hold its content size.
	const bytes = Buffer.from(readFileSync('test/fixtures/zstd/lines.txt.zst'));
	bytes[8] = 0x70;
	const path = join(tempDir(t), 'damaged.txt.zst');
	writeFileSync(path, bytes);
	const started = performance.now();
	const read = readCompressed(path);
	assert.ok(read.error, 'the damaged header was read');
	assert.ok(performance.now() - started < 1000);
	assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024);
});

test('a later frame whose header asks for a gigabyte window is ZSTD_UNREADABLE too, not a gigabyte of memory', t => {
	// A .zst file may hold several frames, each with its own header. A valid rollout, then a
	// second frame with no content size whose window descriptor (exponent 20) asks for 2^30 bytes,
	// holding one raw block of five bytes.
	const first = readFileSync(zstdFixtures[3]!);
	const second = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 20 << 3, (5 << 3) | 1, 0x00, 0x00, ...Buffer.from('{}\n{}')]);
	const path = join(tempDir(t), 'two-frames.jsonl.zst');
	writeFileSync(path, Buffer.concat([first, second]));
	const started = performance.now();
	const read = readCompressed(path);
	assert.ok(read.error, 'the second frame was decoded with its gigabyte window');
	assert.ok(read.error.message.includes('window'), read.error.message);
	assert.ok(performance.now() - started < 1000);
	assert.ok(process.memoryUsage().arrayBuffers < 512 * 1024 * 1024);
	// Read in pieces of any size (a header or a block split between reads), the walk sees that header.
	const bytes = readFileSync(path);
	for (const piece of [1, 2, 3, 7, 100]) {
		const walk = createFrameWalk();
		let largest = 0;
		for (let at = 0; at < bytes.length; at += piece) {
			largest = Math.max(largest, walk(bytes.subarray(at, at + piece)));
		}

		assert.equal(largest, 2 ** 30, `in pieces of ${piece}`);
	}
});

/** Reads a JSONL file through streamJsonValues: values by line, skips by line and reason. */
function readStream(path: string): {values: Map<number, unknown[]>; skips: Map<number, string>; ms: number} {
	const values = new Map<number, unknown[]>();
	const skips = new Map<number, string>();
	const started = performance.now();
	streamJsonValues(path, {
		value(value, line) {
			values.set(line, [...(values.get(line) ?? []), value]);
		},
		skip(line, reason) {
			assert.ok(!skips.has(line), `line ${line} skipped twice`);
			skips.set(line, reason);
		},
	});
	return {values, skips, ms: performance.now() - started};
}

type Piece = {kind: 'record'; value: Record<string, unknown>} | {kind: 'split'; parts: string[]} | {kind: 'garbage'; text: string} | {kind: 'blank'};

/** Plain JSON (fast-check's dictionaries have no prototype). */
const recordValue = fc.dictionary(fc.string({maxLength: 8}), fc.oneof(fc.string({maxLength: 30}), fc.integer(), fc.boolean(), fc.constant(null)), {minKeys: 1, maxKeys: 4}).map(value => JSON.parse(JSON.stringify(value)) as Record<string, unknown>);
// A continuation line that is a record alone (`{}`) ends the record early: real text seldom is.
// One that is a bare value (`0`, `"a"`) is joined, as a pretty-printed array's last item is.
const linePart = fc.string({minLength: 1, maxLength: 20}).filter(text => !/[\n\r]/.test(text) && !isJsonObject(JSON.stringify(text).slice(1, -1)));
const piece: fc.Arbitrary<Piece> = fc.oneof(
	{weight: 4, arbitrary: recordValue.map(value => ({kind: 'record' as const, value}))},
	{weight: 2, arbitrary: fc.record({kind: fc.constant('split' as const), parts: fc.array(linePart, {minLength: 2, maxLength: 5})})},
	{
		weight: 2,
		arbitrary: fc
			.oneof(fc.constant('{'), fc.constant('{"'), fc.constant('{"a":"never ends'), fc.constant('{"a":1}}'), fc.constant('{"a":[1,2'), fc.constant('\0\0\0\0'), fc.constant('{\0"x":1}'), fc.string({maxLength: 40}).map(text => `{${text}`), fc.string({maxLength: 40}))
			.filter(text => !text.includes('\n') && !text.includes('\r') && text.trim() !== '' && !isJson(text))
			.map(text => ({kind: 'garbage' as const, text})),
	},
	{weight: 1, arbitrary: fc.constant({kind: 'blank' as const})},
);

function isJsonObject(text: string): boolean {
	return text.trimStart().startsWith('{') && isJson(text);
}

function isJson(text: string): boolean {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
}

test('records split by raw newlines, unparseable { lines and garbage: every line is read or skipped once, and whole records are read', t => {
	const directory = tempDir(t);
	fc.assert(
		fc.property(fc.array(piece, {maxLength: 30}), pieces => {
			const lines: string[] = [];
			const expected: Array<{line: number; value: unknown}> = [];
			let clean = true; // Nothing held: no unparseable line since the last record.
			for (const one of pieces) {
				if (one.kind === 'record') {
					expected.push({line: lines.length + 1, value: one.value});
					lines.push(JSON.stringify(one.value));
					clean = true;
				} else if (one.kind === 'split') {
					// A writer that put raw newlines inside a string (Copilot CLI): the record spans lines.
					if (clean) {
						expected.push({line: lines.length + 1, value: {text: one.parts.join('\n')}});
					}

					const escaped = one.parts.map(part => JSON.stringify(part).slice(1, -1));
					lines.push(`{"text":"${escaped[0]}`, ...escaped.slice(1, -1), `${escaped.at(-1)}"}`);
				} else if (one.kind === 'garbage') {
					lines.push(one.text);
					clean = false;
				} else {
					lines.push('');
				}
			}

			const path = join(directory, 'fuzz.jsonl');
			writeFileSync(path, lines.map(line => `${line}\n`).join(''));
			const read = readStream(path);
			for (const [line] of read.values) {
				assert.ok(!read.skips.has(line), `line ${line} both read and skipped`);
			}

			// Every unparseable line is counted as skipped (a split record's later lines are its own).
			const garbageLines = lines.flatMap((line, index) => (line.trim() !== '' && !isJson(line) && !read.values.has(index + 1) ? [index + 1] : []));
			const joinedLines = new Set(expected.flatMap(({line}) => (read.values.has(line) ? [] : [line])));
			assert.deepEqual(joinedLines, new Set(), 'a whole record was lost');
			for (const line of garbageLines) {
				assert.ok(read.skips.has(line) || pieces.some(one => one.kind === 'split'), `line ${line} neither read nor skipped`);
			}

			// A whole record on its own line is read at its line, whatever was held before it.
			for (const {line, value} of expected) {
				assert.deepEqual(read.values.get(line)?.at(-1), value, `record at line ${line} was not read`);
			}
		}),
		{seed, numRuns: 300},
	);
});

test('a held record that never ends costs a small multiple of reading the file, not 64 times its size', t => {
	const directory = tempDir(t);
	const path = join(directory, 'never-ends.jsonl');
	const lines = 160;
	writeFileSync(path, `{"x":"${'a'.repeat(128 * 1024)}\n`.repeat(lines));
	const read = readStream(path);
	assert.equal(read.skips.size, lines);
	assert.equal(read.values.size, 0);
	assert.ok(read.ms < 3000, `${read.ms} ms for ${lines} lines of 128 KB`);
	// 20 000 short ones: each is held, joined and released in turn.
	writeFileSync(path, `{"x":"${'a'.repeat(100)}\n`.repeat(20_000) + '{"after":true}\n');
	const short = readStream(path);
	assert.equal(short.skips.size, 20_000);
	assert.deepEqual(short.values.get(20_001), [{after: true}]);
	assert.ok(short.ms < 3000, `${short.ms} ms for 20 000 short lines`);
});

test('a record split over more than two lines, also between values, is read at its first line', t => {
	const path = join(tempDir(t), 'split.jsonl');
	writeFileSync(path, '{"type":"a","text":"one\ntwo\nthree"}\n{"type":"b",\n"n":[1,\n2]}\n{"type":"c"}\n');
	const read = readStream(path);
	assert.deepEqual(read.values.get(1), [{type: 'a', text: 'one\ntwo\nthree'}]);
	assert.deepEqual(read.values.get(4), [{type: 'b', n: [1, 2]}]);
	assert.deepEqual(read.values.get(7), [{type: 'c'}]);
	assert.equal(read.skips.size, 0);
});

test('a record saved pretty-printed is read at its first line, whole or by a sparse read of that line; a bare value alone on a line is joined, a record alone ends what was held', t => {
	const path = join(tempDir(t), 'pretty.jsonl');
	const first = {type: 'meta', tags: ['a', 'b'], flags: [true, 3], nested: {list: [{k: 'v'}], empty: {}}};
	const second = {type: 'next', n: [1, 2]};
	writeFileSync(path, `${JSON.stringify(first, null, 2)}\n${JSON.stringify(second, null, 4)}\n{"torn":\n{"type":"whole"}\n`);
	const lineOfSecond = JSON.stringify(first, null, 2).split('\n').length + 1;
	const read = readStream(path);
	assert.deepEqual(read.values.get(1), [first]);
	assert.deepEqual(read.values.get(lineOfSecond), [second]);
	const torn = lineOfSecond + JSON.stringify(second, null, 4).split('\n').length;
	assert.equal(read.skips.get(torn), 'not valid JSON');
	assert.deepEqual(read.values.get(torn + 1), [{type: 'whole'}]);
	assert.equal(read.skips.size, 1);
	for (const line of [1, lineOfSecond]) {
		const sparse: unknown[] = [];
		streamJsonValues(path, {value: value => void sparse.push(value), skip: () => assert.fail('nothing skipped')}, {onlyLines: new Set([line])});
		assert.deepEqual(sparse, [line === 1 ? first : second], `a sparse read of line ${line}`);
	}
});

test('a 1 MB torn line with thousands of {" starts is tried in well under a second', () => {
	const lines = {
		'records in an array': `{"a":[${'{"b":1},'.repeat(120_000)}{"`,
		'torn strings': '{"a":"xx'.repeat(120_000),
		'glued torn records': '{"a":1}{"b":'.repeat(80_000),
		'a long string': `{"a":"${'x{"'.repeat(330_000)}`,
		'no start is a value': `x${'{"a'.repeat(330_000)}`,
	};
	for (const [name, line] of Object.entries(lines)) {
		const started = performance.now();
		assert.equal(parseJsonLine(line), 'not_json');
		assert.equal(tornLineTail(line), undefined);
		assert.ok(performance.now() - started < 400, `${name}: ${performance.now() - started} ms`);
	}

	// Nested 200 000 deep: V8's parser itself is slow on it (~0.2 s a try), still a bounded number of tries.
	const nested = `${'{"a":'.repeat(200_000)}{"`;
	const started = performance.now();
	assert.equal(tornLineTail(nested), undefined);
	assert.ok(performance.now() - started < 3000, `nested: ${performance.now() - started} ms`);
});

test('a torn line gives back a whole record or nothing, whatever its bytes', () => {
	const text = fc.oneof(fc.string({maxLength: 200}), fc.array(fc.constantFrom('{"', '{', '}', '"', ':', ',', '[', ']', '\\', 'a', '1', ' ', '\0'), {maxLength: 200}).map(parts => parts.join('')));
	fc.assert(
		fc.property(text, line => {
			const tail = tornLineTail(line);
			assert.ok(tail === undefined || (typeof tail === 'object' && tail !== null), 'a torn line gave a scalar');
			parseJsonLine(line);
		}),
		{seed, numRuns: 2000},
	);
});

test('cursor: odd <timestamp> text and [REDACTED] markers never throw, and a time read is a real UTC time', () => {
	const spelled = fc.oneof(
		fc.string({maxLength: 90}),
		fc
			.tuple(fc.constantFrom('Tuesday', 'X', ''), fc.constantFrom('Jan', 'Feb', 'Jul', 'Dec', 'Foo'), fc.integer({min: -1, max: 40}), fc.integer({min: 0, max: 99_999}), fc.integer({min: 0, max: 13}), fc.integer({min: 0, max: 99}), fc.constantFrom('A', 'P', 'X'), fc.constantFrom('', '+3', '-14', '+14:30', '+99', '-5:99', '+3:'))
			.map(([day, month, date, year, hour, minute, half, offset]) => `${day}, ${month} ${date}, ${year}, ${hour}:${String(minute).padStart(2, '0')} ${half}M (UTC${offset})`),
	);
	fc.assert(
		fc.property(spelled, fc.constantFrom('', '<user_query>hi</user_query>', 'plain text'), fc.constantFrom('', '[REDACTED]', ' [REDACTED]\n[REDACTED] ', '[REDACTED'), (stamp, around, redacted) => {
			const time = cursorSentAt(stamp);
			if (time !== undefined) {
				assert.ok(!Number.isNaN(Date.parse(time)), `not a time: ${time}`);
			}

			const state = {};
			const user = normalizeCursorLine({role: 'user', message: {content: [{type: 'text', text: `<timestamp>${stamp}</timestamp>${around}`}]}}, 1, state);
			const assistant = normalizeCursorLine({role: 'assistant', message: {content: `reply${redacted}`}}, 2, state);
			for (const event of [...(user ?? []), ...(assistant ?? [])]) {
				assert.ok(!(event.text ?? '').endsWith('[REDACTED]'), 'a trailing marker was shown');
			}
		}),
		{seed, numRuns: 1000},
	);
	// A year under 100 is that year, not 19xx (Date.UTC's reading); Feb 29 only in a leap year.
	assert.equal(cursorSentAt('Tuesday, Jan 1, 0050, 1:00 PM (UTC)'), '0050-01-01T13:00:00.000Z');
	assert.equal(cursorSentAt('Tuesday, Feb 29, 0004, 1:00 PM (UTC)'), '0004-02-29T13:00:00.000Z');
	assert.equal(cursorSentAt('Tuesday, Feb 29, 2026, 1:00 PM (UTC)'), undefined);
	assert.equal(cursorSentAt('Tuesday, Jul 21, 2026, 1:11 PM (UTC+3)'), '2026-07-21T10:11:00.000Z');
	// Only redaction markers: no reply at all; a marker inside a sentence stays.
	assert.deepEqual(normalizeCursorLine({role: 'assistant', message: {content: `${'[REDACTED] '.repeat(50_000)}`}}, 1, {}), []);
	assert.equal(normalizeCursorLine({role: 'assistant', message: {content: 'it said [REDACTED] here'}}, 1, {})?.[0]?.text, 'it said [REDACTED] here');
});

test('codex: thread items with wrong types never throw', () => {
	const anything = fc.oneof(fc.constant(null), fc.integer(), fc.string({maxLength: 10}), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.oneof(fc.constant(null), fc.constant(7), fc.record({type: fc.constantFrom('text', 'image', 7), text: fc.oneof(fc.string({maxLength: 10}), fc.integer())})), {maxLength: 3}));
	const item = fc.record(
		{
			type: fc.constantFrom('UserMessage', 'AgentMessage', 'CommandExecution', 'FileChange', 'McpToolCall', 'ContextCompaction', 'Plan', 7, null),
			id: fc.oneof(fc.string({maxLength: 8}), fc.integer(), fc.constantFrom('constructor', '__proto__', 'toString')),
			content: anything,
			status: fc.oneof(fc.constantFrom('completed', 'failed', 'inProgress', 'in_progress'), anything),
			exitCode: anything,
			exit_code: anything,
			aggregatedOutput: anything,
			stdout: anything,
			result: anything,
			error: anything,
			source: fc.oneof(fc.constantFrom('agent', 'user_shell', 'unifiedExecStartup'), anything),
		},
		{requiredKeys: ['type']},
	);
	fc.assert(
		fc.property(item, fc.option(fc.dictionary(fc.string({maxLength: 8}), fc.constant(true as const))), (one, calls) => {
			const events = legacyEventsOf(one as Record<string, unknown>);
			assert.ok(Array.isArray(events));
			commandItemRole(one as Record<string, unknown>, calls ?? undefined);
		}),
		{seed, numRuns: 1000},
	);
	// A command item whose id is a name every object has was taken for a call already read.
	for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
		assert.equal(commandItemRole({type: 'CommandExecution', id}, {call_1: true}), 'unseen', id);
	}

	assert.equal(commandItemRole({type: 'CommandExecution', id: 'call_1'}, {call_1: true}), 'known');
});
