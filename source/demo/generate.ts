import {mkdirSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {Deps} from '../engine/deps.js';
import {initKnowledgeBase} from '../engine/kb/init.js';
import {kbPaths} from '../engine/kb/paths.js';
import {appendEvents} from '../engine/journal/append.js';
import {appendCheckpoint} from '../engine/continuity/checkpoints.js';

/**
 * A small, invented world for `engi demo`: a few sessions from several agents (one interrupted,
 * one waiting on a reply, one with a failing test, one finished and checkpointed), checkpoints
 * and a knowledge base with tasks, all dated relative to now so the stand-up shows them.
 */
export type DemoWorld = {readonly base: string; readonly env: Record<string, string>; readonly kb: string; readonly projects: string[]};

/** Writes a transcript and dates the file like its last record, as if the agent had just stopped. */
function lines(path: string, records: unknown[], lastWrite: string): void {
	mkdirSync(join(path, '..'), {recursive: true});
	writeFileSync(path, records.map(record => JSON.stringify(record)).join('\n') + '\n');
	utimesSync(path, new Date(lastWrite), new Date(lastWrite));
}

export async function generateDemo(base: string, now: Date, deps: Deps): Promise<DemoWorld> {
	const home = join(base, 'home');
	const shop = join(base, 'src', 'shop');
	const api = join(base, 'src', 'api');
	for (const project of [shop, api]) {
		mkdirSync(join(project, '.git'), {recursive: true});
	}

	const at = (minutesAgo: number) => new Date(now.getTime() - minutesAgo * 60_000).toISOString();
	const claude = (id: string, cwd: string, records: Array<Record<string, unknown>>) => {
		let parent: string | null = null;
		lines(
			join(home, '.claude', 'projects', cwd.replaceAll(/[^A-Za-z0-9]/g, '-'), `${id}.jsonl`),
			records.map((record, index) => {
				const uuid = `${id.slice(0, 4)}-${index}`;
				const full = {parentUuid: parent, isSidechain: false, type: 'user', cwd, sessionId: id, uuid, version: '2.1.80', ...record};
				parent = uuid;
				return full;
			}),
			String(records.at(-1)?.['timestamp']),
		);
	};

	const interrupted = 'a1c3e5f7-0000-4000-8000-000000000001';
	claude(interrupted, shop, [
		{timestamp: at(150), message: {role: 'user', content: 'The checkout test is flaky; find out why and fix it'}},
		{type: 'assistant', timestamp: at(149), message: {id: 'm1', role: 'assistant', content: [{type: 'text', text: 'Running the checkout tests to reproduce.'}, {type: 'tool_use', id: 'toolu_1', name: 'Bash', input: {command: 'npm test -- checkout'}}]}},
		{timestamp: at(147), message: {role: 'user', content: [{type: 'tool_result', tool_use_id: 'toolu_1', content: 'Exit code 1\n1 failing: checkout applies the discount twice', is_error: true}]}},
		{type: 'assistant', timestamp: at(146), message: {id: 'm2', role: 'assistant', content: [{type: 'tool_use', id: 'toolu_2', name: 'Edit', input: {file_path: join(shop, 'src', 'checkout.ts'), old_string: 'apply(discount)', new_string: 'applyOnce(discount)'}}]}},
		{timestamp: at(145), message: {role: 'user', content: [{type: 'text', text: '[Request interrupted by user for tool use]'}]}},
	]);
	const waiting = 'a1c3e5f7-0000-4000-8000-000000000002';
	claude(waiting, shop, [
		{timestamp: at(90), message: {role: 'user', content: 'Add a CSV export to the orders page'}},
		{type: 'assistant', timestamp: at(88), message: {id: 'm3', role: 'assistant', content: [{type: 'text', text: 'Added the export button and a CSV writer.'}]}},
		{timestamp: at(80), message: {role: 'user', content: 'Also include the refund column, and write a test'}},
	]);
	const finished = 'a1c3e5f7-0000-4000-8000-000000000003';
	claude(finished, shop, [
		{timestamp: at(60), message: {role: 'user', content: 'Bump the payment SDK to 4.2'}},
		{type: 'assistant', timestamp: at(58), message: {id: 'm4', role: 'assistant', content: [{type: 'text', text: 'Bumped to 4.2; all tests pass.'}]}},
	]);
	const codexId = '019b0000-0000-7000-8000-0000000000c1';
	const day = now.toISOString().slice(0, 10).split('-');
	lines(join(home, '.codex', 'sessions', day[0]!, day[1]!, day[2]!, `rollout-${now.toISOString().slice(0, 19).replaceAll(':', '-')}-${codexId}.jsonl`), [
		{timestamp: at(40), type: 'session_meta', payload: {id: codexId, timestamp: at(40), cwd: api, originator: 'codex_cli_rs', cli_version: '0.60.0', source: 'cli'}},
		{timestamp: at(40), type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: 'Why does the retry test time out on CI?'}]}},
		{timestamp: at(39), type: 'response_item', payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text: 'Let me run it with verbose logging.'}]}},
		{timestamp: at(39), type: 'response_item', payload: {type: 'function_call', name: 'shell', arguments: JSON.stringify({command: ['bash', '-lc', 'npm test -- retry --verbose']}), call_id: 'call_1'}},
	], at(39));
	const geminiId = '6e000000-0000-4000-8000-0000000000e1';
	lines(join(home, '.gemini', 'tmp', 'api', 'chats', `session-${now.toISOString().slice(0, 16).replaceAll(':', '-')}-${geminiId.slice(0, 8)}.jsonl`), [
		{sessionId: geminiId, projectHash: 'demo', startTime: at(30), lastUpdated: at(25), kind: 'main', directories: [api]},
		{id: 'g1', timestamp: at(30), type: 'user', content: 'Summarise the open issues about rate limits'},
		{id: 'g2', timestamp: at(25), type: 'info', content: 'Request cancelled.'},
	], at(25));
	const kb = join(base, 'kb');
	const kbDeps: Deps = {...deps, env: {...deps.env, HOME: home, XDG_CONFIG_HOME: join(base, 'config')}};
	initKnowledgeBase({path: kb, register: false, force: true}, kbDeps);
	await appendEvents(
		kbPaths(kb),
		[
			{op: 'node.upsert', payload: {id: 'project:shop', kind: 'Project', label: 'Web shop', path: shop}},
			{op: 'node.upsert', payload: {id: 'task:flaky-checkout', kind: 'Task', label: 'Fix the flaky checkout test', status: 'in_progress', next_action: 'make the discount apply once'}},
			{op: 'node.upsert', payload: {id: 'task:csv-export', kind: 'Task', label: 'CSV export of orders', status: 'blocked', blockers: ['finance has not confirmed the refund column']}},
			{op: 'node.upsert', payload: {id: 'decision:sdk-42', kind: 'Decision', label: 'Stay on payment SDK 4.x until Q2'}},
			{op: 'edge.assert', payload: {from: 'task:flaky-checkout', type: 'BELONGS_TO', to: 'project:shop'}},
			{op: 'edge.assert', payload: {from: 'task:csv-export', type: 'BELONGS_TO', to: 'project:shop'}},
		],
		kbDeps,
	);
	const checkpoint = {source: 'claude', project: shop, completed_work: [], current_evidence: [], verification: null, updated_at: at(20)};
	await appendCheckpoint(shop, finished, () => ({...checkpoint, session: finished, status: 'completed', objective: 'bump the payment SDK', blockers: [], next_action: null}), deps);
	await appendCheckpoint(shop, waiting, () => ({...checkpoint, session: waiting, status: 'blocked', objective: 'CSV export of orders', blockers: ['refund column not confirmed'], next_action: 'ask finance about refunds'}), deps);
	const env = {
		...Object.fromEntries(Object.entries(deps.env).filter((entry): entry is [string, string] => typeof entry[1] === 'string')),
		HOME: home,
		XDG_CACHE_HOME: join(base, 'cache'),
		XDG_CONFIG_HOME: join(base, 'config'),
		XDG_DATA_HOME: join(base, 'data'),
		ENGI_ROOT: kb,
	};
	return {base, env, kb, projects: [shop, api]};
}
