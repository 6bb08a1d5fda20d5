import assert from 'node:assert/strict';
import {readFileSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import type {Deps} from '../source/engine/deps.js';
import {locateSession} from '../source/engine/conversation/locate.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {briefOf} from '../source/engine/sessions/resume.js';
import {estimateTokens, exactTokenCounter} from '../source/engine/tokens.js';
import {fixtureStores} from './helpers/adapters.js';
import {sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './helpers/fixture-home.js';
import {tempDir} from './helpers/temp.js';

function fixtureTexts(): string[] {
	const texts: string[] = [];
	for (const name of readdirSync(fixtureStores, {recursive: true, encoding: 'utf8'})) {
		const path = join(fixtureStores, name);
		if (statSync(path).isFile() && /\.(jsonl?|md|yaml)$/.test(name)) {
			texts.push(readFileSync(path, 'utf8'));
		}
	}

	return texts;
}

test('the token estimate never under-counts o200k on the fixture corpus, English, code and Chinese', async () => {
	const exact = await exactTokenCounter();
	const samples = [
		...fixtureTexts(),
		readFileSync(new URL('../README.md', import.meta.url), 'utf8'),
		readFileSync(new URL('../source/engine/sessions/tail.ts', import.meta.url), 'utf8'),
		'方鸿渐的教授去留学。他在上海的一家银行找到了工作，但是生活并不如意。'.repeat(40),
		'混合 mixed 文本 with 中文 and English, 数字 12345 和 identifiers like parseJsonLine() 以及路径 /src/engine/tokens.ts。'.repeat(20),
		Array.from({length: 60}, (_, index) => `${index.toString(16).padStart(8, 'f')}-4b2a-9c3d-${(index * 7919).toString(36)}`).join(' '),
	];
	let checked = 0;
	for (const text of samples) {
		for (let start = 0; start < text.length; start += 1500) {
			const piece = text.slice(start, start + 1500);
			const truth = exact(piece);
			assert.ok(estimateTokens(piece) >= truth, `estimate ${estimateTokens(piece)} < exact ${truth} for ${JSON.stringify(piece.slice(0, 60))}`);
			checked++;
		}
	}

	assert.ok(checked > 50, `checked ${checked} pieces`);
});

test('briefs of every fixture session never exceed their budget, by exact o200k count', {timeout: 300_000}, async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const deps: Deps = {env, cwd: base, now: () => new Date('2026-11-29T12:00:00Z'), platform: process.platform};
	const sessions = listSessions({allProjects: true, includeSubagents: true, limit: 500, offset: 0}, deps).sessions.filter(session => session.error === null);
	assert.ok(sessions.length >= 40, `${sessions.length} sessions`);
	assert.deepEqual(new Set(sessions.map(session => session.source)).size, 10, 'every source is represented');
	const exact = await exactTokenCounter();
	const budgets = [400, 700, 1000, 1500, 2000, 4000];
	let fitted = 0;
	let refused = 0;
	for (const session of sessions) {
		const located = locateSession({id: session.id, source: session.source}, deps);
		try {
			for (const budget of budgets) {
				let brief;
				try {
					brief = await briefOf(located, {budget, exactTokens: false, cwd: process.cwd()});
				} catch (error) {
					assert.equal((error as {code?: string}).code, 'budget_too_small', String(error));
					assert.ok(budget < 1000, `${session.id}: even ${budget} tokens were refused`);
					refused++;
					continue;
				}

				const printed = JSON.stringify({schema: 'engi.resume.v1', ...brief});
				const truth = exact(printed);
				assert.ok(truth <= budget, `${session.source} ${session.id} at budget ${budget}: ${truth} tokens`);
				assert.ok(brief.tokens >= truth, `the reported estimate ${brief.tokens} must not be below the exact ${truth}`);
				assert.equal(brief.tokens_exact, false);
				fitted++;
			}

			const precise = await briefOf(located, {budget: 1000, exactTokens: true, cwd: process.cwd()}).catch(() => undefined);
			if (precise) {
				assert.equal(precise.tokens, exact(JSON.stringify({schema: 'engi.resume.v1', ...precise})), `${session.id}: --exact-tokens is exact`);
				assert.ok(precise.tokens <= 1000);
			}
		} finally {
			located.view.close();
		}
	}

	assert.ok(fitted > refused * 3, `${fitted} briefs fitted, ${refused} budgets refused as too small`);
});

test('a brief drops the least recent optional items first and says what it omitted', async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const deps: Deps = {env, cwd: base, now: () => new Date('2026-11-29T12:00:00Z'), platform: process.platform};
	const located = locateSession({id: '11111111-1111-4111-8111-111111111111', source: 'claude'}, deps);
	try {
		const full = await briefOf(located, {budget: 100_000, exactTokens: false, cwd: process.cwd()});
		assert.deepEqual(full.omitted, []);
		assert.deepEqual(full.files_touched.map(file => file.path), ['/work/app/src/parser.ts', '/work/app/src/lines.ts']);
		assert.deepEqual(full.commands.map(command => [command.command, command.status, command.exit_code]), [['npm test', 'failed', 1]]);
		assert.deepEqual([full.first_request?.line, full.first_request?.text], [3, '/review'], 'the command the person typed first');
		assert.equal(full.latest_user?.text, 'Now also handle CRLF line endings');
		assert.match(full.notice, /untrusted evidence/);
		assert.deepEqual(full.expand, ['engi read 11111111-1111-4111-8111-111111111111 --source claude --lines 3,8,11,12,13,14,19,20,21,22']);
		const tight = await briefOf(located, {budget: full.tokens - 120, exactTokens: false, cwd: process.cwd()});
		assert.ok(tight.tokens <= full.tokens - 120);
		assert.ok(tight.omitted.length > 0);
		const kept = [...tight.files_touched, ...tight.commands, ...tight.tool_failures].map(item => item.line);
		const dropped = [...full.files_touched, ...full.commands, ...full.tool_failures].map(item => item.line).filter(line => !kept.includes(line));
		assert.ok(dropped.length > 0 && Math.max(...dropped) <= Math.min(...kept, Number.POSITIVE_INFINITY), `dropped ${dropped} before keeping ${kept}`);
	} finally {
		located.view.close();
	}
});
