/** @jsxRuntime automatic */
/** @jsxImportSource react */
import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../../source/engine/deps.js';
import {createEngineClient, type EngineClient} from '../../source/screens/engine-client.js';
import {runCli, sandboxEnv} from './cli.js';
import {buildFixtureHome} from '../fixtures/home.js';
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
