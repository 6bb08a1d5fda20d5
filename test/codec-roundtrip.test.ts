/**
 * The compact encodings lose nothing: decode(encode(page)) is the plain page for every page of
 * every fixture session of every source, in every view, plain, masked and pruned (the context
 * view with whole texts too, --preview-chars all); and for the shared third-party fixtures too.
 * Generated pages (keys that collide with the encoders' own) are properties.test.ts's.
 */
import assert from 'node:assert/strict';
import {readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {adapters} from '../source/adapters/index.js';
import type {SourceId} from '../source/adapters/types.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {decodePacket} from '../source/engine/conversation/codec/decode.js';
import {encodePage, type EncodeOptions} from '../source/engine/conversation/codec/encode.js';
import {validatePacket} from '../source/engine/conversation/codec/validate.js';
import {readConversation} from '../source/engine/conversation/read.js';
import {shapeRow, views} from '../source/engine/conversation/views.js';
import type {Deps} from '../source/engine/deps.js';
import {looseUnit, readUnit, sharedFixtures} from './helpers/adapters.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

const compact: EncodeOptions = {compact: true, deltas: false, attachmentRefs: false};
const deltas: EncodeOptions = {compact: true, deltas: true, attachmentRefs: false};

/** The page as JSON carries it: what an agent holds after reading the output. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/** Encodes, checks the packet strictly, decodes and compares; returns the layers used. */
function roundTrip(page: Record<string, unknown>, options: EncodeOptions, label: string): string[] {
	const plain = asJson(page);
	const {document, layers} = encodePage(plain, options);
	const printed = asJson(document);
	if (layers.length === 0) {
		assert.deepStrictEqual(printed, plain, `${label}: without layers the page is returned as it is`);
		return layers;
	}

	assert.ok(Buffer.byteLength(JSON.stringify(printed)) < Buffer.byteLength(JSON.stringify(plain)), `${label}: a packet is only returned when it is smaller`);
	assert.equal(typeof printed['guide'], 'string', `${label}: every packet carries its guide`);
	assert.deepStrictEqual(printed['layers'], layers, `${label}: the packet says which layers it uses`);
	validatePacket(printed);
	assert.deepStrictEqual(decodePacket(printed), plain, `${label}: decode(encode(page)) is the page`);
	return layers;
}

function fixtureDeps(t: Parameters<typeof tempDir>[0]): Deps {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	return {env, cwd: base, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform};
}

test('every page of every fixture session, in every view, plain, masked and pruned, survives encoding', {timeout: 240_000}, async t => {
	const deps = fixtureDeps(t);
	const sessions = (await listSessions({allProjects: true, includeSubagents: true, limit: 1000, offset: 0}, deps)).sessions;
	const sources = new Set<string>();
	const used = new Set<string>();
	let pages = 0;
	for (const session of sessions) {
		for (const view of views) {
			// Whole texts are the context view's alone (--preview-chars).
			const wholeTexts = view === 'context' ? [{limit: 7, previewChars: 'all'}, {limit: 7, prune: true, previewChars: 'all'}, {limit: 100, masked: true, previewChars: 'all'}] : [];
			for (const variant of [{limit: 7}, {limit: 7, masked: true}, {limit: 7, prune: true}, {limit: 100}, ...wholeTexts]) {
				let offset: number | null = 0;
				while (offset !== null) {
					let page;
					try {
						page = await readConversation({id: session.id, source: [session.source], view, offset, ...variant}, deps);
					} catch (error) {
						// A fixture that is damaged on purpose has no pages; the readers' own tests cover it.
						assert.equal((error as {code?: string}).code, 'session_corrupt', String(error));
						break;
					}

					for (const options of [compact, deltas]) {
						for (const layer of roundTrip(page, options, `${session.source} ${session.id} ${view} @${offset} ${JSON.stringify(variant)}`)) {
							used.add(layer);
						}
					}

					sources.add(session.source);
					pages++;
					offset = page.next_offset;
				}
			}
		}
	}

	assert.deepEqual([...sources].sort(), Object.keys(adapters).sort(), 'every source has pages');
	assert.ok(used.has('rows') && used.has('strings'), `layers used: ${[...used].join(', ')}`);
	assert.ok(pages > 500, `${pages} pages`);
});

test('every page of the shared third-party fixtures survives encoding', t => {
	let pages = 0;
	for (const source of Object.keys(adapters) as SourceId[]) {
		const directory = sharedFixtures(t, source);
		if (!directory) {
			return;
		}

		for (const name of readdirSync(directory, {recursive: true, encoding: 'utf8'})) {
			const path = join(directory, name);
			if (!statSync(path).isFile() || !/\.(jsonl?|db)$/.test(name)) {
				continue;
			}

			let rows;
			try {
				rows = readUnit(adapters[source], looseUnit(path)).loaded.rows;
			} catch {
				continue; // Sidecars and files a loose unit cannot stand for; the conformance tests read those.
			}

			for (const view of views) {
				for (let start = 0; start < rows.length; start += 20) {
					for (const previewLength of view === 'context' ? [120, 'all'] as const : [120] as const) {
						const records = rows.slice(start, start + 20).flatMap(row => shapeRow(view, row, undefined, previewLength));
						const page = {view, session_id: name, source, source_path: path, offset: start, limit: 20, next_offset: null, status: 'ok', last_line: rows.at(-1)?.line ?? 0, skipped: 0, warnings: [], records};
						roundTrip(page, deltas, `${source} ${name} ${view} @${start} previews ${previewLength}`);
						pages++;
					}
				}
			}
		}
	}

	assert.ok(pages > 50, `${pages} pages`);
});

// test/boundaries.test.ts checks that the decoder imports nothing; this, that it needs nothing of Node's either.
test('the decoder uses nothing of Node\'s, so it runs wherever an agent copies it', () => {
	const text = readFileSync(new URL('../source/engine/conversation/codec/decode.ts', import.meta.url), 'utf8');
	assert.doesNotMatch(text, /\brequire\(|\bBuffer\b|\bprocess\./);
});

test('read --compact and --deltas through the CLI: the packet decodes, offline and in process, to the plain page', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	const samples: Array<[string, string, string]> = [
		['claude', '11111111-1111-4111-8111-111111111111', 'events'],
		['codex', '0195a1c2-0a00-7a00-8a00-00000000000a', 'events'],
		['codex', '0195a1c2-0a00-7a00-8a00-00000000000a', 'context'],
		['gemini', '3f2a9c1e-5b7d-4e21-9a8f-0c6d2e4b7a15', 'events'],
	];
	let packets = 0;
	for (const [source, id, view] of samples) {
		const plain = run(['read', id, '--source', source, '--view', view, '--limit', '100']);
		assert.equal(plain.code, 0, plain.stderr);
		for (const flags of [['--compact'], ['--compact', '--deltas']]) {
			const packed = run(['read', id, '--source', source, '--view', view, '--limit', '100', ...flags]);
			assert.equal(packed.code, 0, packed.stderr);
			const document = packed.json();
			if (document.encoding === undefined) {
				assert.deepStrictEqual(document, plain.json(), 'a page no layer shrinks comes back plain');
				continue;
			}

			packets++;
			assert.ok(packed.stdout.length < plain.stdout.length);
			const {schema, ...packet} = document;
			assert.equal(schema, 'engi.read.v1');
			assert.deepStrictEqual({schema, ...(decodePacket(packet) as object)}, plain.json());
			const file = join(base, `${source}-${view}-${flags.length}.json`);
			writeFileSync(file, packed.stdout);
			const decoded = run(['read', '--decode-packet', file]);
			assert.equal(decoded.code, 0, decoded.stderr);
			// Key order inside a record is not kept (docs/encodings.md); everything else is.
			assert.deepStrictEqual(decoded.json(), plain.json(), '--decode-packet prints the page read printed');
			const validated = run(['read', '--validate-packet', file]);
			assert.equal(validated.stdout, packed.stdout, '--validate-packet prints a sound packet unchanged');
			const pageFile = join(base, `${source}-${view}-page.json`);
			writeFileSync(pageFile, plain.stdout);
			const encoded = run(['read', '--encode-json', pageFile, ...flags.slice(1)]);
			assert.equal(encoded.stdout, packed.stdout, '--encode-json of the saved page is the packet read printed');
		}
	}

	assert.ok(packets >= 4, `${packets} packets`);
});

test('offline packet modes refuse what they cannot take, with typed errors and nothing printed', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const run = (args: string[], input?: string) => runCli([...args, '--format', 'json'], {env, input});
	const page = {view: 'dialogue', records: Array.from({length: 30}, (_, index) => ({line: index + 1, role: 'user', content: index % 2 === 0 ? 'the same long request text, said again and again' : 'and a long reply to it, said again and again too'}))};
	const pageFile = join(base, 'page.json');
	writeFileSync(pageFile, JSON.stringify(page));
	const packet = run(['read', '--encode-json', pageFile]).json();
	assert.equal(packet.encoding, 'engi.strings.v1');
	const write = (name: string, value: unknown) => {
		const file = join(base, name);
		writeFileSync(file, typeof value === 'string' ? value : JSON.stringify(value));
		return file;
	};

	const refusals: Array<[string, string[], string]> = [
		['a reference past the texts', ['--validate-packet', write('bad-index.json', {...packet, page: {...packet.page, page: {...packet.page.page, rows: [[1, 0, [{$: 99}]]]}}})], 'packet_invalid'],
		['a stray key in a layer', ['--decode-packet', write('stray.json', {...packet, extra: 1})], 'packet_invalid'],
		['a layers list that does not match', ['--validate-packet', write('layers.json', {...packet, layers: ['rows']})], 'packet_invalid'],
		['no guide', ['--validate-packet', write('guide.json', {...packet, guide: undefined})], 'packet_invalid'],
		['a plain page to validate', ['--validate-packet', pageFile], 'packet_invalid'],
		['an encoding engi does not know', ['--decode-packet', write('unknown.json', {encoding: 'engi.zip.v9', layers: ['zip'], guide: 'x', page: {}})], 'packet_invalid'],
		['a packet to encode', ['--encode-json', write('packet.json', packet)], 'already_encoded'],
		['a document without records', ['--encode-json', write('norecords.json', {view: 'dialogue'})], 'not_a_page'],
		['not JSON', ['--decode-packet', write('broken.json', '{"encoding": ')], 'invalid_json'],
		['a missing file', ['--decode-packet', join(base, 'absent.json')], 'file_unreadable'],
		['more than 16 MiB', ['--encode-json', write('huge.json', `{"records":[],"pad":"${'x'.repeat(16 * 1024 * 1024)}"}`)], 'input_too_large'],
		['a session id beside a packet mode', ['--decode-packet', pageFile, 'some-id'], 'conflicting_flags'],
		['--deltas without --compact', ['some-id', '--deltas'], 'missing_flag'],
	];
	for (const [what, args, code] of refusals) {
		const result = run(['read', ...args]);
		assert.equal(result.code, 1, `${what}: exit 1`);
		assert.equal(result.stdout, '', `${what}: nothing on stdout`);
		assert.equal(result.error().code, code, what);
	}

	assert.deepStrictEqual(run(['read', '--decode-packet', pageFile]).json(), {schema: 'engi.read.v1', ...page}, 'a plain page decodes to itself');
	const fromStdin = run(['read', '--decode-packet', '-'], JSON.stringify(packet));
	assert.deepStrictEqual(fromStdin.json(), {schema: 'engi.read.v1', ...page}, 'stdin works too');
});
