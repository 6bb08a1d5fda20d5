import assert from 'node:assert/strict';
import {mkdirSync} from 'node:fs';
import test from 'node:test';
import {createEngineClient} from '../../source/screens/engine-client.js';
import {runCli} from '../helpers/cli.js';
import {contractWorld, distilledCandidate, fillReviewQueue, screenWorld} from '../helpers/screens.js';

/**
 * What each screen renders comes from its EngineClient call; that result must be exactly the
 * document the matching command prints with --format json on the same stores (the `schema`
 * tag aside). The client here runs on the real clock, as the CLI subprocess does.
 */
test('parity: every screen shows the data of its command’s JSON output', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	mkdirSync(world.project, {recursive: true});
	const deps = {...world.deps, now: () => new Date()};
	const client = await createEngineClient(deps, {since: '2026-11-01', allProjects: true, project: world.project}, world.kb);
	const cli = (args: string[]) => {
		const result = runCli([...args, '--format', 'json'], {env: world.env, cwd: world.project});
		assert.ok(result.code === 0 || result.code === 2, `engi ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		const {schema, ...data} = result.json<Record<string, unknown>>();
		assert.match(String(schema), /^engi\.[a-z.-]+\.v1$/);
		return plain(data);
	};

	// The moment a document was made is the one field two runs cannot share.
	const plain = (value: unknown) => JSON.parse(JSON.stringify(value), (key, field: unknown) => (key === 'generated_at' ? undefined : field)) as unknown;

	// A checkpoint, so the checkpoints screen and the stand-up have one to show.
	const session = '019a7c10-0a00-7000-8000-00000000000a';
	await client.recordCheckpoint({session, source: 'grok', status: 'blocked', objective: 'find the flake', blockers: ['CI access']});

	fillReviewQueue(world.env, world.kb, world.project);
	const checks: Array<[string, () => Promise<unknown>, string[]]> = [
		['stand-up', () => client.standup(), ['standup', '--since', '2026-11-01', '--root', world.kb]],
		['checkpoints', () => client.checkpoints(), ['checkpoint', 'list', '--all-projects']],
		['pickup', () => client.pickup('0195a1c2-0a00-7a00-8a00-00000000000a', 'codex'), ['pickup', '0195a1c2-0a00-7a00-8a00-00000000000a', '--source', 'codex']],
		['pickup brief', () => client.brief('0195a1c2-0a00-7a00-8a00-00000000000a', 'codex'), ['resume', '0195a1c2-0a00-7a00-8a00-00000000000a', '--source', 'codex', '--budget', '2000']],
		['project brief', () => client.project({offset: 0, limit: 50}), ['project', '--root', world.kb, '--limit', '50']],
		['review queue', () => client.candidates(), ['candidates', 'list', '--root', world.kb]],
		['review note', () => client.candidate(distilledCandidate), ['candidates', 'show', distilledCandidate, '--root', world.kb]],
		['cited turns', () => client.citedTurns(distilledCandidate, [1, 10], 12), ['candidates', 'evidence', distilledCandidate, '--turns', '1,10', '--max-turns', '12', '--root', world.kb]],
	];
	for (const [screen, fromClient, args] of checks) {
		const shown = plain(await fromClient());
		assert.deepEqual(shown, cli(args), `${screen}: the screen's data differs from engi ${args.join(' ')}`);
	}

	// Retention's window ends a week before the moment each one ran: the cutoff is the one difference.
	for (const [screen, fromClient, args] of [
		['retention plan', async () => client.retentionPlan(), ['retention', 'plan', '--details', '--limit', '500', '--root', world.kb]],
		['retention sweep (dry run)', async () => client.retentionSweep(), ['retention', 'sweep', '--details', '--root', world.kb]],
	] as const) {
		const shown = plain(await fromClient()) as {cutoff_utc: string};
		const printed = cli([...args]) as {cutoff_utc: string};
		assert.deepEqual(JSON.parse(JSON.stringify(shown).replaceAll(shown.cutoff_utc, printed.cutoff_utc)), printed, `${screen}: the screen's data differs from engi ${args.join(' ')}`);
	}

	// A query is answered as of the moment it runs: the CLI is asked about the screen's moment.
	const answered = plain(await client.query('flaky')) as {as_of: string};
	assert.deepEqual(answered, cli(['query', '--q', 'flaky', '--view', 'context', '--limit', '50', '--as-of', answered.as_of, '--root', world.kb]), 'query: the screen\'s data differs from engi query');

	// The Unfinished screen takes every candidate at once (it virtualises); the CLI pages at 500.
	const screen = plain(await client.unfinished()) as {candidates: unknown[]; total: number};
	type Page = {candidates: unknown[]; next_offset: number | null; total: number; offset: number};
	const pages: Page[] = [];
	for (let offset: number | null = 0; offset !== null; offset = pages.at(-1)!.next_offset) {
		pages.push(cli(['unfinished', '--all-projects', '--since', '2026-11-01', '--limit', '500', '--offset', String(offset)]) as Page);
	}

	const {candidates: _rows, next_offset: _next, ...frame} = pages[0]!;
	const {candidates: _clientRows, next_offset: _clientNext, ...clientFrame} = screen as Page;
	assert.deepEqual(clientFrame, frame, 'the Unfinished screen: scope, totals and warnings match engi unfinished');
	assert.deepEqual(screen.candidates, pages.flatMap(each => each.candidates), 'the Unfinished screen: the rows are engi unfinished’s candidates, in order');

	// The data is not trivially empty: each screen has something to show.
	const standup = (await client.standup()) as {projects: unknown[]; checkpoints?: unknown[]};
	assert.ok(standup.projects.length > 0);
	assert.equal((await client.unfinished()).candidates.length > 10, true);
	assert.equal((await client.checkpoints()).checkpoints.length, 1);
	assert.ok((await client.candidates()).candidates.length > 10);
	assert.ok(((await client.retentionPlan()).sessions ?? []).length > 10);
	const found = await client.query('flaky');
	assert.ok(found.view === 'context' && found.rows.length > 0);
});

test('parity: the Query screen\'s evidence view and a contract\'s answer are engi query --view evidence and --evidence-contract', {timeout: 60_000}, async t => {
	const world = await contractWorld(t);
	const cli = (args: string[]) => {
		const result = runCli([...args, '--root', world.kb, '--format', 'json'], {env: world.env, cwd: world.project});
		assert.equal(result.code, 0, `engi ${args.join(' ')}: ${result.stderr}`);
		const {schema: _schema, ...data} = result.json<Record<string, unknown>>();
		return data;
	};

	const asOf = '2026-11-29T12:00:00Z';
	const evidence = await world.client.queryEvidence('csv', asOf);
	assert.ok(evidence.view === 'evidence' && evidence.candidates.length === 2);
	assert.deepEqual(JSON.parse(JSON.stringify(evidence)), cli(['query', '--q', 'csv', '--view', 'evidence', '--limit', '50', '--as-of', asOf]));
	const answer = await world.client.evaluateContract(world.contract, world.question);
	assert.equal(answer.resolution, 'covered');
	assert.deepEqual(JSON.parse(JSON.stringify(answer)), cli(['query', '--q', world.question, '--evidence-contract', world.contract]));
});
