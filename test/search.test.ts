import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';
import fc from 'fast-check';
import {maximumMatch, planQuery} from '../source/engine/search/query-plan.js';
import {clipMasked, findSecrets, maskedHead, maskedTail, maskSecrets, maskValue, mayContainSecret, secretKeyStrength, secretPatterns} from '../source/engine/search/secrets.js';
import {canaries, canaryText, leakedNeedles} from './helpers/canaries.js';
import {segmentForIndex} from '../source/engine/search/segment.js';
import {kbPaths} from '../source/engine/kb/paths.js';
import {initKnowledgeBase} from '../source/engine/kb/init.js';
import {appendEvents} from '../source/engine/journal/append.js';
import {queryKnowledge, type QueryInput} from '../source/engine/knowledge/query.js';
import {openIndex} from '../source/engine/index/open.js';
import type {Deps} from '../source/engine/deps.js';
import {tempDir} from './helpers/temp.js';

const notes = JSON.parse(readFileSync(new URL('fixtures/kb/zh-notes.json', import.meta.url), 'utf8')) as Array<{id: string; kind: string; label: string; body: string}>;

test('query planning: all meaningful words required, stop-words dropped, Han runs by maximum match with a verbatim fallback', () => {
	const known = new Set(['方鸿渐', '教授', '留学', '的']);
	assert.deepEqual(maximumMatch('方鸿渐的教授去留学', word => known.has(word)), ['方鸿渐', '的', '教授', '去', '留学']);
	const plan = planQuery('The streaming parser 教授去留学', word => known.has(word))!;
	assert.deepEqual(plan.terms.map(term => term.text), ['streaming', 'parser', '教授去留学']);
	assert.equal(plan.match, '"streaming" AND "parser" AND (chars : "教 授 去 留 学" OR words : ("教授" AND "去" AND "留学"))');
	assert.equal(planQuery('the of', () => false)!.match, '"the" AND "of"', 'a query of only stop-words keeps them');
	assert.equal(planQuery('  ?!  ', () => false), undefined);
	assert.equal(planQuery('task:fts "x"', () => false)!.match, '"task" AND "fts" AND "x"', 'syntax characters never reach FTS5');
});

test('segmentation: Latin text passes through, Han runs get jieba words and a character stream', () => {
	assert.deepEqual(segmentForIndex('plain English text'), {words: 'plain English text', chars: ''});
	const mixed = segmentForIndex('用 SQLite 做全文检索');
	assert.match(mixed.words, /SQLite/);
	assert.equal(mixed.chars, '用 做 全 文 检 索');
	assert.ok(mixed.words.split(/\s+/).includes('全文检索') || mixed.words.split(/\s+/).includes('检索'));
});

test('secrets: every pattern has a canary, which is found, named, masked and passes the pre-check', () => {
	const covered = new Set(canaries.map(canary => canary.pattern));
	assert.deepEqual(secretPatterns.map(pattern => pattern.name).filter(name => !covered.has(name)), [], 'a pattern without a canary is untested');
	for (const canary of canaries) {
		assert.ok(mayContainSecret(canary.text), `the pre-check lets ${canary.pattern} through: ${canary.text}`);
		assert.ok(findSecrets(canary.text).some(finding => finding.pattern === canary.pattern), `${canary.pattern} in ${JSON.stringify(canary.text)}: ${JSON.stringify(findSecrets(canary.text))}`);
		const masked = maskSecrets(canary.text);
		assert.match(masked, new RegExp(`\\[redacted:${canary.pattern}\\]`));
		assert.deepEqual(leakedNeedles(masked), [], masked);
		// Where text is itself JSON (tool arguments, printed documents) secrets follow escapes and sit in escaped quotes.
		const escaped = JSON.stringify({output: `result:\n${canary.text}\n`});
		assert.deepEqual(leakedNeedles(maskSecrets(escaped)), [], maskSecrets(escaped));
	}

	assert.deepEqual(leakedNeedles(maskSecrets(canaryText)), [], 'all of them at once');
});

test('secrets: keys by name, values by shape; the host of a URL and the key stay readable', () => {
	const masked: Array<[string, string]> = [
		['postgres://app:Sup3rS3cret@db.internal:5432/prod', 'postgres://app:[redacted:url_password]@db.internal:5432/prod'],
		['redis://:hunter2@cache:6379', 'redis://:[redacted:url_password]@cache:6379'],
		['{"SecretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}', '{"SecretAccessKey": "[redacted:secret_assignment]"}'],
		['"SessionToken": "FwoGZXIvYXdzEJr//////////wEaDExampleToken1234"', '"SessionToken": "[redacted:secret_assignment]"'],
		['password = hunter2hunter2', 'password = [redacted:secret_assignment]'],
		['DATABASE_PASSWORD=Zx9vQ2mL7kP4tR8w', 'DATABASE_PASSWORD=[redacted:secret_assignment]'],
		['DB_PASSWORD=correcthorse', 'DB_PASSWORD=[redacted:secret_assignment]'],
		['export NPM_TOKEN=npm_abcdefghijklmnop1234', 'export NPM_TOKEN=[redacted:secret_assignment]'],
		['client_secret: "abcdef1234"', 'client_secret: "[redacted:secret_assignment]"'],
		["PGPASSWORD='s3cr3t-pass'", "PGPASSWORD='[redacted:secret_assignment]'"],
		['"auth": "dXNlcjpwYXNz"', '"auth": "[redacted:secret_assignment]"'],
		['Authorization: Bearer abcdef1234567890abcdef', 'Authorization: [redacted:bearer_token]'],
		['{\\"password\\": \\"s3cretValue\\"}', '{\\"password\\": \\"[redacted:secret_assignment]\\"}'],
	];
	for (const [text, expected] of masked) {
		assert.equal(maskSecrets(text), expected, text);
	}

	const prose = [
		'run npm test and open src/parser.ts; the token budget is 2000',
		'the token count is 5000 and token budget: 2000',
		'token_count: 12345',
		'password: string;',
		'function login(user: string, password: string): Promise<Session>',
		'const password = getPassword();',
		'api_key: process.env.API_KEY',
		'password_file=/run/secrets/db2',
		'pwd: /home/user/project2',
		'tokenizer: "o200k_base"',
		'"auth": "required"',
		'Bearer tokens are described in RFC 6750',
		'see https://example.com:8080/path and git@github.com:me/repo',
		'the key: value pairs of a monkey: keyboard42',
		'export GITHUB_TOKEN=$(gh auth token)',
		'password: "${DB_PASSWORD}"',
		'already masked: password = [redacted:secret_assignment]',
		'nothing secret here',
		'tasksk-proj-abcdefghijklmnopqrstuvwxyz and xAKIAIOSFODNN7EXAMPLE are parts of words',
	];
	for (const text of prose) {
		assert.deepEqual(findSecrets(text), [], text);
		assert.equal(maskSecrets(text), text);
	}

	assert.deepEqual(['SecretAccessKey', 'AWS_SECRET_ACCESS_KEY', 'sessionToken', 'x-api-key', 'PGPASSWORD', 'private_key'].map(secretKeyStrength), ['strong', 'strong', 'strong', 'strong', 'strong', 'strong']);
	assert.deepEqual(['token', 'auth', 'npmToken'].map(secretKeyStrength), ['weak', 'weak', 'weak']);
	assert.deepEqual(['token_count', 'max_tokens', 'tokenizer', 'password_file', 'author', 'keyboard'].map(secretKeyStrength), ['none', 'none', 'none', 'none', 'none', 'none']);
});

test('secrets: a key is masked to its last character, whatever characters of its alphabet it ends in', () => {
	const alphabet = (characters: string, length: number, most = length) => fc.string({unit: fc.constantFrom(...characters), minLength: length, maxLength: most});
	const word = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
	// Each shape with the characters its alphabet may end in; the last one is always a `-` (or `/`, `=`) here.
	const shapes: Array<[string, fc.Arbitrary<string>]> = [
		['openai_api_key', alphabet(`${word}_-`, 20, 120).map(body => `sk-proj-${body}-`)],
		['anthropic_api_key', alphabet(`${word}_-`, 20, 100).map(body => `sk-ant-api03-${body}-`)],
		['gitlab_token', alphabet(`${word}_-`, 20, 40).map(body => `glpat-${body}-`)],
		['slack_token', alphabet(`${word}-`, 10, 60).map(body => `xoxb-${body}-`)],
		['google_api_key', alphabet(`${word}_-`, 34).map(body => `AIza${body}-`)],
		['jwt', fc.tuple(alphabet(`${word}_-`, 8, 40), alphabet(`${word}_-`, 8, 40), alphabet(`${word}_-`, 8, 60)).map(([a, b, c]) => `eyJ${a}.eyJ${b}.${c}-`)],
		['aws_secret_access_key', alphabet(`${word}/+`, 39).map(body => `aws_secret_access_key = ${body}/`)],
	];
	for (const [name, keys] of shapes) {
		fc.assert(
			fc.property(keys, fc.constantFrom(' ', '\n', '"', ','), (key, after) => {
				const masked = maskSecrets(`key follows: ${key}${after}end`);
				assert.equal(masked, `key follows: [redacted:${name}]${after}end`, `${name}: ${key}`);
			}),
			{numRuns: 300},
		);
	}
});

test('secrets: a secret straddling a cut is masked whole; raw records are masked by key name too', () => {
	const token = `ghp_${'A1'.repeat(20)}`;
	for (const cut of [5, 100, 230, 236, 260]) {
		const text = `${'x '.repeat(cut / 2)}${token} and more`;
		const head = maskedHead(text, 240).slice(0, 240);
		assert.ok(!head.includes('A1A1'), `head cut at ${cut}: ${head}`);
		const tail = maskedTail(`start ${text}`, cut).slice(-cut);
		assert.ok(!tail.includes('A1A1'), `tail of ${cut}: ${tail}`);
	}

	const pem = `-----BEGIN PRIVATE KEY-----\n${'QUJD'.repeat(400)}\n-----END PRIVATE KEY-----\ntrailer`;
	assert.ok(!maskedTail(pem, 200).includes('QUJD'), 'a PEM body whose armour lies before the window');
	// A key block longer than the first window is read whole: what follows it is shown, masked, up to the cut.
	assert.deepEqual(clipMasked(`key:\n${pem} ${'more '.repeat(400)}`, 100, {oneLine: true}), {text: `${`key: [redacted:private_key_block] trailer ${'more '.repeat(20)}`.slice(0, 99)}…`, truncated: true}, 'a long PEM block is masked whole, and the cut is marked');
	assert.deepEqual(clipMasked(`key:\n${pem.slice(0, 1500)}`, 100, {oneLine: true}), {text: 'key: [redacted:private_key_block]', truncated: false}, 'a PEM block never closed masks to the end');
	assert.deepEqual(clipMasked(`  ${token}  `.trim(), 20), {text: '[redacted:github_to…', truncated: true});
	assert.deepEqual(clipMasked('short', 20), {text: 'short', truncated: false});
	assert.deepEqual(maskValue({Credentials: {SecretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY', Expiration: '2026-11-20T10:00:00Z'}, note: 'key AKIAIOSFODNN7EXAMPLE', count: 3}), {
		Credentials: {SecretAccessKey: '[redacted:secret_assignment]', Expiration: '2026-11-20T10:00:00Z'},
		note: 'key [redacted:aws_access_key_id]',
		count: 3,
	});
});

async function chineseKb(t: Parameters<typeof tempDir>[0]) {
	const root = tempDir(t);
	const deps: Deps = {env: {HOME: root}, cwd: root, now: () => new Date('2026-11-20T10:00:00Z'), platform: process.platform};
	initKnowledgeBase({path: root, register: false, force: true}, deps);
	const paths = kbPaths(root);
	await appendEvents(paths, notes.map(note => ({op: 'node.upsert' as const, payload: note})), deps);
	const query = async (q: string, extra: Partial<QueryInput> = {}) =>
		(await queryKnowledge(paths, {q, view: 'hits', limit: 100, ...extra}, deps)).output;
	return {paths, deps, query};
}

test('recall: every query whose text occurs verbatim in a document finds that document (substring oracle)', {timeout: 120_000}, async t => {
	const {query} = await chineseKb(t);
	let queries = 0;
	for (const note of notes) {
		const text = `${note.label}\n${note.body}`;
		const runs = text.match(/\p{Script=Han}+/gu) ?? [];
		for (const run of runs) {
			for (let start = 0; start < run.length; start += 3) {
				for (const length of [2, 3, 5]) {
					const needle = [...run].slice(start, start + length).join('');
					if ([...needle].length < 2) {
						continue;
					}

					const expected = notes.filter(candidate => `${candidate.label}\n${candidate.body}`.includes(needle)).map(candidate => candidate.id).sort();
					const result = await query(needle);
					const found = result.view === 'hits' ? result.hits.map(hit => hit.node_id) : [];
					for (const id of expected) {
						assert.ok(found.includes(id), `"${needle}" occurs in ${id} but the query found ${JSON.stringify(found)}`);
					}

					queries++;
				}
			}
		}
	}

	assert.ok(queries > 150, `${queries} queries`);
	const mixed = await query('FTS5 无内容表');
	assert.deepEqual(mixed.view === 'hits' && mixed.hits.map(hit => hit.node_id), ['decision:zh-4'], 'mixed Latin and Chinese');
	const both = await query('退避 抖动');
	assert.deepEqual(both.view === 'hits' && both.hits.map(hit => hit.node_id), ['task:zh-2'], 'every term is required');
	const none = await query('退避 快照');
	assert.equal(none.state, 'empty');
});

test('the same query gives the same answer after the index is rebuilt', async t => {
	const {paths, deps, query} = await chineseKb(t);
	const before = JSON.stringify(await query('检查点'));
	const index = openIndex(paths, deps, {forceRebuild: true});
	index.close();
	assert.equal(JSON.stringify(await query('检查点')), before);
});
