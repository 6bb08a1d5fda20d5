// Every writer the chaos suite runs, in one table. To add a writer (e.g. `engi hook run`, which
// writes pending notes), add one entry to `writers`: how to make its world, the command of one
// process doing some operations, the keys those operations write, and where they show up in the
// truth files. concurrency, sigkill and disk (*.chaos.ts) then run it through every fault.
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import type {TestContext} from 'node:test';
import {createHash} from 'node:crypto';
import {settle} from '../fixtures/home.js';
import {runCli, sandboxEnv, type CliResult} from '../helpers/cli.js';
import {writeClaudeTranscript} from '../helpers/claude-transcript.js';
import {startCli} from '../helpers/faults.js';
import {entriesUnder, journalNodes, longAgo, recordedDeletions} from '../helpers/retention.js';
import {writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';
import {assertTypedError, wholeLines, type Outcome, type Run} from './harness.js';

export type World = {
	readonly env: Record<string, string>;
	/** Where commands run (the project, when the writer has one). */
	readonly cwd: string;
	readonly root: string;
	readonly journal: string;
	/** The code project checkpoints go to (under `place`). */
	readonly project: string;
	/** Session ids this world holds, for writers that act on sessions. */
	readonly sessions: readonly string[];
};

export type Truth = {readonly file: string; readonly quarantine: string};

export type ChaosWriter = {
	readonly name: string;
	/**
	 * A fresh world with room for `slots` operations per worker; everything the writer writes
	 * goes under `place` (a small tmpfs for the disk tests), agents' stores and caches elsewhere.
	 */
	setup(t: TestContext, place: string, slots: number): World;
	/** One process of `worker` performing the operations numbered `ops`, and the keys its exit 0 acknowledges. */
	step(world: World, worker: number, ops: readonly number[]): {run: Run; keys: string[]};
	/** How many operations one process may carry (1 where the command takes one item a call). */
	readonly batch: number;
	/**
	 * Operation numbers name shared items every worker acts on (a candidate, a session), not
	 * items of the worker's own; with `exclusive`, exactly one worker may succeed per item. A
	 * racer may be refused with one of `refusals`; a shared item nobody got done in the race is
	 * then done alone, and must succeed.
	 */
	readonly shared?: boolean;
	readonly exclusive?: boolean;
	readonly refusals?: ReadonlySet<string>;
	/**
	 * False for a writer whose every call is a new record (checkpoint record: latest wins), so an
	 * operation run again after a kill may be there twice by design; the kill tests then check
	 * that the killed one is there at most once, and the next one exactly once.
	 */
	readonly idempotent?: false;
	/** For each truth, the key of every record it holds (repeats included), checked whole-lined. */
	present(world: World, label: string): string[][];
	/** The JSONL truth files and where a torn tail of each is quarantined. */
	truth(world: World): Truth[];
	/** Points inside the writer to kill it at (ENGI_TEST_PAUSE_AT), with how many times each may be passed. */
	readonly pauses: ReadonlyArray<readonly [string, number]>;
	/**
	 * For a writer that reports refusals inside a normal document (a sweep exits 2 listing the
	 * items that failed): the keys a finished process acknowledged and the code of each refusal.
	 * Without it, exit 0 acknowledges every key and a typed error refuses them all.
	 */
	outcome?(result: CliResult, keys: readonly string[], label: string): Outcome;
};

const sessionId = (index: number) => `c4a05000-0000-4000-8000-${String(index).padStart(12, '0')}`;

/** A knowledge base under `place`, a git project beside it, and an empty agent HOME outside. */
function baseWorld(t: TestContext, place: string, sessions: readonly string[] = []): World {
	const env = sandboxEnv(tempDir(t, 'engi-chaos-'));
	const root = join(place, 'kb');
	const project = join(place, 'project');
	mkdirSync(join(project, '.git'), {recursive: true});
	const init = runCli(['init', root, '--format', 'json'], {env});
	assert.equal(init.code, 0, init.stderr);
	return {env, cwd: project, root, journal: join(root, '.engi', 'journal.jsonl'), project, sessions};
}

/** A world with `count` finished Claude sessions in the project, harvested into candidate notes when asked. */
function sessionWorld(t: TestContext, place: string, count: number, options: {harvest: boolean}): World {
	const ids = Array.from({length: count}, (_, index) => sessionId(index));
	const world = baseWorld(t, place, ids);
	for (const [index, id] of ids.entries()) {
		writeClaudeTranscript(world.env['HOME']!, {id, cwd: world.project}, [{user: `fix bug number ${index} in the cart`}, {assistant: `Fixed bug ${index}; the tests pass.`}]);
	}

	if (options.harvest) {
		const harvested = runCli(['candidates', 'harvest', '--consent', '--format', 'json'], {env: world.env, cwd: world.project});
		assert.equal(harvested.code, 0, harvested.stderr);
	}

	return world;
}

const run = (world: World, args: readonly string[]): Run => ({args: [...args, '--root', world.root, '--format', 'json'], env: world.env, cwd: world.cwd});
const journalTruth = (world: World): Truth => ({file: world.journal, quarantine: join(world.root, '.engi', 'quarantine')});
const checkpointTruth = (world: World): Truth => ({file: join(world.project, '.engi', 'checkpoints.jsonl'), quarantine: join(world.project, '.engi', 'quarantine', 'checkpoints')});
/** The id of every node upsert in the journal whose id passes `keep`. */
const upserts = (world: World, label: string, keep: (id: string) => boolean) =>
	wholeLines(world.journal, label)
		.filter(line => line['op'] === 'node.upsert' && keep(String(line['payload']['id'])))
		.map(line => String(line['payload']['id']));
const journalPauses = [
	['write.planning', 1],
	['write.before_lock', 1],
	['journal.before_append', 1],
] as const;

/** The store files each sweep world began with, to tell what sweeps deleted. */
const storeFiles = new WeakMap<World, readonly string[]>();
const sweepStores = (world: World) => join(dirname(world.env['HOME']!), 'stores');
/** Operation `op`'s own Claude store: a sweep retires what one --source-root holds. */
const sweepStore = (world: World, op: number) => join(sweepStores(world), `op-${op}`, '.claude');
const compactCopies = (world: World) => join(world.root, '00-inbox', 'harvest', 'compact', 'claude');

/** A finished Claude session per operation, old enough to retire and attested by nothing (so a sweep compacts it), with a subagent in its own directory. */
function sweepWorld(t: TestContext, place: string, slots: number): World {
	const world = baseWorld(
		t,
		place,
		Array.from({length: slots}, (_, index) => sessionId(index)),
	);
	for (const [op, id] of world.sessions.entries()) {
		const projects = join(sweepStore(world, op), 'projects');
		writeClaudeSession(projects, id, '/work/app', [
			{user: `task ${op}: tighten the retry loop`, assistant: 'Tightened it and added a test.', at: '2025-01-02T09:00:00.000Z'},
			{user: 'thanks', assistant: 'Done.', at: '2025-01-02T09:01:00.000Z'},
		]);
		const subagents = join(projects, '-work-app', id, 'subagents');
		mkdirSync(subagents, {recursive: true});
		writeFileSync(join(subagents, 'agent-abc123.jsonl'), `${JSON.stringify({type: 'user', isSidechain: true, sessionId: id, uuid: 'sa1', parentUuid: null, timestamp: '2025-01-02T09:00:10.000Z', message: {role: 'user', content: 'find the retry loop'}})}\n`);
	}

	settle(sweepStores(world), longAgo);
	storeFiles.set(world, entriesUnder(sweepStores(world)));
	return world;
}

/**
 * What sweeps left, checked whole: the journal's purge receipts, compaction receipts and the
 * compact copies by session. Every copy holds whole JSON lines and is the one its node names;
 * every session a purge began on has its copy; every store file gone is named by a purge's
 * outcome or by an attempt a kill left unfinished.
 */
function sweptRecords(world: World, label: string): string[][] {
	const upserts = wholeLines(world.journal, label).filter(line => line['op'] === 'node.upsert').map(line => line['payload'] as Record<string, any>);
	const ofKind = (kind: string) => upserts.filter(payload => payload['kind'] === kind);
	const named = new Map(ofKind('CompactTranscript').map(payload => [String(payload['session_id']), String(payload['sha256'])]));
	const directory = compactCopies(world);
	const copies = (existsSync(directory) ? readdirSync(directory) : []).filter(name => name.endsWith('.jsonl')).map(name => name.slice(0, -'.jsonl'.length));
	for (const session of copies) {
		const file = join(directory, `${session}.jsonl`);
		assert.ok(wholeLines(file, label).length > 0, `${label}: ${file} holds the conversation`);
		const sha = named.get(session);
		assert.ok(sha === undefined || sha === createHash('sha256').update(readFileSync(file)).digest('hex'), `${label}: ${file} is the copy its CompactTranscript node names`);
	}

	const attempts = journalNodes(world.journal, 'SessionPurgeAttempt');
	assert.deepEqual(
		attempts.map(attempt => String(attempt['session_id'])).filter(session => !copies.includes(session) || !named.has(session)),
		[],
		`${label}: every session a purge began on has its journaled compact copy`,
	);
	const settled = new Set([...journalNodes(world.journal, 'SessionPurgeReceipt'), ...journalNodes(world.journal, 'SessionPurgeFailure')].flatMap(outcome => [outcome['attempt_id'], ...(outcome['resumed_attempt_ids'] as string[])]));
	const unfinished = new Set(attempts.filter(attempt => !settled.has(attempt['id'])).flatMap(attempt => (attempt['targets'] as Array<{path: string}>).map(target => target.path)));
	const recorded = recordedDeletions(world.journal);
	const gone = storeFiles.get(world)!.filter(path => !existsSync(path));
	assert.deepEqual(gone.filter(path => !recorded.has(path) && !unfinished.has(path)), [], `${label}: every store file gone is named by a purge outcome or an unfinished attempt`);
	return [
		ofKind('SessionPurgeReceipt').map(payload => String(payload['session_id'])),
		ofKind('SessionRetentionReceipt')
			.filter(payload => payload['provenance'] === 'engi retention sweep (compact)')
			.map(payload => String(payload['session_id'])),
		copies,
	];
}

/** A sweep's document: sessions it compacted and removed are acknowledged; each item it failed or refused gives its code (exit 2). */
function sweepOutcome(result: CliResult, keys: readonly string[], label: string): Outcome {
	if (result.stdout.trim() === '') {
		return {acknowledged: [], refusals: [assertTypedError(result, label)]};
	}

	const items = result.json().items as Array<{session_id: string; status: string; failure: {code: string} | null}>;
	const done = items.filter(item => item.status === 'compacted' || item.status === 'removed').map(item => item.session_id);
	const refusals = items.filter(item => item.status === 'failed' || item.status === 'refused').map(item => item.failure!.code);
	assert.equal(result.code, refusals.length === 0 ? 0 : 2, `${label}: exit ${result.code} with ${refusals.length} items failed: ${result.stderr}`);
	assert.deepEqual(done.filter(id => !keys.includes(id)), [], `${label}: a sweep retires its own store's sessions only`);
	return {acknowledged: done, refusals};
}

/** Staged notes (ingest) and wiki pages (wiki sync): one file per operation, in the worker's own name. */
const stagedKey = (prefix: string, worker: number, op: number) => `${prefix}:w${worker}-${op}`;

export const writers: readonly ChaosWriter[] = [
	{
		name: 'graph node (journal append)',
		batch: 1,
		setup: (t, place) => baseWorld(t, place),
		step: (world, worker, [op]) => {
			const id = `task:w${worker}-${op}`;
			return {run: run(world, ['graph', 'node', '--id', id, '--kind', 'Task', '--label', `worker ${worker} operation ${op}`]), keys: [id]};
		},
		present: (world, label) => [upserts(world, label, id => id.startsWith('task:w'))],
		truth: world => [journalTruth(world)],
		pauses: journalPauses,
	},
	{
		name: 'ingest (journal append of staged notes)',
		batch: 10,
		setup: (t, place) => baseWorld(t, place),
		step(world, worker, ops) {
			const keys = ops.map(op => stagedKey('task', worker, op));
			const stage = () => {
				const inbox = join(world.root, '00-inbox', 'harvest');
				mkdirSync(inbox, {recursive: true});
				for (const [index, key] of keys.entries()) {
					writeFileSync(join(inbox, `w${worker}-${ops[index]}.md`), ['---', `id: ${key}`, 'kind: Task', `label: staged by worker ${worker}, operation ${ops[index]}`, '---', 'Body text.', ''].join('\n'));
				}
			};

			// Every ingest takes every staged note, so workers race over each other's notes too.
			return {run: {...run(world, ['ingest']), stage}, keys};
		},
		present: (world, label) => [upserts(world, label, id => id.startsWith('task:w'))],
		truth: world => [journalTruth(world)],
		pauses: journalPauses,
	},
	{
		name: 'wiki sync (journal append of wiki pages)',
		batch: 10,
		setup: (t, place) => baseWorld(t, place),
		step(world, worker, ops) {
			const keys = ops.map(op => stagedKey('wiki', worker, op));
			const stage = () => {
				const wiki = join(world.root, '02-wiki');
				mkdirSync(wiki, {recursive: true});
				for (const [index, key] of keys.entries()) {
					writeFileSync(join(wiki, `w${worker}-${ops[index]}.md`), ['---', `id: ${key}`, `title: Page ${worker}-${ops[index]}`, 'kind: fact', '---', `# Page ${worker}-${ops[index]}`, '', 'Written by the chaos suite.', ''].join('\n'));
				}
			};

			return {run: {...run(world, ['wiki', 'sync']), stage}, keys};
		},
		present: (world, label) => [upserts(world, label, id => id.startsWith('wiki:w'))],
		truth: world => [journalTruth(world)],
		pauses: journalPauses,
	},
	{
		name: 'dream (journal appends of upkeep)',
		batch: 1,
		setup: (t, place) => baseWorld(t, place),
		step(world, worker, [op]) {
			// Each dream finds the entity a new note names (step 3) and appends it, racing the others.
			const stage = () => {
				const note = runCli(['graph', 'node', '--id', `note:w${worker}-${op}`, '--kind', 'Note', '--provenance', 'chaos', '--label', `met [[Topic w${worker} ${op}]] today`, '--root', world.root, '--format', 'json'], {env: world.env});
				assert.equal(note.code, 0, note.stderr);
			};

			return {run: {...run(world, ['dream']), stage}, keys: [`entity:topic-w${worker}-${op}`]};
		},
		present: (world, label) => [upserts(world, label, id => id.startsWith('entity:topic-w'))],
		truth: world => [journalTruth(world)],
		pauses: [...journalPauses, ['dream-after-step-2', 1], ['dream-after-step-3', 1], ['dream-after-step-5', 1]],
	},
	{
		name: 'checkpoint record',
		batch: 1,
		idempotent: false,
		setup: (t, place) => baseWorld(t, place),
		step: (world, worker, [op]) => {
			const session = sessionId(100_000 * (worker + 1) + op!);
			return {run: {args: ['checkpoint', 'record', '--session', session, '--objective', `worker ${worker} operation ${op}`, '--project', '.', '--format', 'json'], env: world.env, cwd: world.project}, keys: [session]};
		},
		present: (world, label) => [wholeLines(checkpointTruth(world).file, label).map(line => String(line['session']))],
		truth: world => [checkpointTruth(world)],
		pauses: [['checkpoint.before_append', 1]],
	},
	{
		name: 'candidates harvest (candidate notes)',
		batch: 10,
		shared: true,
		setup: (t, place, slots) => sessionWorld(t, place, slots, {harvest: false}),
		step: (world, _worker, ops) => {
			const ids = ops.map(op => world.sessions[op]!);
			return {run: run(world, ['candidates', 'harvest', '--consent', ...ids]), keys: ids};
		},
		present(world, label) {
			const directory = join(world.root, '00-inbox', 'candidates');
			const notes = existsSync(directory) ? readdirSync(directory).filter(name => name.endsWith('.md') && !name.startsWith('.')) : [];
			return [
				notes.map(name => {
					const text = readFileSync(join(directory, name), 'utf8');
					assert.match(text, /^---\n[\s\S]*\n---\n[\s\S]*\S/, `${label}: ${name} is a whole note`);
					return name.replace(/^claude-/, '').replace(/\.md$/, '');
				}),
			];
		},
		truth: () => [],
		pauses: [['harvest.before_session', 1]],
	},
	{
		name: 'candidates promote (journal batch and imported checkpoint)',
		batch: 1,
		shared: true,
		exclusive: true,
		refusals: new Set(['candidate_changed', 'candidate_not_pending']),
		setup: (t, place, slots) => sessionWorld(t, place, slots, {harvest: true}),
		step: (world, _worker, [op]) => ({run: run(world, ['candidates', 'promote', `claude-${world.sessions[op!]}`]), keys: [world.sessions[op!]!]}),
		present: (world, label) => [
			upserts(world, label, id => id.startsWith('conversation:claude:')).map(id => id.slice('conversation:claude:'.length)),
			wholeLines(checkpointTruth(world).file, label)
				.filter(line => line['status'] === 'imported')
				.map(line => String(line['session'])),
		],
		truth: world => [journalTruth(world), checkpointTruth(world)],
		pauses: [['promote.after_read', 1], ...journalPauses, ['checkpoint.before_append', 1], ['promote.before_note', 1]],
	},
	{
		name: 'retention attest (receipts)',
		batch: 1,
		shared: true,
		// Another engi reading the transcript holds it open, and an open transcript is a live session.
		refusals: new Set(['session_active']),
		setup(t, place, slots) {
			const world = sessionWorld(t, place, slots, {harvest: true});
			for (const id of world.sessions) {
				const promoted = runCli(['candidates', 'promote', `claude-${id}`, '--root', world.root, '--format', 'json'], {env: world.env, cwd: world.project});
				assert.equal(promoted.code, 0, promoted.stderr);
			}

			return world;
		},
		step: (world, _worker, [op]) => {
			const id = world.sessions[op!]!;
			return {run: run(world, ['retention', 'attest', id, '--source', 'claude', '--knowledge-node', `outcome:claude:${id}`, '--session-closed']), keys: [id]};
		},
		present: (world, label) => [
			wholeLines(world.journal, label)
				.filter(line => line['op'] === 'node.upsert' && line['payload']['kind'] === 'SessionRetentionReceipt')
				.map(line => String(line['payload']['session_id'] ?? line['payload']['native_id'] ?? line['payload']['id'])),
		],
		truth: world => [journalTruth(world)],
		pauses: journalPauses,
	},
	{
		name: 'retention sweep (compact copies and receipts)',
		batch: 1,
		shared: true,
		// A racing sweep may hold the transcript open (a live session), have retired it already, or have outdated the dry run.
		refusals: new Set(['session_active', 'plan_changed', 'already_cleaned', 'source_changed']),
		setup: sweepWorld,
		step(world, _worker, [op]) {
			const sweep = ['retention', 'sweep', '--source', 'claude', '--source-root', sweepStore(world, op!), '--root', world.root, '--format', 'json'];
			// Each execution needs the digest of a dry run made right before it.
			const prepare = async () => {
				const plan = await startCli(sweep, {env: world.env, cwd: world.cwd}).done;
				assert.equal(plan.code, 0, plan.stderr);
				return ['--execute', '--plan', plan.json().plan_sha256 as string, '--details'];
			};

			return {run: {args: sweep, env: world.env, cwd: world.cwd, prepare}, keys: [world.sessions[op!]!]};
		},
		outcome: sweepOutcome,
		present: sweptRecords,
		truth: world => [journalTruth(world)],
		pauses: [...journalPauses, ['retention.compact_written', 1], ['retention.after_attempt', 1], ['retention.before_unlink', 1], ['retention.before_receipt', 1]],
	},
];
