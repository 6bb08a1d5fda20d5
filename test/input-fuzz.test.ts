// Property-based fuzzing (fast-check, seeded) of every input engi reads that is not an agent's
// store (those are test/adapters/fuzz.test.ts): journal lines, config files, staged notes and
// their frontmatter, wiki pages, candidate notes, evidence contracts, middleware requests, and
// the answers the catalog keeps.
// Each starts from a valid document and is mutated (truncated, hostile tokens and bytes spliced
// in, values of the wrong type, unknown keys, deep nesting, enormous strings). The reader must
// answer or refuse with a typed EngiError; nothing else may escape, and a refusal names the
// file, never its content.
import assert from 'node:assert/strict';
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import test from 'node:test';
import fc from 'fast-check';
import {loadYamlParser, parseNote} from '../source/engine/candidates/note.js';
import {loadContract} from '../source/engine/evidence/contract.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';
import {parseJournalLine} from '../source/engine/journal/parse-line.js';
import {readLocalConfig} from '../source/engine/kb/config.js';
import {loadRequest} from '../source/engine/middleware/request.js';
import {readWikiFile} from '../source/engine/upkeep/wiki-pages.js';
import {catalogMigrations} from '../source/engine/catalog/schema.js';
import {integerColumns, scopeAnswer} from '../source/engine/catalog/scope-memo.js';
import {EngiError} from '../source/lib/errors.js';
import {migrate, openDatabase} from '../source/lib/sqlite.js';
import {writeClaudeTranscript} from './helpers/claude-transcript.js';
import {makeKb} from './helpers/kb.js';
import {tempDir} from './helpers/temp.js';

const seed = Number(process.env['ENGI_PROPERTY_SEED'] ?? 20_261_201);
const canary = 'FUZZ-CANARY-77c1';
const check = <T>(property: fc.IPropertyWithHooks<T> | fc.IAsyncPropertyWithHooks<T>, runs: number) =>
	'isAsync' in property && property.isAsync()
		? fc.assert(property as fc.IAsyncPropertyWithHooks<T>, {seed, numRuns: runs, includeErrorInReport: true})
		: fc.assert(property as fc.IPropertyWithHooks<T>, {seed, numRuns: runs, includeErrorInReport: true});

/** Text an input's author, a torn write or a hostile file could hold. */
const hostile = fc.constantFrom('\u0000', '\uFFFD', '\uD800', '"', '\\', '\n', '\r\n', '---\n', '...\n', ': ', '- ', '[', '{', '}', ']', '&a ', '*a', '!!js/function ', '? ', '|\n', '>\n', '#', '\t', '<<<<<<< HEAD\n', canary, '1e999', '-0', 'null', '__proto__', '"constructor": {}');

/** One edit of a document's text. */
const textEdit = fc.oneof(
	fc.record({kind: fc.constant('truncate' as const), at: fc.double({min: 0, max: 1, noNaN: true})}),
	fc.record({kind: fc.constant('insert' as const), at: fc.double({min: 0, max: 1, noNaN: true}), text: fc.oneof(hostile, fc.string({maxLength: 8}))}),
	fc.record({kind: fc.constant('delete' as const), at: fc.double({min: 0, max: 1, noNaN: true}), length: fc.integer({min: 1, max: 40})}),
	fc.record({kind: fc.constant('enormous' as const), at: fc.double({min: 0, max: 1, noNaN: true}), length: fc.integer({min: 10_000, max: 20_000})}),
	fc.record({kind: fc.constant('nest' as const), depth: fc.integer({min: 50, max: 5000})}),
);
type TextEdit = typeof textEdit extends fc.Arbitrary<infer T> ? T : never;

function edit(text: string, change: TextEdit): string {
	const at = 'at' in change ? Math.floor(change.at * text.length) : 0;
	switch (change.kind) {
		case 'truncate': {
			return text.slice(0, at);
		}

		case 'insert': {
			return text.slice(0, at) + change.text + text.slice(at);
		}

		case 'delete': {
			return text.slice(0, at) + text.slice(at + change.length);
		}

		case 'enormous': {
			return text.slice(0, at) + 'x'.repeat(change.length) + text.slice(at);
		}

		case 'nest': {
			// In JSON a value nested far down; in YAML a flow sequence as deep.
			return text.replace(/(:\s*)/, `$1${'['.repeat(change.depth)}1${']'.repeat(change.depth)}, "k": `);
		}
	}
}

/** A valid document's JSON with one value replaced by one of the wrong type, or an unknown key added. */
const jsonEdit = fc.record({path: fc.array(fc.nat(), {minLength: 1, maxLength: 4}), value: fc.oneof(fc.constant(null), fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.constant(canary), fc.constant([[canary]]), fc.constant({note: canary}), fc.double())});

function editJson(document: unknown, change: {path: number[]; value: unknown}): unknown {
	const copy = JSON.parse(JSON.stringify(document)) as unknown;
	let node = copy as Record<string, unknown> | unknown[];
	for (const [depth, step] of change.path.entries()) {
		const keys = Object.keys(node);
		if (keys.length === 0) {
			break;
		}

		const key = keys[step % keys.length]!;
		const child = (node as Record<string, unknown>)[key];
		if (depth === change.path.length - 1 || child === null || typeof child !== 'object') {
			// An unknown key's name is the document's structure, which an error may name; its value is content.
			(node as Record<string, unknown>)[step % 3 === 0 ? `${key}_unknown` : key] = change.value;
			break;
		}

		node = child as Record<string, unknown>;
	}

	return copy;
}

/** A document as text, mutated structurally, then textually, zero or more times. */
const mutatedJson = (document: unknown) => fc.tuple(fc.option(jsonEdit, {nil: undefined}), fc.array(textEdit, {maxLength: 3})).map(([structural, edits]) => edits.reduce(edit, JSON.stringify(structural ? editJson(document, structural) : document, null, 1)));
const mutatedText = (text: string) => fc.array(textEdit, {minLength: 1, maxLength: 3}).map(edits => edits.reduce(edit, text));

/** Runs a reader: it answers, or throws an EngiError whose message holds no content of the input. */
async function typedOrFine(read: () => unknown): Promise<void> {
	try {
		await read();
	} catch (error) {
		assert.ok(error instanceof EngiError, `not a typed error: ${error instanceof Error ? error.stack : String(error)}`);
		assert.ok(!error.message.includes(canary), `the message repeats the input: ${error.message}`);
		assert.match(error.code, /^[a-z]+(?:_[a-z]+)*$/);
	}
}

test('fuzz: journal lines are classified, never thrown on', () => {
	const lines = prepareEvents(
		[
			{op: 'node.upsert', payload: {id: 'task:a', kind: 'Task', label: 'the retry loop', status: 'blocked', blockers: ['review']}},
			{op: 'edge.assert', payload: {from: 'task:a', type: 'BELONGS_TO', to: 'project:shop', provenance: 'hand'}},
			{op: 'edge.retract', payload: {from: 'task:a', type: 'BELONGS_TO', to: 'project:shop'}},
		],
		new Date('2026-11-20T10:00:00Z'),
	).map(event => JSON.parse(serializeEvent(event)) as unknown);
	check(
		fc.property(fc.constantFrom(...lines), fc.tuple(fc.option(jsonEdit, {nil: undefined}), fc.array(textEdit, {maxLength: 3})), (line, [structural, edits]) => {
			const text = edits.reduce(edit, JSON.stringify(structural ? editJson(line, structural) : line));
			const parsed = parseJournalLine(text);
			assert.ok(['event', 'blank', 'corrupt'].includes(parsed.kind));
		}),
		400,
	);
});

test('fuzz: a knowledge base\'s config file is read or refused with config_malformed', async t => {
	const directory = tempDir(t);
	const file = join(directory, 'config.json');
	const valid = {format: 'json', memory: {fact: {half_life_days: 30, ttl_days: 'none'}}, wiki: {conflict_paths: ['*.sync-conflict-*']}};
	await check(
		fc.asyncProperty(mutatedJson(valid), async text => {
			writeFileSync(file, text);
			await typedOrFine(() => readLocalConfig(file));
		}),
		300,
	);
});

test('fuzz: wiki pages and their frontmatter are read as a page, held, or invalid with file:line', async () => {
	const page = ['---', 'id: wiki:caching', 'title: Caching policy', 'kind: decision', 'status: adopted', 'tags: [perf, cache]', 'sources: [https://example.org/rfc, task:cache]', 'related:', '  - Retry budget', '---', '# Caching policy', '', 'We revalidate on read; see [[retries|the retry page]].', ''].join('\n');
	await check(
		fc.asyncProperty(mutatedText(page), async text => {
			await typedOrFine(() => {
				const file = readWikiFile('caching.md', text, ['*.sync-conflict-*']);
				assert.ok(['page', 'held', 'invalid'].includes(file.type));
			});
		}),
		200,
	);
});

test('fuzz: candidate notes parse, or are reported with a problem and their line', async t => {
	const yaml = await loadYamlParser();
	// A note as a real harvest writes it.
	const kb = makeKb(t);
	const project = join(kb.base, 'shop');
	mkdirSync(join(project, '.git'), {recursive: true});
	const id = 'c0ffee00-0000-4000-8000-0000000000f1';
	writeClaudeTranscript(kb.env['HOME']!, {id, cwd: project}, [{user: 'fix the cart total'}, {bash: 'npm test', id: 'call-1', ok: '3 passing'}, {assistant: 'Fixed; the tests pass.'}]);
	assert.equal(kb.run(['candidates', 'harvest', '--consent', '--format', 'json'], {cwd: project}).code, 0);
	const note = readFileSync(join(kb.root, '00-inbox', 'candidates', `claude-${id}.md`), 'utf8');
	await check(
		fc.asyncProperty(mutatedText(note), async text => {
			await typedOrFine(() => {
				const parsed = parseNote(text, yaml);
				if ('problem' in parsed && parsed.problem !== undefined) {
					assert.ok(parsed.problem.line === null || parsed.problem.line >= 1);
					assert.ok(!parsed.problem.message.includes(canary), parsed.problem.message);
				}
			});
		}),
		200,
	);
});

test('fuzz: evidence contracts load or are refused with a typed error', async t => {
	const directory = tempDir(t);
	const file = join(directory, 'contract.json');
	const valid = {
		version: 1,
		question: 'is the csv export streamed?',
		scope_receipt: 'receipt:1',
		scope_nodes: ['task:csv'],
		as_of: '2026-11-20T10:00:00Z',
		min_observed_utc: '2026-11-01T00:00:00Z',
		sources: {'s:1': {sha256: 'b'.repeat(64), bytes: 10}},
		facts: [{id: 'f1', alternatives: [['task:csv']]}],
	};
	await check(
		fc.asyncProperty(mutatedJson(valid), async text => {
			writeFileSync(file, text);
			await typedOrFine(() => loadContract(file, directory, 'is the csv export streamed?', 'evaluate'));
		}),
		300,
	);
});

test('fuzz: middleware requests load or are refused with invalid_request', async t => {
	const directory = tempDir(t);
	const file = join(directory, 'request.json');
	const valid = {stable_prefix: {system: 'You review code.'}, task: 'review', items: [{id: 'a', content: 'the retry helper', required: true, priority: 2}, {id: 'b', content: {path: 'src/a.ts'}, required: false}], budget_tokens: 500};
	await check(
		fc.asyncProperty(mutatedJson(valid), async text => {
			writeFileSync(file, text);
			await typedOrFine(() => loadRequest(file, Readable.from([]), directory));
		}),
		300,
	);
});

test('fuzz: staged notes with mutated frontmatter: harvest plans or reports each, with file:line, and exits 0 or 2', async t => {
	const kb = makeKb(t);
	const inbox = join(kb.root, '00-inbox', 'harvest');
	const note = ['---', 'id: task:retry', 'kind: Task', 'label: Tighten the retry loop', 'status: blocked', 'blockers: [review]', 'project: project:shop', 'links:', '  - {type: BELONGS_TO, to: project:shop}', '---', 'The retry loop backs off twice.', ''].join('\n');
	await check(
		fc.asyncProperty(fc.array(mutatedText(note), {minLength: 8, maxLength: 8}), async notes => {
			rmSync(inbox, {recursive: true, force: true});
			mkdirSync(inbox, {recursive: true});
			for (const [index, text] of notes.entries()) {
				writeFileSync(join(inbox, `note-${index}.md`), text);
			}

			const result = kb.run(['harvest', '--format', 'json']);
			assert.ok(result.code === 0 || result.code === 2, `exit ${result.code}: ${result.stderr}`);
			assert.doesNotMatch(result.stderr, /internal_error|\n\s+at /);
			assert.equal(result.json().files.length + result.json().skipped.length, notes.length, 'every note is accounted for');
		}),
		12,
	);
});

test('fuzz: answers kept in the catalog decode whole or count as a miss, never thrown on', () => {
	const db = openDatabase(':memory:');
	migrate(db, catalogMigrations);
	const filter = {scope: [{source: 'claude', root: '/stores/claude'}], includeSubagents: true};
	const made = {nos: [1, 2, 3], docs: [40, 50, 60]};
	const valid = integerColumns.encode(made);
	check(
		fc.property(fc.uint8Array({maxLength: 48}), fc.nat({max: valid.length}), fc.constantFrom('truncate', 'overwrite', 'splice'), (bytes, at, how) => {
			const value =
				how === 'truncate'
					? valid.subarray(0, at)
					: how === 'overwrite'
						? Buffer.concat([valid.subarray(0, at), Buffer.from(bytes), valid.subarray(Math.min(valid.length, at + bytes.length))])
						: Buffer.concat([valid.subarray(0, at), Buffer.from(bytes), valid.subarray(at)]);
			db.exec('DELETE FROM scope_memo');
			scopeAnswer(db, 'fuzz', filter, integerColumns, () => made);
			db.prepare('UPDATE scope_memo SET value = ?').run(value);
			const answer = scopeAnswer(db, 'fuzz', filter, integerColumns, () => made);
			assert.equal(answer.nos.length, answer.docs.length, 'two columns of one length');
		}),
		400,
	);
	db.close();
});
