// Property-based fuzzing of every adapter's parser (fast-check, seeded, bounded in time): lines
// of the project's own fixture stores are mutated (truncated, wrong types, unknown record
// types, invalid UTF-8, NUL bytes, deep nesting, enormous strings) and the session read again.
// Nothing may escape but a typed SessionCorruptError; malformed lines are skipped and counted;
// every line the mutations left alone is still read; no warning or error repeats content.
import assert from 'node:assert/strict';
import {cpSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import {adapters} from '../../source/adapters/index.js';
import {readAllRows} from '../../source/adapters/rows.js';
import {SessionCorruptError, type DiscoveredUnit, type LoadedSession, type SourceAdapter, wholeUnit} from '../../source/adapters/types.js';
import {fixtureStores} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const canary = 'FUZZ-CANARY-5d1e';
const seed = 20_261_201;
const timeLimitMs = 4000;

type Mutation =
	| {kind: 'truncate'; at: number}
	| {kind: 'wrong_type'; key: number; value: unknown}
	| {kind: 'unknown_type'}
	| {kind: 'nul'; at: number}
	| {kind: 'invalid_utf8'; at: number}
	| {kind: 'deep_nesting'; depth: number}
	| {kind: 'enormous'; length: number}
	| {kind: 'not_an_object'; value: unknown};

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
	fc.record({kind: fc.constant('truncate' as const), at: fc.double({min: 0.01, max: 0.99, noNaN: true})}),
	fc.record({kind: fc.constant('wrong_type' as const), key: fc.nat(), value: fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant(canary), fc.constant([[canary]]), fc.constant({text: 7}))}),
	fc.record({kind: fc.constant('unknown_type' as const)}),
	fc.record({kind: fc.constant('nul' as const), at: fc.double({min: 0, max: 1, noNaN: true})}),
	fc.record({kind: fc.constant('invalid_utf8' as const), at: fc.double({min: 0, max: 1, noNaN: true})}),
	fc.record({kind: fc.constant('deep_nesting' as const), depth: fc.integer({min: 100, max: 20_000})}),
	fc.record({kind: fc.constant('enormous' as const), length: fc.integer({min: 10_000, max: 1_500_000})}),
	fc.record({kind: fc.constant('not_an_object' as const), value: fc.oneof(fc.constant(null), fc.integer(), fc.constant(canary), fc.constant([1, 2]))}),
);

/** The line with one mutation applied; `malformed` when it can no longer parse as JSON at all. */
function mutate(line: string, change: Mutation): {bytes: Buffer; malformed: boolean} {
	let record: unknown;
	try {
		record = JSON.parse(line);
	} catch {
		record = undefined;
	}

	const object = record !== null && typeof record === 'object' && !Array.isArray(record) ? (record as Record<string, unknown>) : undefined;
	const keys = object ? Object.keys(object) : [];
	switch (change.kind) {
		case 'truncate': {
			return {bytes: Buffer.from(line.slice(0, Math.max(1, Math.floor(line.length * change.at)))), malformed: object !== undefined};
		}

		case 'wrong_type': {
			if (!object || keys.length === 0) {
				break;
			}

			return {bytes: Buffer.from(JSON.stringify({...object, [keys[change.key % keys.length]!]: change.value})), malformed: false};
		}

		case 'unknown_type': {
			return {bytes: Buffer.from(JSON.stringify({...object, type: `fuzz_${canary}`, role: `fuzz_${canary}`, kind: 9})), malformed: false};
		}

		case 'nul':
		case 'invalid_utf8': {
			const bytes = Buffer.from(line);
			const at = Math.floor(bytes.length * change.at);
			const inserted = change.kind === 'nul' ? Buffer.from([0]) : Buffer.from([0xff, 0xfe, 0xc3]);
			return {bytes: Buffer.concat([bytes.subarray(0, at), inserted, bytes.subarray(at)]), malformed: false};
		}

		case 'deep_nesting': {
			if (!object || keys.length === 0) {
				break;
			}

			const nested = `${'['.repeat(change.depth)}"${canary}"${']'.repeat(change.depth)}`;
			return {bytes: Buffer.from(JSON.stringify({...object, [keys.at(-1)!]: '\u0001'}).replace('"\\u0001"', nested)), malformed: false};
		}

		case 'enormous': {
			if (!object || keys.length === 0) {
				break;
			}

			return {bytes: Buffer.from(JSON.stringify({...object, [keys[0]!]: `${canary} ${'x'.repeat(change.length)}`})), malformed: false};
		}

		case 'not_an_object': {
			return {bytes: Buffer.from(JSON.stringify(change.value)), malformed: false};
		}
	}

	return {bytes: Buffer.from(line), malformed: false};
}

/** A session read as the catalog and views read it; a typed refusal is an allowed outcome. */
function readSession(adapter: SourceAdapter, unit: DiscoveredUnit): LoadedSession | SessionCorruptError {
	try {
		return readAllRows(adapter, unit);
	} catch (error) {
		if (error instanceof SessionCorruptError) {
			return error;
		}

		throw error;
	}
}

function assertNoContent(texts: readonly string[], where: string): void {
	for (const text of texts) {
		assert.ok(!text.includes(canary), `${where}: a message repeats content: ${text.slice(0, 200)}`);
	}
}

/** A copy of the adapter's fixture store, and its units (each with a text file to mutate). */
function fixtureUnits(adapter: SourceAdapter, directory: string): DiscoveredUnit[] {
	cpSync(join(fixtureStores, adapter.id), directory, {recursive: true});
	return (storeRoots[adapter.id] ?? ['']).flatMap(root => adapter.resolveRoot(join(directory, root))).flatMap(root => adapter.discover(root).map(wholeUnit));
}

/** Where a fixture store's roots are, when not at its top (laid out as under a HOME). */
const storeRoots: Partial<Record<string, string[]>> = {vscode: ['Code', 'Code - Insiders'], antigravity: ['.gemini']};

for (const adapter of Object.values(adapters).filter(adapter => adapter.format !== 'database')) {
	test(`fuzz: ${adapter.id} reads mutated native lines without an exception, counting what it skips`, t => {
		const units = fixtureUnits(adapter, tempDir(t));
		const files = units.flatMap(unit => unit.paths.filter(path => /\.jsonl?$/.test(path)).map(path => ({unit, path, original: readFileSync(path)})));
		assert.ok(files.length > 0, `${adapter.id}: no fixture file to mutate`);
		fc.assert(
			fc.property(fc.nat(), fc.array(fc.tuple(fc.nat(), mutation), {minLength: 1, maxLength: 6}), (pick, changes) => {
				const {unit, path, original} = files[pick % files.length]!;
				writeFileSync(path, original);
				const before = readSession(adapter, unit);
				const lines = original.toString('utf8').split('\n');
				const mutated = new Map<number, {bytes: Buffer; malformed: boolean}>();
				for (const [index, change] of changes) {
					const at = index % lines.length;
					if (lines[at]!.trim() !== '') {
						mutated.set(at, mutate(lines[at]!, change));
					}
				}

				writeFileSync(path, Buffer.concat(lines.flatMap((line, index) => [mutated.get(index)?.bytes ?? Buffer.from(line), Buffer.from(index < lines.length - 1 ? '\n' : '')])));
				const after = readSession(adapter, unit);
				writeFileSync(path, original);
				if (after instanceof SessionCorruptError) {
					assertNoContent([after.message], `${adapter.id} ${path}`);
					return;
				}

				assertNoContent(after.warnings, `${adapter.id} ${path}`);
				if (adapter.format === 'jsonl' && path === unit.path && !(before instanceof SessionCorruptError)) {
					// Each transcript line cut short is skipped and counted (a sidecar file is no
					// line of the transcript); every line left alone is still read.
					const malformed = [...mutated.values()].filter(change => change.malformed).length;
					assert.ok(after.skipped >= malformed, `${adapter.id}: ${malformed} malformed lines, ${after.skipped} skipped`);
					const touched = new Set([...mutated.keys()].map(index => index + 1));
					const read = new Set(after.rows.map(row => row.line));
					for (const row of before.rows) {
						if (!touched.has(row.line)) {
							assert.ok(read.has(row.line), `${adapter.id} ${path}: line ${row.line}, left alone, was no longer read`);
						}
					}
				}
			}),
			{seed, numRuns: 150, interruptAfterTimeLimit: timeLimitMs, ...(process.env["FUZZ_PATH"] ? {path: process.env["FUZZ_PATH"]} : {})},
		);
	});
}

test('fuzz: opencode reads mutated message and part records of its database without an exception', t => {
	const adapter = adapters.opencode;
	const units = fixtureUnits(adapter, tempDir(t));
	const database = units[0]?.path;
	assert.ok(database, 'opencode: no fixture database');
	// Changes go straight to the file (no WAL): the adapter opens the database as it stands.
	const db = new Database(database);
	db.pragma('journal_mode = DELETE');
	t.after(() => db.close());
	const rows = db.prepare("SELECT 'message' AS tab, id, data FROM message UNION ALL SELECT 'part', id, data FROM part").all() as Array<{tab: string; id: string; data: string}>;
	fc.assert(
		fc.property(fc.nat(), fc.nat(), mutation, (pickUnit, pickRow, change) => {
			const row = rows[pickRow % rows.length]!;
			const update = db.prepare(`UPDATE ${row.tab} SET data = ? WHERE id = ?`);
			update.run(mutate(row.data, change).bytes.toString('utf8'), row.id);
			try {
				const after = readSession(adapter, units[pickUnit % units.length]!);
				assertNoContent(after instanceof SessionCorruptError ? [after.message] : after.warnings, `opencode ${row.tab} ${row.id}`);
			} finally {
				update.run(row.data, row.id);
			}
		}),
		{seed, numRuns: 150, interruptAfterTimeLimit: timeLimitMs, ...(process.env["FUZZ_PATH"] ? {path: process.env["FUZZ_PATH"]} : {})},
	);
});

/** The document units (discovery's `variant`) of a JSONL store's format-case fixtures, copied. */
function documentUnits(adapter: SourceAdapter, fixtures: string, directory: string): DiscoveredUnit[] {
	cpSync(join(formatCases, fixtures), directory, {recursive: true});
	return adapter
		.resolveRoot(directory)
		.flatMap(root => adapter.discover(root).map(wholeUnit))
		.filter(unit => adapter.format === 'jsonl' && unit.variant !== undefined && unit.variant === adapter.documents?.variant);
}

const formatCases = join(fixtureStores, '..', 'format-cases');

/** Read whole, a document's rows still come in line order; anything else is what readSession allows. */
function assertDocumentRead(after: LoadedSession | SessionCorruptError, where: string): void {
	if (after instanceof SessionCorruptError) {
		assertNoContent([after.message], where);
		return;
	}

	assertNoContent(after.warnings, where);
	after.rows.forEach((row, index) => {
		assert.ok(index === 0 || row.line >= after.rows[index - 1]!.line, `${where}: rows out of line order`);
	});
}

test('fuzz: codex reads mutated items of a JSON rollout (one document) without an exception', t => {
	const adapter = adapters.codex;
	const units = documentUnits(adapter, 'codex', tempDir(t));
	assert.equal(units.length, 1, 'codex: the JSON rollout fixture is discovered as a document');
	const unit = units[0]!;
	const original = readFileSync(unit.path);
	const document = JSON.parse(original.toString('utf8')) as {session: unknown; items: unknown[]};
	fc.assert(
		fc.property(fc.array(fc.tuple(fc.nat(), mutation), {minLength: 1, maxLength: 6}), changes => {
			// One change per item, each to the item as it was (as the line fuzzing above does).
			const items: Buffer[] = document.items.map(item => Buffer.from(JSON.stringify(item)));
			for (const [index, change] of changes) {
				const at = index % items.length;
				items[at] = mutate(JSON.stringify(document.items[at]), change).bytes;
			}

			const parts = [Buffer.from(`{"session":${JSON.stringify(document.session)},"items":[`), ...items.flatMap((item, index) => (index === 0 ? [item] : [Buffer.from(','), item])), Buffer.from(']}')];
			writeFileSync(unit.path, Buffer.concat(parts));
			try {
				assertDocumentRead(readSession(adapter, unit), `codex ${unit.path}`);
			} finally {
				writeFileSync(unit.path, original);
			}
		}),
		{seed, numRuns: 150, interruptAfterTimeLimit: timeLimitMs, ...(process.env["FUZZ_PATH"] ? {path: process.env["FUZZ_PATH"]} : {})},
	);
});

/** Lines a plain-text Cursor transcript could hold in the wrong place, or never should. */
const textLine: fc.Arbitrary<string> = fc.oneof(
	fc.constantFrom('', 'user:', 'assistant:', 'A:', '[Thinking]', '[Tool call]', '[Tool result]', '<user_query>', '</user_query>', `[Tool call] ${canary}`, `  path: ${canary}`, '\u0000', '\ufeffuser:'),
	fc.integer({min: 10_000, max: 1_500_000}).map(length => `${canary} ${'x'.repeat(length)}`),
	fc.string({unit: 'binary', maxLength: 40}),
);

test('fuzz: cursor reads mutated plain-text transcripts (one document) without an exception', t => {
	const adapter = adapters.cursor;
	const units = documentUnits(adapter, 'cursor', tempDir(t));
	assert.ok(units.length > 0, 'cursor: a .txt transcript fixture is discovered as a document');
	fc.assert(
		fc.property(fc.nat(), fc.array(fc.tuple(fc.nat(), fc.constantFrom('replace', 'insert', 'delete'), textLine), {minLength: 1, maxLength: 8}), (pick, changes) => {
			const unit = units[pick % units.length]!;
			const original = readFileSync(unit.path);
			const lines = original.toString('utf8').split('\n');
			for (const [index, how, line] of changes) {
				const at = index % (lines.length + 1);
				if (how === 'insert') {
					lines.splice(at, 0, line);
				} else if (how === 'replace' && at < lines.length) {
					lines[at] = line;
				} else if (at < lines.length) {
					lines.splice(at, 1);
				}
			}

			writeFileSync(unit.path, lines.join('\n'));
			try {
				assertDocumentRead(readSession(adapter, unit), `cursor ${unit.path}`);
			} finally {
				writeFileSync(unit.path, original);
			}
		}),
		{seed, numRuns: 150, interruptAfterTimeLimit: timeLimitMs, ...(process.env["FUZZ_PATH"] ? {path: process.env["FUZZ_PATH"]} : {})},
	);
});

test('a record field that is an object whose own toString is no function ({"toString": 1}) never throws out of a Qwen telemetry record or a Grok raw_output item', async () => {
	const {systemEvents} = await import('../../source/adapters/qwen/system.js');
	const {normalizeChatLine} = await import('../../source/adapters/grok/chat.js');
	const hostile = JSON.parse('{"toString": 1}') as unknown;
	const base = {line: 1};
	const telemetry = {type: 'system', subtype: 'ui_telemetry', systemPayload: {uiEvent: {'event.name': hostile, error_message: 'quota'}}};
	assert.deepEqual(systemEvents(telemetry as never, base as never), []);
	const failed = {type: 'system', subtype: 'ui_telemetry', systemPayload: {uiEvent: {'event.name': 'qwen-code.api_error', error_message: 'quota'}}};
	assert.equal(systemEvents(failed as never, base as never)[0]?.error !== undefined, true, 'a real api_error still reads');
	const events = normalizeChatLine({type: 'assistant', content: 'done', raw_output: [{type: hostile, id: 'x'}]}, 1);
	assert.ok(Array.isArray(events));
	assert.deepEqual(events!.filter(event => event.kind === 'assistant').map(event => event.text), ['done']);
});
