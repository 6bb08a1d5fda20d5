import assert from 'node:assert/strict';
import {readFileSync, readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import type {Deps} from '../source/engine/deps.js';
import {withLocatedSession} from '../source/engine/conversation/locate.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {briefOf} from '../source/engine/continuity/resume.js';
import {estimateTokens, exactTokenCounter} from '../source/engine/tokens.js';
import {fixtureStores} from './helpers/adapters.js';
import {sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
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
		readFileSync(new URL('../source/engine/continuity/tail.ts', import.meta.url), 'utf8'),
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
	const sessions = (await listSessions({allProjects: true, includeSubagents: true, limit: 500, offset: 0}, deps)).sessions.filter(session => session.error === null);
	assert.ok(sessions.length >= 40, `${sessions.length} sessions`);
	assert.deepEqual(new Set(sessions.map(session => session.source)).size, 10, 'every source is represented');
	const exact = await exactTokenCounter();
	const budgets = [400, 700, 1000, 1500, 2000, 4000];
	let fitted = 0;
	let refused = 0;
	let largest = 0;
	for (const session of sessions) {
		await withLocatedSession({id: session.id, source: session.source}, deps, async located => {
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

			// The smallest brief: everything a budget can take away is gone. It stays small.
			const skeleton = await briefOf(located, {budget: 50, exactTokens: true, cwd: process.cwd()}).catch((error: unknown) => Number(/at least (\d+)/.exec(String((error as {hint?: string}).hint))?.[1]));
			const smallest = typeof skeleton === 'number' ? skeleton : skeleton.tokens;
			assert.ok(smallest <= 360, `${session.source} ${session.id}: the smallest brief needs ${smallest} o200k tokens`);
			largest = Math.max(largest, smallest);
			const precise = await briefOf(located, {budget: 1000, exactTokens: true, cwd: process.cwd()}).catch(() => undefined);
			if (precise) {
				assert.equal(precise.tokens, exact(JSON.stringify({schema: 'engi.resume.v1', ...precise})), `${session.id}: --exact-tokens is exact`);
				assert.ok(precise.tokens <= 1000);
			}
		});
	}

	assert.ok(fitted > refused * 3, `${fitted} briefs fitted, ${refused} budgets refused as too small`);
	assert.ok(largest > 100, `the largest smallest brief is ${largest} tokens`);
});

test('a brief for a small budget gives up the least telling evidence first, and the pending call, with its command, last', async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const deps: Deps = {env, cwd: base, now: () => new Date('2026-11-29T12:00:00Z'), platform: process.platform};
	await withLocatedSession({id: '0195a1c2-0a00-7a00-8a00-00000000000a', source: 'codex'}, deps, async located => {
		const exact = await exactTokenCounter();
		const full = await briefOf(located, {budget: 100_000, exactTokens: true, cwd: process.cwd()});
		assert.deepEqual(full.omitted, {});
		assert.deepEqual(full.pending_calls.map(call => [call.line, call.tool, call.input]), [[47, 'shell_command', 'npm run lint -- --fix']], 'a pending call says what it was asked to run');
		assert.ok(!full.commands.some(command => command.line === 47), 'the pending command is listed once, under pending_calls');
		assert.equal(full.title, null, 'a title that repeats the first request is not said twice');
		assert.equal(full.first_request?.text, 'Fix the flaky retry test in the HTTP client');
		assert.equal(full.latest_user?.line, 45, 'the first copy of a prompt (event_msg) counts');
		assert.match(full.notice, /untrusted evidence/);
		assert.deepEqual(Object.keys(full).slice(0, 11), ['status', 'view', 'session_id', 'source', 'project', 'title', 'notice', 'pending_calls', 'tool_failures', 'unresolved', 'latest_user'], 'the most telling sections come first in the document');
		assert.deepEqual(full.expand, ['engi read 0195a1c2-0a00-7a00-8a00-00000000000a --source codex --lines 6,11,12,13,16,17,20,22,23,24,28,36,45,47']);

		let sawPartialCommands = false;
		for (let budget = full.tokens; budget > 150; budget -= 10) {
			let brief;
			try {
				brief = await briefOf(located, {budget, exactTokens: true, cwd: process.cwd()});
			} catch (error) {
				assert.equal((error as {code?: string}).code, 'budget_too_small');
				const needed = Number(/at least (\d+)/.exec(String((error as {hint?: string}).hint))?.[1]);
				const smallest = await briefOf(located, {budget: needed, exactTokens: true, cwd: process.cwd()});
				assert.ok(smallest.tokens <= needed, 'the hint names a budget that is enough');
				assert.ok(smallest.first_request !== null, 'the first request is shortened, never left out');
				break;
			}

			assert.ok(exact(JSON.stringify({schema: 'engi.resume.v1', ...brief})) <= budget);
			const lost = (section: 'files_touched' | 'commands' | 'tool_failures' | 'unresolved' | 'pending_calls') => brief[section].length < full[section].length;
			const emptied = (...sections: Array<'files_touched' | 'commands' | 'tool_failures' | 'unresolved'>) => sections.every(section => brief[section].length === 0);
			if (lost('commands')) {
				assert.ok(emptied('files_touched'), `${budget}: commands went before the files touched`);
			}

			if (brief.latest_assistant === null) {
				assert.ok(emptied('files_touched', 'commands') && brief.source_path === null, `${budget}: the reply went before files, commands and the path`);
			}

			if (lost('tool_failures')) {
				assert.equal(brief.latest_assistant, null, `${budget}: a failure went while the latest reply stayed`);
			}

			if (lost('pending_calls')) {
				assert.ok(emptied('tool_failures', 'unresolved'), `${budget}: the pending call went before the failures and markers`);
			}

			if (lost('commands') && brief.commands.length > 0) {
				sawPartialCommands = true;
				const kept = brief.commands.map(item => item.line);
				const dropped = full.commands.map(item => item.line).filter(line => !kept.includes(line));
				assert.ok(Math.max(...dropped) < Math.min(...kept), `${budget}: within a list the least recent go first: dropped ${dropped} before ${kept}`);
			}

			assert.deepEqual(Object.keys(brief.omitted), ['files_touched', 'commands', 'source_path', 'latest_assistant', 'resume_command', 'tool_failures', 'unresolved', 'pending_calls'].filter(section => section in brief.omitted), 'omissions are listed in the order they were made');
		}

		assert.ok(sawPartialCommands, 'some budget kept the newest commands only');
	});
});
