import assert from 'node:assert/strict';
import {cpSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {adapters} from '../../source/adapters/index.js';
import type {SourceId} from '../../source/adapters/types.js';
import {fixtureStores, readStore} from '../helpers/adapters.js';
import {fixtureMtime, settle} from '../fixtures/home.js';
import {tempDir} from '../helpers/temp.js';

/**
 * Tools that re-serialise transcripts (Python, pydantic) write every absent optional field as an
 * explicit `null` (formats.md, general rule 3). For each store, the fixture files are rewritten so,
 * and must read exactly as before: the same sessions, summaries and events. The fields are the
 * optional ones each adapter's schemas name, on the objects that carry them.
 */
type Object = Record<string, unknown>;
type Nulling = (value: Object) => void;

const isObject = (value: unknown): value is Object => value !== null && typeof value === 'object' && !Array.isArray(value);
const withNulls = (keys: readonly string[]) => (value: Object) => {
	for (const key of keys) {
		if (!(key in value)) {
			value[key] = null;
		}
	}
};

const inner = (key: string, nulling: Nulling): Nulling => value => {
	const nested = value[key];
	if (isObject(nested)) {
		nulling(nested);
	}
};

const each = (key: string, nulling: Nulling): Nulling => value => {
	const list = value[key];
	if (Array.isArray(list)) {
		list.filter(isObject).forEach(nulling);
	}
};

const all = (...nullings: Nulling[]): Nulling => value => {
	for (const nulling of nullings) {
		nulling(value);
	}
};

const request = withNulls(['isCanceled', 'modelId', 'result', 'timestamp', 'responseId', 'modelState']);
const geminiMessage = all(withNulls(['type', 'timestamp', 'toolCalls', 'model']), each('toolCalls', withNulls(['id', 'status', 'timestamp'])));

const cases: Partial<Record<SourceId, {files: RegExp; nulling: Nulling}>> = {
	claude: {
		files: /\.jsonl$/,
		nulling: all(
			withNulls(['subtype', 'isMeta', 'isCompactSummary', 'isApiErrorMessage', 'agentId', 'toolDenialKind', 'summary', 'leafUuid', 'customTitle', 'aiTitle', 'title', 'isSidechain', 'sessionId', 'cwd', 'timestamp', 'message']),
			inner('message', withNulls(['id', 'role', 'model', 'content'])),
		),
	},
	codex: {
		files: /\.jsonl$/,
		nulling: inner('payload', withNulls(['id', 'role', 'name', 'call_id', 'status', 'author', 'recipient', 'revised_prompt', 'message', 'reason', 'exit_code', 'success', 'stdout', 'stderr', 'aggregated_output', 'formatted_output', 'thread_name', 'cwd', 'originator', 'cli_version', 'thread_source', 'forked_from_id', 'parent_thread_id', 'model', 'kind'])),
	},
	copilot: {
		files: /\.jsonl$/,
		nulling: all(withNulls(['id', 'parentId', 'agentId', 'ephemeral']), inner('data', withNulls(['content', 'source', 'messageId', 'toolCallId', 'toolName', 'success', 'reason', 'message', 'selectedModel', 'sessionId', 'isAutopilotContinuation', 'parentToolCallId', 'toolRequests']))),
	},
	cursor: {files: /\.jsonl$/, nulling: withNulls(['status'])},
	antigravity: {files: /\.jsonl$/, nulling: withNulls(['status', 'source', 'created_at', 'content', 'tool_calls', 'truncated_fields', 'step_index'])},
	qwen: {files: /\.jsonl$/, nulling: withNulls(['subtype', 'uuid', 'sessionId', 'timestamp', 'cwd', 'model', 'provenance', 'agentId', 'isSidechain'])},
	gemini: {
		files: /\.jsonl?$/,
		nulling: value => {
			if (typeof value['id'] === 'string') {
				geminiMessage(value);
			} else if (typeof value['sessionId'] === 'string') {
				withNulls(['summary', 'kind', 'directories', 'lastUpdated', 'startTime', 'projectHash'])(value);
				each('messages', geminiMessage)(value);
			}
		},
	},
	grok: {
		files: /(chat_history|updates)\.jsonl$/,
		nulling: all(withNulls(['synthetic_reason', 'prior_turn_interrupt', 'prompt_index', 'tool_calls', 'tool_call_id', 'model_id']), inner('params', inner('update', withNulls(['toolCallId', 'title', 'kind', 'status', 'messageId', '_meta'])))),
	},
	vscode: {
		files: /chatSessions\/[^/]+\.jsonl?$/,
		nulling: value => {
			if (typeof value['kind'] === 'number' && value['kind'] === 2) {
				withNulls(['i'])(value);
			}

			const state = isObject(value['v']) ? value['v'] : value;
			withNulls(['customTitle', 'lastMessageDate'])(state);
			each('requests', request)(state);
		},
	},
};

/** Rewrites a JSONL file line by line (lines that do not parse stay as they are) or a JSON document. */
function rewrite(path: string, nulling: Nulling): void {
	const text = readFileSync(path, 'utf8');
	const rewriteValue = (value: unknown) => {
		if (isObject(value)) {
			nulling(value);
		}

		return value;
	};

	if (path.endsWith('.json')) {
		try {
			writeFileSync(path, JSON.stringify(rewriteValue(JSON.parse(text)), null, 2));
		} catch {
			return; // A torn document stays torn.
		}
	} else {
		const lines = text.split('\n').map(line => {
			try {
				return line.trim() === '' ? line : JSON.stringify(rewriteValue(JSON.parse(line)));
			} catch {
				return line;
			}
		});
		writeFileSync(path, lines.join('\n'));
	}
}

for (const [source, {files, nulling}] of Object.entries(cases) as Array<[SourceId, {files: RegExp; nulling: Nulling}]>) {
	test(`${source}: a transcript re-serialised with explicit nulls reads exactly as before`, t => {
		const adapter = adapters[source];
		const base = tempDir(t);
		const original = join(base, 'as-written');
		const copy = join(base, 'with-nulls');
		cpSync(join(fixtureStores, source), original, {recursive: true});
		cpSync(join(fixtureStores, source), copy, {recursive: true});
		let rewritten = 0;
		for (const name of readdirSync(copy, {recursive: true, encoding: 'utf8'})) {
			const path = join(copy, name);
			if (statSync(path).isFile() && files.test(name)) {
				rewrite(path, nulling);
				rewritten++;
			}
		}

		assert.ok(rewritten > 0, `${source}: some fixture files were rewritten`);
		// Sessions without times of their own are as recent as their files: give both copies one time.
		settle(original, fixtureMtime);
		settle(copy, fixtureMtime);
		const read = (root: string) => new Map(readStore(adapter, root).map(session => [session.summary.id, {summary: session.summary, events: session.events, skipped: session.loaded.skipped}]));
		const before = read(original);
		const after = read(copy);
		assert.deepEqual([...after.keys()].sort(), [...before.keys()].sort(), 'no session vanishes');
		for (const [id, session] of before) {
			assert.deepEqual(after.get(id), session, `${source} ${id}: the same summary, events and skipped count`);
		}
	});
}
