/** @jsxRuntime automatic */
/** @jsxImportSource react */
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../../source/engine/deps.js';
import {createEngineClient, type EngineClient} from '../../source/screens/engine-client.js';
import {shellWord} from '../../source/lib/words.js';
import {repoRoot, runCli, sandboxEnv} from './cli.js';
import {edge, node, pinsOf, writeJson, writeKb} from './evidence.js';
import {buildFixtureHome, settle} from '../fixtures/home.js';
import type {KbSandbox} from './kb.js';
import {attestWithKnowledge, longAgo} from './retention.js';
import {tempDir} from './temp.js';

export const fixedNow = new Date('2026-11-29T12:00:00Z');

export type ScreenWorld = {env: Record<string, string>; deps: Deps; client: EngineClient; kb: string; project: string};

/**
 * A real engine over the committed fixture stores and a small knowledge base in a temp
 * directory: the same data the CLI's JSON face prints, for screens to render.
 */
export async function screenWorld(t: Parameters<typeof tempDir>[0], options: {knowledgeBase?: boolean} = {}): Promise<ScreenWorld> {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const kb = join(base, 'kb');
	// The working directory is a git project, as where a person opens the dashboard; checkpoints
	// of fixture sessions (recorded on other machines) are written here.
	const project = join(base, 'repo');
	mkdirSync(join(project, '.git'), {recursive: true});
	if (options.knowledgeBase !== false) {
		runCli(['init', kb, '--no-register'], {env});
		for (const args of [
			['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop'],
			['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'blocked', '--blocker', 'refund column unconfirmed'],
			['graph', 'node', '--id', 'task:flaky', '--kind', 'Task', '--label', 'Fix the flaky checkout test', '--status', 'open', '--next-action', 'apply the discount once'],
			['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop'],
			['graph', 'relate', '--from', 'task:flaky', '--edge', 'BELONGS_TO', '--to', 'project:shop'],
		]) {
			runCli([...args, '--root', kb], {env});
		}
	}

	const deps: Deps = {env, cwd: project, now: () => fixedNow, platform: 'linux'};
	const client = await createEngineClient(deps, {since: '2026-11-01', allProjects: true, project}, options.knowledgeBase === false ? undefined : kb);
	return {env, deps, client, kb, project};
}

/** The fixture session a review world distills (12 of its 17 turns served), and the distiller that does it. */
export const distilledCandidate = 'codex-0195a1c2-0a00-7a00-8a00-00000000000a';
const mixDistiller = `${shellWord(process.execPath)} ${shellWord(join(repoRoot, 'test', 'fixtures', 'distillers', 'mix.mjs'))}`;

/**
 * Fills a knowledge base's review queue as a person would: every fixture session harvested,
 * and one of them distilled by a real distiller subprocess through the citation filter.
 */
export function fillReviewQueue(env: Record<string, string>, kb: string, cwd: string): void {
	for (const args of [
		['candidates', 'harvest', '--all-projects', '--since', '2026-11-01', '--consent'],
		['candidates', 'distill', distilledCandidate, '--with', mixDistiller, '--max-turns', '12'],
	]) {
		const result = runCli([...args, '--root', kb, '--format', 'json'], {env, cwd});
		if (result.code !== 0) {
			throw new Error(`engi ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		}
	}
}

export type ContractWorld = ScreenWorld & {question: string; contract: string};

/**
 * A knowledge base whose journal holds decisions observed at fixed moments (so its hashes and
 * token counts are stable), with a contract over them: fact `why` has an unpinned first
 * alternative (rejected) and a decision that depends on another, which fact `size` also names.
 */
export async function contractWorld(t: Parameters<typeof tempDir>[0]): Promise<ContractWorld> {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const kb = join(base, 'kb');
	const paths = writeKb(kb, [
		node('decision:stream', '2026-11-20T10:00:00Z', {label: 'Stream the CSV rather than build it in memory', provenance: 'design review'}),
		node('decision:size', '2026-11-20T10:05:00Z', {label: 'Order exports reach 2 GB', provenance: 'load test'}),
		edge('decision:stream', 'DEPENDS_ON', 'decision:size', '2026-11-20T10:06:00Z', {provenance: 'design review'}),
		node('task:csv', '2026-11-20T10:10:00Z', {kind: 'Task', label: 'CSV export of orders'}),
	]);
	const asOf = fixedNow.toISOString().replace('.000Z', 'Z');
	const question = 'Why stream the CSV export?';
	const contract = writeJson(join(base, 'contract.json'), {
		version: 1,
		question,
		scope_receipt: 'the CSV export decisions',
		scope_nodes: ['decision:stream', 'decision:size', 'task:csv'],
		as_of: asOf,
		min_observed_utc: '2026-01-01T00:00:00Z',
		sources: pinsOf(paths, asOf, ['decision:stream', 'decision:size']),
		facts: [
			{id: 'why', alternatives: [['task:csv'], ['decision:stream']]},
			{id: 'size', alternatives: [['decision:size']]},
		],
		budget_tokens: 2000,
		max_hops: 2,
		search_limit: 1000,
	});
	const deps: Deps = {env, cwd: base, now: () => fixedNow, platform: 'linux'};
	const client = await createEngineClient(deps, {allProjects: true}, kb);
	return {env, deps, client, kb, project: base, question, contract};
}

/**
 * The Retention screen's clock: after the real time its attestations are written at (a receipt
 * or an edge recorded after the clock would not exist yet), and years after the fixtures' sessions.
 */
export const retentionNow = new Date('2031-01-01T00:00:00Z');

/**
 * A screen world whose stores were last written long before its clock, with two sessions
 * attested (knowledge recorded, bytes pinned): the Retention screen has some to purge, some to
 * compact, and blocked ones, all real files a sweep really deletes.
 */
export async function retentionWorld(t: Parameters<typeof tempDir>[0]): Promise<ScreenWorld & {kbSandbox: KbSandbox}> {
	const world = await screenWorld(t);
	for (const directory of [world.env['HOME']!, world.env['XDG_CONFIG_HOME']!, world.env['XDG_DATA_HOME']!]) {
		settle(directory, longAgo);
	}

	const kbSandbox: KbSandbox = {
		base: join(world.kb, '..'),
		root: world.kb,
		env: world.env,
		journal: join(world.kb, '.engi', 'journal.jsonl'),
		run: (args, options = {}) => runCli([...args, '--root', world.kb], {env: world.env, ...options}),
		ok(args) {
			const result = runCli([...args, '--root', world.kb, '--format', 'json'], {env: world.env});
			if (result.code !== 0) {
				throw new Error(`engi ${args.join(' ')} failed: ${result.stderr}`);
			}

			return result.json();
		},
	};
	for (const [source, id] of retentionAttested) {
		attestWithKnowledge(kbSandbox, source, id);
	}

	const deps: Deps = {...world.deps, now: () => retentionNow};
	const client = await createEngineClient(deps, {since: '2026-11-01', allProjects: true, project: world.project}, world.kb);
	return {...world, deps, client, kbSandbox};
}

/** The sessions retentionWorld attests. */
export const retentionAttested = [
	['gemini', '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a'],
	['codex', '0195a1c2-0d00-7d00-8d00-00000000000d'],
] as const;
