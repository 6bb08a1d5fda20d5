// The hand-written readers of hot record types (adapters/shared/loose.ts) against the zod schemas
// they stand in for: over generated records, each must refuse what its schema refuses and give
// what the schema gives, key for key and in the same order.
import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import {readAntigravityStep, readAntigravityToolCall} from '../../source/adapters/antigravity/records.js';
import {antigravityStepSchema, antigravityToolCallSchema} from '../../source/adapters/antigravity/schema.js';
import {readClaudeRecord} from '../../source/adapters/claude/records.js';
import {claudeRecordSchema} from '../../source/adapters/claude/schema.js';
import {readCodexEvent, readCodexResponseItem, readCodexTurnContext} from '../../source/adapters/codex/records.js';
import {codexEventSchema, codexResponseItemSchema, codexTurnContextSchema} from '../../source/adapters/codex/schema.js';
import {readCopilotAssistantMessage, readCopilotEnvelope, readCopilotSessionData, readCopilotTool, readCopilotUserMessage} from '../../source/adapters/copilot/records.js';
import {copilotAssistantMessageSchema, copilotEnvelopeSchema, copilotSessionDataSchema, copilotToolSchema, copilotUserMessageSchema} from '../../source/adapters/copilot/schema.js';
import {parseGeminiMessage, parseGeminiToolCall} from '../../source/adapters/gemini/records.js';
import {geminiMessageSchema, geminiToolCallSchema} from '../../source/adapters/gemini/schema.js';
import {readCursorMarkerLine, readCursorMessageLine} from '../../source/adapters/cursor/records.js';
import {cursorMarkerLineSchema, cursorMessageLineSchema} from '../../source/adapters/cursor/schema.js';
import {readGrokChatItem, readGrokLegacyMessage} from '../../source/adapters/grok/records.js';
import {grokChatItemSchema, grokLegacyMessageSchema, grokSummarySchema} from '../../source/adapters/grok/schema.js';
import {readGrokSummaryRecord} from '../../source/adapters/grok/summary-record.js';
import {parseQwenRecord, readQwenMessage} from '../../source/adapters/qwen/records.js';
import {qwenMessageSchema, qwenRecordSchema} from '../../source/adapters/qwen/schema.js';
import {readOpencodeMessage, readOpencodePart} from '../../source/adapters/opencode/records.js';
import {opencodeMessageSchema, opencodePartSchema} from '../../source/adapters/opencode/schema.js';
import {any, fields, looseObject, refused, strictObject, text} from '../../source/adapters/shared/loose.js';

const seed = 20_261_201;

/** A value with its key order and absent-versus-undefined keys made visible, for deepEqual. */
function canonical(value: unknown): unknown {
	if (Array.isArray(value)) {
		return value.map(item => canonical(item));
	}

	if (value !== null && typeof value === 'object') {
		return {prototype: Object.getPrototypeOf(value) === Object.prototype, entries: Reflect.ownKeys(value).map(key => [String(key), canonical((value as Record<PropertyKey, unknown>)[key])])};
	}

	return value === undefined ? '(undefined)' : value;
}

/** JSON objects over `keys` (and a few odd ones), nested `depth` deep; parsed from text, so `__proto__` is an own key as in a real record. */
function records(keys: readonly string[], nested: readonly string[]): fc.Arbitrary<unknown> {
	const scalar = fc.oneof(fc.string({maxLength: 4}), fc.integer(), fc.double({noNaN: true, noDefaultInfinity: true}), fc.boolean(), fc.constant(null));
	const key = fc.constantFrom(...keys, ...nested, '__proto__', 'constructor', 'toString', 'extra');
	const value = fc.letrec<{node: unknown}>(tie => ({
		node: fc.oneof({depthSize: 'small', withCrossShrink: true}, scalar, fc.array(tie('node'), {maxLength: 3}), fc.array(fc.tuple(key, tie('node')), {maxLength: 6})),
	})).node;
	const toJson = (node: unknown): string =>
		Array.isArray(node) && node.every(item => Array.isArray(item) && item.length === 2 && typeof item[0] === 'string')
			? `{${(node as Array<[string, unknown]>).map(([name, item]) => `${JSON.stringify(name)}:${toJson(item)}`).join(',')}}`
			: Array.isArray(node)
				? `[${node.map(item => toJson(item)).join(',')}]`
				: JSON.stringify(node);
	return fc.oneof(fc.array(fc.tuple(key, value), {maxLength: 12}).map(entries => JSON.parse(toJson(entries)) as unknown), value.map(node => JSON.parse(toJson(node)) as unknown));
}

function agrees(read: (value: unknown) => unknown, schema: {safeParse(value: unknown): {success: boolean; data?: unknown}}, value: unknown): void {
	const parsed = schema.safeParse(value);
	assert.deepEqual(canonical(read(value)), canonical(parsed.success ? parsed.data : undefined), JSON.stringify(value));
}

type ZodLike = {_zod: {def: {type: string; shape?: Record<string, ZodLike>; innerType?: ZodLike; in?: ZodLike; out?: ZodLike; options?: ZodLike[]; element?: ZodLike}}};

/** Every key an object schema names, its nested objects' (through optional, catch, pipe, union, array) included. */
function schemaKeys(schema: unknown): Set<string> {
	return new Set(schemaPaths(schema).map(path => path.at(-1)!).filter(step => step !== list));
}

/** A list element's step in a schema path. */
const list = '[]';

/** Every path to a field the schema declares, nested objects and lists of them included: `['state', 'time', 'end']`, `['toolRequests', '[]', 'name']`. */
function schemaPaths(schema: unknown, path: readonly string[] = [], into: string[][] = []): string[][] {
	const def = (schema as ZodLike)._zod.def;
	for (const [key, field] of Object.entries(def.shape ?? {})) {
		into.push([...path, key]);
		schemaPaths(field, [...path, key], into);
	}

	if (def.element !== undefined) {
		schemaPaths(def.element, [...path, list], into);
	}

	for (const inner of [def.innerType, def.in, def.out, ...(def.options ?? [])]) {
		if (inner !== undefined) {
			schemaPaths(inner, path, into);
		}
	}

	return into;
}

/** `value` placed at `path`: each step an object of that one key, or a list of one. */
function placed(path: readonly string[], value: unknown): unknown {
	return path.reduceRight<unknown>((inner, step) => (step === list ? [inner] : {[step]: inner}), value);
}

// The keys each schema declares (schemaKeys), so a field the schema gains is generated too.
const messageKeys = [...schemaKeys(opencodeMessageSchema)];
const partKeys = [...schemaKeys(opencodePartSchema)];

test('readOpencodeMessage gives what opencodeMessageSchema gives', () => {
	const nested = ['created', 'completed', 'cwd', 'root', 'name', 'data', 'message'];
	fc.assert(fc.property(records(messageKeys, nested), value => agrees(readOpencodeMessage, opencodeMessageSchema, value)), {seed, numRuns: 3000});
	for (const value of [{role: 'user'}, {role: 1}, {}, [], null, 'x', {role: 'assistant', path: '/p', time: {created: 1, completed: null}, error: {name: 'E', data: 3}}]) {
		agrees(readOpencodeMessage, opencodeMessageSchema, value);
	}
});

test('readOpencodePart gives what opencodePartSchema gives', () => {
	const nested = ['start', 'end', 'created', 'compacted', 'status', 'input', 'raw', 'output', 'error', 'title', 'metadata', 'time'];
	fc.assert(fc.property(records(partKeys, nested), value => agrees(readOpencodePart, opencodePartSchema, value)), {seed, numRuns: 3000});
	const state = JSON.parse('{"status":"completed","metadata":{"__proto__":{"a":1},"b":null},"time":{"start":1,"end":"2"}}') as unknown;
	for (const value of [{type: 'text', text: 'hi'}, {type: 'tool', state}, {type: 'tool', state: []}, {type: 2}, {}]) {
		agrees(readOpencodePart, opencodePartSchema, value);
	}
});

test('the Codex readers give what their schemas give', () => {
	const itemKeys = [...schemaKeys(codexResponseItemSchema)];
	const eventKeys = [...schemaKeys(codexEventSchema)];
	fc.assert(fc.property(records(itemKeys, []), value => agrees(readCodexResponseItem, codexResponseItemSchema, value)), {seed, numRuns: 2000});
	fc.assert(fc.property(records(eventKeys, []), value => agrees(readCodexEvent, codexEventSchema, value)), {seed, numRuns: 2000});
	fc.assert(fc.property(records(['cwd', 'model'], []), value => agrees(readCodexTurnContext, codexTurnContextSchema, value)), {seed, numRuns: 1000});
});

test('the Copilot readers give what their schemas give', () => {
	const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
	const onObjects = (read: (data: Record<string, unknown>) => unknown) => (value: unknown) => (isObject(value) ? read(value) : undefined);
	const cases: Array<[(value: unknown) => unknown, Parameters<typeof agrees>[1], string[], string[]]> = [
		[readCopilotEnvelope, copilotEnvelopeSchema, [...schemaKeys(copilotEnvelopeSchema)], []],
		[onObjects(readCopilotTool), copilotToolSchema, [...schemaKeys(copilotToolSchema)], []],
		[onObjects(readCopilotUserMessage), copilotUserMessageSchema, [...schemaKeys(copilotUserMessageSchema)], []],
		[onObjects(readCopilotAssistantMessage), copilotAssistantMessageSchema, [...schemaKeys(copilotAssistantMessageSchema)], []],
		[onObjects(readCopilotSessionData), copilotSessionDataSchema, [...schemaKeys(copilotSessionDataSchema)], []],
	];
	for (const [read, schema, keys, nested] of cases) {
		fc.assert(fc.property(records(keys, nested), value => agrees(read, schema, value)), {seed, numRuns: 1500});
	}

	agrees(onObjects(readCopilotAssistantMessage), copilotAssistantMessageSchema, {toolRequests: [{name: 'a'}, 3]});
	agrees(onObjects(readCopilotAssistantMessage), copilotAssistantMessageSchema, {toolRequests: [{name: 'a', type: 1}, {}]});
});

test('readClaudeRecord gives what claudeRecordSchema gives wherever it answers', () => {
	const keys = ['type', 'subtype', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'isMeta', 'sessionId', 'cwd', 'timestamp', 'message', 'toolUseResult', 'summary', 'content', 'origin'];
	const nested = ['id', 'role', 'content', 'stop_reason', 'model', 'type'];
	let answered = 0;
	fc.assert(
		fc.property(fc.oneof(records(keys, nested), claudeLike()), value => {
			const read = readClaudeRecord(value);
			const parsed = claudeRecordSchema.safeParse(value);
			if (read !== undefined) {
				answered++;
				assert.deepEqual(canonical(read), canonical(parsed.data), JSON.stringify(value));
			}

			// What the reader leaves to the schema is only what the schema refuses.
			assert.ok(read !== undefined || !parsed.success, JSON.stringify(value));
		}),
		{seed, numRuns: 4000},
	);
	assert.ok(answered > 300, `only ${answered} records were read by hand`);
	const record = {type: 'assistant', parentUuid: null, isMeta: null, message: {role: 'assistant', stop_reason: null, content: [{type: 'text', text: 'hi'}, {type: null}, 'bare']}};
	assert.deepEqual(canonical(readClaudeRecord(record)), canonical(claudeRecordSchema.parse(record)));
});

/** Claude-shaped records: mostly the right types, now and then null or a wrong one. */
function claudeLike(): fc.Arbitrary<unknown> {
	const odd = fc.oneof(fc.constant(null), fc.integer(), fc.constant([]), fc.constant({}));
	const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof({weight: 6, arbitrary}, {weight: 1, arbitrary: odd});
	const text = maybe(fc.string({maxLength: 3}));
	const flag = maybe(fc.boolean());
	// A bare string among the blocks is a text block, in the reader as in the schema.
	const block = fc.oneof({weight: 6, arbitrary: fc.record({type: text, text: fc.string({maxLength: 3})}, {requiredKeys: []})}, {weight: 1, arbitrary: odd}, {weight: 1, arbitrary: fc.string({maxLength: 3})});
	const message = maybe(fc.record({id: text, role: text, content: maybe(fc.oneof(fc.string({maxLength: 3}), fc.array(block, {maxLength: 3}))), stop_reason: text, model: text, usage: fc.object()}, {requiredKeys: []}));
	return fc
		.record({type: fc.string({maxLength: 3}), uuid: text, parentUuid: text, logicalParentUuid: text, isSidechain: flag, isMeta: flag, isCompactSummary: flag, sessionId: text, cwd: text, timestamp: text, message, toolUseResult: fc.anything(), summary: text, content: fc.anything(), origin: fc.anything(), extra: fc.anything()}, {requiredKeys: ['type']})
		.map(value => JSON.parse(JSON.stringify(value)) as unknown);
}

test('the Gemini readers give what their schemas give', () => {
	const same = (parse: (value: unknown) => {success: boolean; data?: unknown; error?: unknown}, schema: Parameters<typeof agrees>[1]) => (value: unknown) => {
		const mine = parse(value);
		const theirs = schema.safeParse(value) as {success: boolean; data?: unknown; error?: {issues: unknown}};
		assert.deepEqual(canonical(mine.success ? mine.data : (mine.error as {issues: unknown}).issues), canonical(theirs.success ? theirs.data : theirs.error!.issues), JSON.stringify(value));
	};
	const odd = fc.oneof(fc.constant(null), fc.integer(), fc.constant([]), fc.constant({}), fc.string({maxLength: 2}));
	const message = fc.record({id: fc.oneof({weight: 5, arbitrary: fc.string({maxLength: 3})}, {weight: 1, arbitrary: odd}), type: odd, timestamp: odd, content: fc.anything(), toolCalls: fc.oneof(odd, fc.array(fc.anything(), {maxLength: 2})), model: odd, extra: odd}, {requiredKeys: []});
	const call = fc.record({id: odd, name: odd, args: fc.anything(), result: odd, status: odd, timestamp: odd, resultDisplay: odd}, {requiredKeys: []});
	const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map(value => JSON.parse(JSON.stringify(value)) as unknown);
	fc.assert(fc.property(fc.oneof(json(message), records(['id', 'type', 'toolCalls'], [])), same(parseGeminiMessage, geminiMessageSchema)), {seed, numRuns: 3000});
	fc.assert(fc.property(fc.oneof(json(call), records(['id', 'name', 'result'], [])), same(parseGeminiToolCall, geminiToolCallSchema)), {seed, numRuns: 3000});
});

test('the Grok chat readers give what their schemas give', () => {
	fc.assert(fc.property(records([...schemaKeys(grokChatItemSchema)], []), value => agrees(readGrokChatItem, grokChatItemSchema, value)), {seed, numRuns: 2000});
	fc.assert(fc.property(records([...schemaKeys(grokLegacyMessageSchema)], []), value => agrees(readGrokLegacyMessage, grokLegacyMessageSchema, value)), {seed, numRuns: 2000});
	agrees(readGrokLegacyMessage, grokLegacyMessageSchema, {role: 'assistant', tool_calls: [{id: 'a', function: {name: 'x', arguments: '{}'}}, {function: 2}]});
	agrees(readGrokChatItem, grokChatItemSchema, {type: 'assistant', tool_calls: [{id: 'a'}, null]});
});

test('the Grok summary and Cursor line readers give what their schemas give', () => {
	fc.assert(fc.property(records([...schemaKeys(grokSummarySchema)], ['info']), value => agrees(readGrokSummaryRecord, grokSummarySchema, value)), {seed, numRuns: 2000});
	fc.assert(fc.property(records([...schemaKeys(cursorMessageLineSchema)], ['message']), value => agrees(readCursorMessageLine, cursorMessageLineSchema, value)), {seed, numRuns: 2000});
	fc.assert(fc.property(records([...schemaKeys(cursorMarkerLineSchema)], []), value => agrees(readCursorMarkerLine, cursorMarkerLineSchema, value)), {seed, numRuns: 2000});
	agrees(readGrokSummaryRecord, grokSummarySchema, {info: {id: 'a', cwd: null}, generated_title: 3, extra: 1});
	agrees(readCursorMessageLine, cursorMessageLineSchema, {role: 'user', message: {content: [{type: 'text', text: 'hi'}]}});
	agrees(readCursorMessageLine, cursorMessageLineSchema, {role: 'user', message: []});
	agrees(readCursorMarkerLine, cursorMarkerLineSchema, {type: 'turn_ended', status: null, error: {message: 'x'}});
});

test('the Antigravity readers give what their schemas give', () => {
	const odd = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.constant([]), fc.constant({}), fc.string({maxLength: 2}));
	const step = fc.record({step_index: odd, source: odd, type: fc.oneof({weight: 5, arbitrary: fc.string({maxLength: 2})}, {weight: 1, arbitrary: odd}), status: odd, created_at: odd, content: odd, thinking: odd, tool_calls: fc.oneof(odd, fc.array(odd, {maxLength: 2})), truncated_fields: odd}, {requiredKeys: []});
	const call = fc.record({name: odd, args: odd, arguments: odd, id: odd, extra: odd}, {requiredKeys: []});
	const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map(value => JSON.parse(JSON.stringify(value)) as unknown);
	fc.assert(fc.property(fc.oneof(json(step), records(['type', 'step_index', 'tool_calls'], [])), value => agrees(readAntigravityStep, antigravityStepSchema, value)), {seed, numRuns: 3000});
	fc.assert(fc.property(fc.oneof(json(call), records(['name', 'id'], [])), value => agrees(readAntigravityToolCall, antigravityToolCallSchema, value)), {seed, numRuns: 2000});
});

test('the Qwen readers give what their schemas give', () => {
	const odd = fc.oneof(fc.constant(null), fc.integer(), fc.constant([]), fc.constant({}), fc.string({maxLength: 2}), fc.boolean());
	const record = fc.record({type: fc.oneof({weight: 5, arbitrary: fc.string({maxLength: 2})}, {weight: 1, arbitrary: odd}), subtype: odd, uuid: odd, parentUuid: odd, sessionId: odd, timestamp: odd, message: odd, provenance: odd, isSidechain: odd, extra: odd}, {requiredKeys: []});
	const message = fc.record({role: odd, parts: fc.oneof(odd, fc.array(odd, {maxLength: 2}))}, {requiredKeys: []});
	const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map(value => JSON.parse(JSON.stringify(value)) as unknown);
	fc.assert(
		fc.property(fc.oneof(json(record), records(['type', 'uuid', 'parentUuid', 'isSidechain'], [])), value => {
			const mine = parseQwenRecord(value);
			const theirs = qwenRecordSchema.safeParse(value);
			assert.deepEqual(canonical(mine.success ? mine.data : mine.error.issues), canonical(theirs.success ? theirs.data : theirs.error.issues), JSON.stringify(value));
		}),
		{seed, numRuns: 3000},
	);
	fc.assert(fc.property(fc.oneof(json(message), records(['role', 'parts'], [])), value => agrees(readQwenMessage, qwenMessageSchema, value)), {seed, numRuns: 2000});
});

const hostile: readonly unknown[] = [null, 0, -1.5, 'x', '', true, [], [1, 'a'], {}, {a: 1}, [{}], JSON.parse('{"__proto__":{"a":1}}')];

/**
 * Each hand reader against its schema, keyed off the schema itself: every key the schema declares
 * (at its own place, nested ones too), set to every kind of JSON value, and all of a schema's own
 * fields at once in the reverse of its order. A field the schema gains and the reader does not
 * learn fails here, whatever the generated records above happen to cover.
 */
test('every key each schema declares reads as its schema reads it, whatever its JSON type', () => {
	const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === 'object' && !Array.isArray(value);
	const onObjects = (read: (data: Record<string, unknown>) => unknown) => (value: unknown) => (isObject(value) ? read(value) : undefined);
	const viaParse = (parse: (value: unknown) => {success: boolean; data?: unknown}) => (value: unknown) => {
		const parsed = parse(value);
		return parsed.success ? parsed.data : undefined;
	};
	const claude = (value: unknown) => readClaudeRecord(value) ?? (claudeRecordSchema.safeParse(value).data as unknown);
	const cases: Array<[string, (value: unknown) => unknown, Parameters<typeof agrees>[1], Record<string, unknown>]> = [
		['readOpencodeMessage', readOpencodeMessage, opencodeMessageSchema, {role: 'user'}],
		['readOpencodePart', readOpencodePart, opencodePartSchema, {type: 'tool'}],
		['readCodexResponseItem', readCodexResponseItem, codexResponseItemSchema, {type: 'message'}],
		['readCodexEvent', readCodexEvent, codexEventSchema, {type: 'user_message'}],
		['readCodexTurnContext', readCodexTurnContext, codexTurnContextSchema, {}],
		['readCopilotEnvelope', readCopilotEnvelope, copilotEnvelopeSchema, {type: 'user.message'}],
		['readCopilotTool', onObjects(readCopilotTool), copilotToolSchema, {}],
		['readCopilotUserMessage', onObjects(readCopilotUserMessage), copilotUserMessageSchema, {}],
		['readCopilotAssistantMessage', onObjects(readCopilotAssistantMessage), copilotAssistantMessageSchema, {}],
		['readCopilotSessionData', onObjects(readCopilotSessionData), copilotSessionDataSchema, {}],
		['readClaudeRecord', claude, claudeRecordSchema, {type: 'user'}],
		['parseGeminiMessage', viaParse(parseGeminiMessage), geminiMessageSchema, {id: 'm1'}],
		['parseGeminiToolCall', viaParse(parseGeminiToolCall), geminiToolCallSchema, {}],
		['readGrokChatItem', readGrokChatItem, grokChatItemSchema, {type: 'assistant'}],
		['readGrokLegacyMessage', readGrokLegacyMessage, grokLegacyMessageSchema, {role: 'assistant'}],
		['readGrokSummaryRecord', readGrokSummaryRecord, grokSummarySchema, {}],
		['readCursorMessageLine', readCursorMessageLine, cursorMessageLineSchema, {role: 'user'}],
		['readCursorMarkerLine', readCursorMarkerLine, cursorMarkerLineSchema, {type: 'turn_ended'}],
		['readAntigravityStep', readAntigravityStep, antigravityStepSchema, {type: 'PLANNER_RESPONSE'}],
		['readAntigravityToolCall', readAntigravityToolCall, antigravityToolCallSchema, {}],
		['parseQwenRecord', viaParse(parseQwenRecord), qwenRecordSchema, {type: 'user'}],
		['readQwenMessage', readQwenMessage, qwenMessageSchema, {}],
	];
	const drifted = new Set<string>();
	for (const [name, read, schema, base] of cases) {
		assert.ok(schemaPaths(schema).length > 0, `${name}: no keys found in its schema`);
		const outer = Object.keys((schema as unknown as ZodLike)._zod.def.shape ?? {});
		// All the fields at once, in the reverse of the schema's order: the output's order is the schema's.
		for (const value of hostile) {
			const record = {extra: 1, ...Object.fromEntries(outer.toReversed().map(key => [key, value])), ...base};
			const parsed = schema.safeParse(record);
			try {
				assert.deepEqual(canonical(read(record)), canonical(parsed.success ? parsed.data : undefined));
			} catch {
				drifted.add(`${name}: the order of its fields`);
			}
		}

		for (const path of schemaPaths(schema)) {
			for (const value of hostile) {
				const record = {...base, ...(placed(path, value) as Record<string, unknown>)};
				const parsed = schema.safeParse(record);
				try {
					assert.deepEqual(canonical(read(record)), canonical(parsed.success ? parsed.data : undefined));
				} catch {
					drifted.add(`${name}: ${path.join('.')}`);
				}
			}
		}
	}

	assert.deepEqual([...drifted], [], 'fields whose hand reader reads otherwise than its schema');
});

test('a loose object of more fields than one word of bits finds each the input has, in the schema\'s order, whatever its place', () => {
	const names = Array.from({length: 96}, (_, index) => `f${index}`);
	const shape = fields(Object.fromEntries(names.map((name, index) => [name, index % 2 === 0 ? any : text])));
	fc.assert(
		fc.property(fc.subarray(names), fc.boolean(), (present, extra) => {
			// The input's keys in reverse, an unknown key among them: the output follows the schema.
			const input = JSON.parse(`{${[...present].reverse().map(name => `"${name}":${name.length}`).join(',')}${extra ? `${present.length > 0 ? ',' : ''}"extra":"x"` : ''}}`) as Record<string, unknown>;
			const expected = [...present.map(name => [name, Number(name.slice(1)) % 2 === 0 ? name.length : undefined]), ...(extra ? [['extra', 'x']] : [])];
			assert.deepEqual(Object.entries(looseObject(input, shape)), expected);
			const strict = strictObject(input, fields(Object.fromEntries(names.map(name => [name, (value: unknown) => (name === 'f70' ? refused : value)]))));
			assert.equal(strict === refused, present.includes('f70'), 'a field refused refuses the object, beyond the first word too');
		}),
		{seed, numRuns: 500},
	);
	assert.throws(() => fields(Object.fromEntries(Array.from({length: 97}, (_, index) => [`g${index}`, any]))), RangeError);
});
