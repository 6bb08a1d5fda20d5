/**
 * Properties (fast-check, shrinking, seeded): every encoding gives the page back; pruning is
 * deterministic and idempotent, keeps what must be kept and spares errors and the newest
 * records; middleware expand gives back what prepare was given. A failure prints its seed
 * and the shrunk case; `ENGI_PROPERTY_SEED=<seed>` replays it (or explores other cases).
 */
import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {Readable} from 'node:stream';
import test from 'node:test';
import fc from 'fast-check';
import {adapters} from '../source/adapters/index.js';
import {decodePacket, resolvePointer} from '../source/engine/conversation/codec/decode.js';
import {encodePage, type EncodeOptions} from '../source/engine/conversation/codec/encode.js';
import {validatePacket} from '../source/engine/conversation/codec/validate.js';
import {preserveRecent, prunePage} from '../source/engine/conversation/prune/page.js';
import {isEmptyResult} from '../source/engine/conversation/prune/rules.js';
import {shapeRow} from '../source/engine/conversation/views.js';
import {expandMiddleware, prepareMiddleware} from '../source/engine/middleware/prepare.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {looseUnit, readUnit} from './helpers/adapters.js';
import {tempDir} from './helpers/temp.js';
import {claudeToolLines, codexToolLines, sourceFile, type ToolStep} from './fixtures/tool-sessions.js';

/** Fixed, so every run checks the same cases; set ENGI_PROPERTY_SEED to explore others (a failure prints its seed). */
const seed = Number(process.env['ENGI_PROPERTY_SEED'] ?? 20_261_201);

/**
 * Runs a property with the shared seed, a fixed number of cases (each property takes a second or
 * two, so a busy machine changes how long, never what is checked); on failure the message names
 * the seed, the path and the shrunk case, and the assertion that failed.
 */
function check<T>(property: fc.IPropertyWithHooks<T> | fc.IAsyncPropertyWithHooks<T>, runs: number) {
	const parameters: fc.Parameters<T> = {seed, numRuns: runs, includeErrorInReport: true};
	return 'isAsync' in property && property.isAsync() ? fc.assert(property as fc.IAsyncPropertyWithHooks<T>, parameters) : fc.assert(property as fc.IPropertyWithHooks<T>, parameters);
}

// ---------------------------------------------------------------------------------------------
// Encodings

const asJson = (value: unknown) => JSON.parse(JSON.stringify(value)) as Record<string, unknown>;

/** Keys that collide with what the encoders write (reference and join keys, layer keys, the attachment marker). */
const hostileKey = fc.constantFrom('$', '@', '~', '^', '%', '&', '+', '*', '|', '=', '!', '$ref0', '$join0', 'encoding', 'page', 'records', 'rows', 'layouts', 'texts', 'fragments', 'attachment', 'line', 'in', 'shared', 'fields', '__proto__', 'constructor', '');
const plainKey = fc.constantFrom('type', 'role', 'content', 'text', 'path', 'output', 'id', 'timestamp', 'cwd');
const word = fc.constantFrom('src/a.ts', '/work/app/src/retry.ts', 'export const a = 1;', 'engi.rows.v1', 'engi.strings.v1', '{"$":0}', '{"+":[0]}', '', ' ', 'é中文🙂', '\u0000', 'line\n', 'the retry helper backs off twice');
/** Strings that share lines and fragments, so the strings and edges layers have something to do. */
const text = fc.oneof(word, fc.array(fc.tuple(word, fc.constantFrom('', '\n', ' tail', '\r\n')).map(([a, b]) => a + b), {maxLength: 6}).map(parts => parts.join('')), fc.string({maxLength: 12}));

/** JSON values whose keys and values collide with the encoders' own. */
const jsonValue = fc.letrec(tie => ({
	value: fc.oneof({depthSize: 'small', withCrossShrink: true}, text, fc.integer({min: -5, max: 1000}), fc.constantFrom(-0.5, true, false, null), tie('array'), tie('object'), tie('lookalike')),
	array: fc.array(tie('value'), {maxLength: 4}),
	object: fc.dictionary(fc.oneof(hostileKey, plainKey), tie('value'), {maxKeys: 5}),
	// Objects shaped exactly like an encoder's references.
	lookalike: fc.constantFrom<unknown>({$: 0}, {$: 2}, {'+': [0, 'x']}, {attachment: 0}, {'@': 1}),
})).value;

/** Records as the views print them (`{line, event}`, `{line, role, content}`), a few with a colliding key beside their own. */
const record = fc.oneof(
	fc.record({line: fc.integer({min: 1, max: 40}), event: jsonValue}),
	// Native records of one store share their keys, which the rows layer lays out once.
	fc.record({line: fc.integer({min: 1, max: 40}), event: fc.record({type: fc.constantFrom('user', 'assistant', 'tool_result'), uuid: fc.string({maxLength: 8}), message: jsonValue})}),
	fc.record({line: fc.integer({min: 1, max: 40}), role: fc.constantFrom('user', 'assistant'), content: text}),
	fc.tuple(fc.record({line: fc.integer({min: 1, max: 40}), role: fc.constantFrom('user', 'assistant'), content: text}), fc.dictionary(hostileKey.filter(key => key !== 'line'), jsonValue, {minKeys: 1, maxKeys: 2})).map(([own, extra]) => ({...extra, ...own})),
);

/**
 * A page: the fields every read page has, records with a repeated session-wide string, sometimes
 * a colliding top-level key (never `encoding`: that is what makes a document a packet, and a
 * page never has one, docs/encodings.md).
 */
const page = fc.record({
	shared: text,
	view: fc.constantFrom('events', 'dialogue', 'context'),
	next: fc.option(fc.integer({min: 1, max: 50})),
	records: fc.array(record, {maxLength: 16, size: 'max'}),
	top: fc.dictionary(fc.constantFrom('$', '+', '~', 'texts', 'layers', 'guide', 'page', '__proto__'), jsonValue, {maxKeys: 1}),
}).map(({shared, view, next, records, top}) => asJson({view, session_id: shared, next_offset: next, warnings: [], ...top, records: records.map(item => ('event' in item && item.event !== null && typeof item.event === 'object' && !Array.isArray(item.event) ? {...item, event: {...item.event, cwd: shared, repeated: shared + shared}} : item))}));

const compact: EncodeOptions = {compact: true, deltas: false, attachmentRefs: false};
const deltas: EncodeOptions = {compact: true, deltas: true, attachmentRefs: false};

test('decode(encode(page)) is the page, for compact and compact+deltas, over generated pages', () => {
	const used = new Set<string>();
	check(fc.property(page, fc.constantFrom(compact, deltas), (plain, options) => {
		const {document, layers} = encodePage(plain, options);
		const printed = asJson(document);
		for (const layer of layers) {
			used.add(layer);
		}

		if (layers.length === 0) {
			assert.deepStrictEqual(printed, plain);
			return;
		}

		assert.ok(Buffer.byteLength(JSON.stringify(printed)) < Buffer.byteLength(JSON.stringify(plain)), 'a packet is only printed when its UTF-8 is smaller');
		validatePacket(printed);
		assert.deepStrictEqual(decodePacket(printed), plain);
	}), 400);
	assert.deepEqual([...used].sort(), ['edges', 'rows', 'strings'], 'the generated pages reach every layer');
});

test('the short decoder in docs/encodings.md decodes what engi encodes, without engi', () => {
	const markdown = readFileSync(new URL('../docs/encodings.md', import.meta.url), 'utf8');
	const snippet = /```js\n([\s\S]*?)```/.exec(markdown)?.[1];
	assert.ok(snippet, 'the document has a decoder');
	// eslint-disable-next-line no-new-func -- the point is to run the documented code as an agent would.
	const decode = new Function(`${snippet}\nreturn decode;`)() as (document: unknown) => unknown;
	check(fc.property(page, plain => {
		assert.deepStrictEqual(decode(asJson(encodePage(plain, deltas).document)), plain);
	}), 300);
});

const base64 = (min: number) => fc.uint8Array({minLength: min, maxLength: min + 300}).map(bytes => Buffer.from(bytes).toString('base64'));

/** The places stores keep images and reasoning blobs, with near misses (too short, not base64) that must stay inline. */
const nativePart = fc.oneof(
	base64(200).map(data => ({type: 'image', source: {type: 'base64', media_type: 'image/png', data}})),
	base64(200).map(data => ({type: 'input_image', image_url: `data:image/jpeg;base64,${data}`})),
	base64(100).map(data => ({type: 'reasoning', summary: [], encrypted_content: data})),
	fc.tuple(text, base64(100)).map(([thinking, signature]) => ({type: 'thinking', thinking, signature})),
	base64(100).map(data => ({type: 'redacted_thinking', data})),
	base64(200).map(data => ({inlineData: {mimeType: 'image/webp', data}})),
	base64(0).map(data => ({type: 'reasoning', encrypted_content: data.slice(0, 60)})),
	text.map(value => ({type: 'image', source: {type: 'base64', media_type: 'image/png', data: `${value} not base64!`}})),
	jsonValue,
);

const nativePage = fc.array(fc.record({line: fc.integer({min: 1, max: 60}), type: fc.constantFrom('user', 'assistant', 'response_item'), parts: fc.array(nativePart, {maxLength: 4})}), {minLength: 1, maxLength: 8})
	.map(records => asJson({view: 'events', session_id: 's', next_offset: null, warnings: [], records: records.map(({line, type, parts}) => ({line, event: {type, message: {content: parts}}}))}));

/** Sets the value a JSON pointer names (the test's stand-in for `read --attachment`, which reads it from the store). */
function setAt(root: unknown, pointer: string, value: unknown): void {
	const parts = pointer.split('/').slice(1).map(part => part.replaceAll('~1', '/').replaceAll('~0', '~'));
	const parent = resolvePointer(root, parts.slice(0, -1).map(part => `/${part.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')) as Record<string, unknown>;
	Object.defineProperty(parent, parts.at(-1)!, {value, enumerable: true, writable: true, configurable: true});
}

test('attachment references, alone or under compact and deltas, decode to the page once each listed value is put back', () => {
	let listed = 0;
	check(fc.property(nativePage, fc.boolean(), fc.boolean(), (plain, compactToo, deltasToo) => {
		const {document, layers} = encodePage(plain, {compact: compactToo, deltas: compactToo && deltasToo, attachmentRefs: true});
		const printed = asJson(document);
		if (!layers.includes('attachments')) {
			// Nothing worth leaving out (or a lookalike `{"attachment": n}` the store itself wrote): the page, maybe compacted.
			assert.deepStrictEqual(layers.length === 0 ? printed : decodePacket(printed), plain);
			return;
		}

		validatePacket(printed);
		const decoded = decodePacket(printed) as {attachments: Array<{record: number; line: number; pointer: string; bytes: number; sha256: string}>; page: {records: Array<{line: number; event: unknown}>}};
		for (const [index, entry] of decoded.attachments.entries()) {
			const record = decoded.page.records[entry.record]!;
			assert.equal(record.line, entry.line);
			assert.deepStrictEqual(resolvePointer(record.event, entry.pointer), {attachment: index});
			const original = resolvePointer((plain['records'] as typeof decoded.page.records)[entry.record]!.event, entry.pointer) as string;
			assert.equal(entry.bytes, Buffer.byteLength(original));
			assert.equal(entry.sha256, createHash('sha256').update(original).digest('hex'));
			setAt(record.event, entry.pointer, original);
			listed++;
		}

		assert.deepStrictEqual(decoded.page, plain);
	}), 300);
	assert.ok(listed > 100, `${listed} attachments listed`);
});

// ---------------------------------------------------------------------------------------------
// Pruning

const paths = ['/work/app/src/a.ts', '/work/app/src/b.ts', '/work/app/src/c.ts'];
const step: fc.Arbitrary<ToolStep> = fc.oneof(
	fc.constantFrom<ToolStep>({user: 'Fix the retry timeouts.'}, {assistant: 'Looking at the handlers.'}),
	fc.tuple(fc.constantFrom(...paths), fc.integer({min: 1, max: 3})).map(([path, version]) => ({read: path, content: sourceFile(path, 12 + version * 6, version)})),
	fc.constantFrom(...paths).map(path => ({edit: path, old: 'const timeout = 100;', new: 'const timeout = 250;'})),
	fc.constantFrom(...paths).map(path => ({write: path, content: sourceFile(path, 10, 9)})),
	fc.constantFrom<ToolStep>({search: 'retryLegacy', output: ''}, {search: 'retry', output: 'src/a.ts:3: retry(() => fetch(url))'}),
	fc.constantFrom<ToolStep>({shell: 'git status --short', output: ' M src/a.ts\n'}, {shell: 'npm test', output: 'FAIL src/a.test.ts\n  expected 250, got 100\n', exit: 1}, {shell: 'npm test', output: 'Tests: 12 passed\n'}),
);

type Written = {source: 'claude' | 'codex'; rows: ReturnType<typeof readUnit>['loaded']['rows']};

/** Writes a session of these steps as the store does and reads its rows back, as `read` would. */
function session(directory: string, source: Written['source'], lines: readonly string[], name = 'session'): Written {
	const file = join(directory, `${name}.jsonl`);
	writeFileSync(file, lines.join('\n') + '\n');
	return {source, rows: readUnit(adapters[source], looseUnit(file)).loaded.rows};
}

const prune = ({source, rows}: Written) => prunePage('events', rows, {abandoned: []}, {source, project: '/work/app', later: [], newest: true});
const plainRecords = ({rows}: Written) => rows.map(row => asJson({line: row.line, event: row.raw}));

/** Every key path of a JSON value, so a rewrite can be checked to add none. */
function keyPaths(value: unknown, at = ''): string[] {
	if (Array.isArray(value)) {
		return value.flatMap((item, index) => keyPaths(item, `${at}/${index}`));
	}

	return value !== null && typeof value === 'object' ? Object.entries(value).flatMap(([key, item]) => [`${at}/${key}`, ...keyPaths(item, `${at}/${key}`)]) : [];
}

/** What must survive pruning: each file's last read when nothing touches the file after it, matches found, failures. */
function mustKeep(steps: readonly ToolStep[]): string[] {
	return steps.flatMap((item, index) => {
		if ('read' in item) {
			const touched = steps.slice(index + 1).some(later => ('read' in later && later.read === item.read) || ('edit' in later && later.edit === item.read) || ('write' in later && later.write === item.read));
			return touched ? [] : [item.content];
		}

		return ('search' in item && item.output !== '') || ('shell' in item && item.exit) ? [item.output] : [];
	});
}

/** Claude's tool_result holds a read numbered, as the model saw it (its raw copy may be a note pointing there). */
const asShown = (source: Written['source'], kept: string) => (source === 'claude' && kept.includes('request handling') ? kept.split('\n').map((line, number) => `${String(number + 1).padStart(6)}\u2192${line}`).join('\n') : kept);

test('pruning is deterministic and idempotent, keeps what a reader needs, and spares errors, messages, calls and the newest records', t => {
	const directory = tempDir(t);
	let pruned = 0;
	let cases = 0;
	check(fc.property(fc.array(step, {minLength: 1, maxLength: 14}), fc.constantFrom<Written['source']>('claude', 'codex'), (steps, source) => {
		const id = source === 'claude' ? 'c1a0de00-0000-4000-8000-000000000001' : '0195a1c2-c0de-7000-8000-000000000001';
		const lines = source === 'claude' ? claudeToolLines(id, '/work/app', steps) : codexToolLines(id, '/work/app', steps);
		const written = session(directory, source, lines, `${source}-${cases++}`);
		const plain = plainRecords(written);
		const first = prune(written);
		assert.deepStrictEqual(prune(session(directory, source, lines, 'again')), first, 'the same session prunes the same way');
		assert.equal(first.receipt.total_records, plain.length);
		assert.equal(first.receipt.pruned_count, first.records.filter(record => record['pruned']).length);
		pruned += first.receipt.pruned_count;
		const printed = asJson(first.records) as unknown as Array<Record<string, unknown>>;
		for (const [index, record] of printed.entries()) {
			const row = written.rows[index]!;
			// An error is kept whole; rg's exit 1 with nothing printed is no error but an empty search.
			const spared = index >= plain.length - preserveRecent || row.events.some(event => event.kind !== 'tool_result' || (event.result!.is_error && !isEmptyResult(event.result!.output)));
			if (spared || !record['pruned']) {
				assert.deepStrictEqual(record, plain[index], `record ${index} (line ${row.line}) is untouched`);
				continue;
			}

			assert.deepEqual(keyPaths(record['event']), keyPaths(plain[index]!['event']), 'no field the store did not write is added');
			assert.match(String(record['prune_reason']), /superseded by write|redundant|returned 0 matches|copy of the output at line|file before the edit, not shown to the model/);
		}

		const text = JSON.stringify(printed);
		for (const kept of mustKeep(steps)) {
			assert.ok(text.includes(JSON.stringify(asShown(source, kept)).slice(1, -1)), `kept: ${kept.slice(0, 60)}`);
		}

		// Idempotent: the pruned records, written back as the session, prune to themselves.
		const again = prune(session(directory, source, printed.map(record => JSON.stringify(record['event'])), 'pruned'));
		assert.deepStrictEqual(asJson(again.records.map(record => record['event'])), printed.map(record => record['event']), 'pruning a pruned session changes nothing');
	}), 100);
	assert.ok(pruned > 40, `${pruned} records pruned over the cases`);
});

test('the context view with whole texts: pruning leaves notes only where outputs went, keeps what a reader needs, and both pages survive encoding', t => {
	const directory = tempDir(t);
	let pruned = 0;
	let cases = 0;
	check(fc.property(fc.array(step, {minLength: 1, maxLength: 14}), fc.constantFrom<Written['source']>('claude', 'codex'), fc.constantFrom(compact, deltas), (steps, source, options) => {
		const id = source === 'claude' ? 'c1a0de00-0000-4000-8000-000000000002' : '0195a1c2-c0de-7000-8000-000000000002';
		const written = session(directory, source, source === 'claude' ? claudeToolLines(id, '/work/app', steps) : codexToolLines(id, '/work/app', steps), `context-${source}-${cases++}`);
		const plain = asJson(written.rows.flatMap(row => shapeRow('context', row, {abandoned: []}, 'all'))) as unknown as Array<Record<string, unknown>>;
		const result = prunePage('context', written.rows, {abandoned: []}, {source, project: '/work/app', later: [], newest: true}, 'all');
		const printed = asJson(result.records) as unknown as Array<Record<string, unknown>>;
		assert.equal(printed.length, plain.length);
		pruned += result.receipt.pruned_count;
		for (const [index, record] of printed.entries()) {
			if (!record['pruned']) {
				assert.deepStrictEqual(record, plain[index], `record ${index} is untouched`);
				continue;
			}

			const {pruned: _mark, prune_reason: _reason, output, ...rest} = record;
			const {output: original, ...kept} = plain[index]!;
			assert.deepStrictEqual(rest, kept, 'only the output changes');
			assert.deepStrictEqual(output, {preview: '[omitted]', preview_tail: '', preview_truncated: false, chars: 9, omitted_chars: (original as {chars: number}).chars});
		}

		const text = JSON.stringify(printed);
		for (const kept of mustKeep(steps)) {
			assert.ok(text.includes(JSON.stringify(asShown(source, kept)).slice(1, -1)), `kept whole: ${kept.slice(0, 60)}`);
		}

		for (const records of [plain, printed]) {
			const document = asJson({view: 'context', session_id: id, source, offset: 0, limit: 100, next_offset: null, status: 'ok', last_line: written.rows.at(-1)?.line ?? 0, skipped: 0, warnings: [], records});
			const {document: packet, layers} = encodePage(document, options);
			if (layers.length > 0) {
				validatePacket(asJson(packet));
			}

			assert.deepStrictEqual(layers.length === 0 ? asJson(packet) : decodePacket(asJson(packet)), document, 'decode(encode(page)) is the page');
		}
	}), 100);
	assert.ok(pruned > 20, `${pruned} records pruned over the cases`);
});

// ---------------------------------------------------------------------------------------------
// Middleware

const item = fc.record({
	content: fc.oneof(text, jsonValue),
	required: fc.boolean(),
	priority: fc.option(fc.integer({min: -2, max: 3}), {nil: undefined}),
});

const request = fc.record({
	prefix: jsonValue,
	task: fc.oneof(text, jsonValue),
	items: fc.array(item, {minLength: 1, maxLength: 10}),
	budget: fc.integer({min: 0, max: 400}),
}).map(({prefix, task, items, budget}) => asJson({
	stable_prefix: prefix,
	task,
	// Ids as a caller writes them, unique; no `priority` key at all when there is none.
	items: items.map(({priority, ...rest}, index) => ({id: `item-${index}`, ...rest, ...(priority === undefined ? {} : {priority})})),
	budget_tokens: budget,
}));

const stdinOf = (text: string) => Readable.from([Buffer.from(text)]);

test('middleware: expand gives back, for the ids prepare chose, exactly the content prepare was given', async () => {
	await exactTokenCounter(); // Loaded once, before the clock of the property starts.
	let expanded = 0;
	await check(fc.asyncProperty(request, async input => {
		const text = JSON.stringify(input);
		let prepared;
		try {
			prepared = await prepareMiddleware('-', stdinOf(text), '/');
		} catch (error) {
			assert.equal((error as {code?: string}).code, 'required_context_exceeds_budget');
			return;
		}

		const {output, packetText} = prepared;
		const items = input['items'] as Array<{id: string; content: unknown; required: boolean}>;
		assert.deepStrictEqual(JSON.parse(packetText), output.packet, '--packet-only prints the packet the receipt describes');
		assert.deepStrictEqual(output.packet.items, items.filter(candidate => output.selected_ids.includes(candidate.id)).map(({id, content}) => ({id, content})), 'the packet holds the chosen items as given, in input order');
		assert.ok(items.filter(candidate => candidate.required).every(candidate => output.selected_ids.includes(candidate.id)), 'every required item is in');
		assert.deepStrictEqual([...output.selected_ids, ...output.omitted_ids].sort(), items.map(candidate => candidate.id).sort());
		for (const ids of [output.selected_ids, items.map(candidate => candidate.id)].filter(list => list.length > 0)) {
			const back = await expandMiddleware({file: '-', expectSha256: output.source_sha256, ids}, stdinOf(text), '/');
			assert.deepStrictEqual(back.items, items.filter(candidate => ids.includes(candidate.id)).map(({id, content}) => ({id, content})));
			expanded++;
		}
	}), 100);
	assert.ok(expanded > 60, `${expanded} expansions`);
});
