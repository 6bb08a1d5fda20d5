// Every writer the chaos suite runs, in one table. To add a writer (e.g. `engi hook run`, which
// writes pending notes), add one entry to `writers`: how to make its world, the command of one
// process doing some operations, the keys those operations write, and where they show up in the
// truth files. concurrency, sigkill and disk (*.chaos.ts) then run it through every fault.
import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import type {TestContext} from 'node:test';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {writeClaudeTranscript} from '../helpers/claude-transcript.js';
import {tempDir} from '../helpers/temp.js';
import {wholeLines, type Run} from './harness.js';

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
		pauses: [],
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
];
