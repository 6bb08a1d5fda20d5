import assert from 'node:assert/strict';
import {readFileSync} from 'node:fs';
import test from 'node:test';
import {maximumMatch, planQuery} from '../source/engine/search/query-plan.js';
import {findSecrets, maskSecrets} from '../source/engine/search/secrets.js';
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

test('secrets: each credential shape is found, named and masked; nothing else is touched', () => {
	const samples: Array<[string, string]> = [
		['aws_access_key_id', 'key AKIAIOSFODNN7EXAMPLE here'],
		['github_token', `token ghp_${'a'.repeat(36)}`],
		['gitlab_token', 'glpat-abcdefghijklmnopqrstu'],
		['slack_token', 'xoxb-1234567890-abcdefghij'],
		['openai_api_key', `sk-proj-${'Ab1'.repeat(10)}`],
		['anthropic_api_key', `sk-ant-api03-${'x'.repeat(30)}`],
		['jwt', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'],
		['private_key_block', '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----'],
		['password_assignment', 'password = hunter2hunter2'],
		['secret_named_value', 'DATABASE_PASSWORD=Zx9vQ2mL7kP4tR8w'],
	];
	for (const [pattern, text] of samples) {
		const found = findSecrets(text);
		assert.ok(found.some(finding => finding.pattern === pattern), `${pattern} in ${JSON.stringify(text)}: ${JSON.stringify(found)}`);
		assert.match(maskSecrets(text), /\[redacted:[a-z_]+\]/);
	}

	assert.deepEqual(findSecrets('run npm test and open src/parser.ts; the token budget is 2000'), []);
	assert.equal(maskSecrets('nothing secret here'), 'nothing secret here');
});

async function chineseKb(t: Parameters<typeof tempDir>[0]) {
	const root = tempDir(t);
	const deps: Deps = {env: {HOME: root}, cwd: root, now: () => new Date('2026-11-20T10:00:00Z'), platform: process.platform};
	initKnowledgeBase({path: root, register: false, force: true}, deps);
	const paths = kbPaths(root);
	await appendEvents(paths, notes.map(note => ({op: 'node.upsert' as const, payload: note})), deps);
	const query = async (q: string, extra: Partial<QueryInput> = {}) =>
		(await queryKnowledge(paths, {q, view: 'hits', includeExpired: false, limit: 100, offset: 0, truncated: false, localScan: false, ...extra}, deps)).output;
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
