/** @jsxRuntime automatic */
/** @jsxImportSource react */
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../../source/engine/deps.js';
import {createEngineClient, type EngineClient} from '../../source/screens/engine-client.js';
import {shellWord} from '../../source/lib/words.js';
import {repoRoot, runCli, sandboxEnv} from './cli.js';
import {buildFixtureHome} from './fixture-home.js';
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
