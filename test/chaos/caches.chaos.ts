// The derived caches, catalog.sqlite (sessions) and index.sqlite (the knowledge base), under
// the same faults as the writers: 8 processes building one cold at once, a build killed with
// SIGKILL at a random moment, and the file truncated or overwritten. Every next call answers
// exactly what a clean cache answers, says so with a warning when it found the file damaged, and
// never prints a stack trace. A new cache is one more entry in `caches`.
import assert from 'node:assert/strict';
import {closeSync, existsSync, mkdirSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {settle} from '../fixtures/home.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {tempDir} from '../helpers/temp.js';
import {assertTypedError, chaos, chosen, killAt, random, runPool, type Run} from './harness.js';

type CacheWorld = {
	/** The cache file, and the files beside it that belong to it (-wal, -shm). */
	readonly file: string;
	/** The reads whose answers must not depend on the cache's state. */
	readonly reads: readonly Run[];
	/** A call that builds the cache from nothing, to kill. */
	readonly build: Run;
};

type ChaosCache = {
	readonly name: string;
	setup(t: TestContext): CacheWorld;
	/** The warning a call gives when it found the file damaged. */
	readonly damaged: RegExp;
	/** Pause points inside a build, with how many times each may be passed. */
	readonly pauses: ReadonlyArray<readonly [string, number]>;
};

/** A read's answer without what says how it was computed (the cache's own report, warnings) or when (`as_of` is now). */
function answer(stdout: string): unknown {
	const today = new Date().toISOString().slice(0, 10);
	const document = JSON.parse(stdout.replaceAll(new RegExp(`${today}T[\\d:.]+Z`, 'g'), 'now')) as Record<string, unknown>;
	for (const key of ['catalog', 'index', 'warnings']) {
		delete document[key];
	}

	return document;
}

const caches: readonly ChaosCache[] = [
	{
		name: 'catalog.sqlite',
		setup(t) {
			const env = sandboxEnv(tempDir(t, 'engi-chaos-'));
			const projects = join(env['HOME']!, '.claude', 'projects');
			for (let index = 0; index < 40; index++) {
				const id = `cafe0000-0000-4000-8000-${String(index).padStart(12, '0')}`;
				const directory = join(projects, `-src-app${index % 4}`);
				mkdirSync(directory, {recursive: true});
				const lines = Array.from({length: index === 7 ? 2000 : 20}, (_, line) => {
					const common = {parentUuid: line === 0 ? null : `${id}-${line - 1}`, isSidechain: false, cwd: `/src/app${index % 4}`, sessionId: id, uuid: `${id}-${line}`, timestamp: new Date(Date.UTC(2026, 10, 2, 0, index, line % 60)).toISOString()};
					return JSON.stringify(
						line % 2 === 0
							? {...common, type: 'user', message: {role: 'user', content: `request ${line} about the ${index % 3 === 0 ? 'zebra' : 'otter'} parser`}}
							: {...common, type: 'assistant', message: {id: `msg-${index}-${line}`, role: 'assistant', content: [{type: 'text', text: `reply ${line}`}]}},
					);
				});
				writeFileSync(join(directory, `${id}.jsonl`), lines.join('\n') + '\n');
			}

			settle(env['HOME']!, new Date('2026-11-02T12:00:00Z'));
			const cwd = env['HOME']!;
			const list = ['sessions', '--all-projects', '--limit', '100', '--format', 'json'];
			return {
				file: join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'),
				reads: [
					{args: list, env, cwd},
					{args: ['sessions', '--all-projects', '--q', 'zebra', '--format', 'json'], env, cwd},
					{args: ['unfinished', '--all-projects', '--since', '2000-01-01', '--format', 'json'], env, cwd},
				],
				build: {args: list, env, cwd},
			};
		},
		damaged: /^catalog_corrupt: /m,
		pauses: [['catalog.after_batch', 3]],
	},
	{
		name: 'index.sqlite',
		setup(t) {
			const env = sandboxEnv(tempDir(t, 'engi-chaos-'));
			const root = join(env['HOME']!, 'kb');
			const init = runCli(['init', root, '--format', 'json'], {env});
			assert.equal(init.code, 0, init.stderr);
			const drafts = Array.from({length: 3000}, (_, index) => ({op: 'node.upsert' as const, payload: {id: `task:${index}`, kind: 'Task', label: `task ${index} about the ${index % 5 === 0 ? 'zebra' : 'otter'} parser`, status: index % 7 === 0 ? 'blocked' : 'active'}}));
			writeFileSync(join(root, '.engi', 'journal.jsonl'), prepareEvents(drafts, new Date('2026-11-20T10:00:00Z')).map(event => serializeEvent(event)).join(''));
			const read = (args: readonly string[]): Run => ({args: [...args, '--root', root, '--format', 'json'], env, cwd: root});
			return {
				file: join(root, '.engi', 'index.sqlite'),
				reads: [read(['status']), read(['query', '--q', 'zebra', '--limit', '50']), read(['timeline', '--limit', '20'])],
				build: read(['index', 'rebuild']),
			};
		},
		damaged: /^index_corrupt: /m,
		pauses: [],
	},
];

/** Every read answers (exit 0, no stack trace) exactly as `expected`; returns their warnings. */
async function readsAnswer(world: CacheWorld, expected: readonly unknown[], label: string): Promise<string> {
	const results = await runPool(world.reads, 1);
	let warnings = '';
	for (const [index, result] of results.entries()) {
		if (result.code !== 0) {
			assertTypedError(result, label);
			assert.fail(`${label}: ${world.reads[index]!.args.join(' ')} failed: ${result.stderr}`);
		}

		assert.deepEqual(answer(result.stdout), expected[index], `${label}: ${world.reads[index]!.args[0]} answers as with a clean cache`);
		warnings += ((JSON.parse(result.stdout) as {warnings?: string[]}).warnings ?? []).join('\n') + '\n';
	}

	return warnings;
}

const remove = (file: string) => {
	for (const suffix of ['', '-wal', '-shm']) {
		rmSync(file + suffix, {force: true});
	}
};

/** Damage as a crash, a bad disk or a careless hand leaves it; `detectable` when every open must notice. */
function damage(file: string): {how: string; detectable: boolean} {
	const size = statSync(file).size;
	switch (random.int(0, 2)) {
		case 0: {
			const length = random.int(0, Math.max(0, size - 1));
			truncateSync(file, length);
			return {how: `truncated to ${length} bytes`, detectable: length > 0 && length < 4096};
		}

		case 1: {
			writeFileSync(file, 'not a database\n'.repeat(random.int(1, 500)));
			return {how: 'overwritten with text', detectable: true};
		}

		default: {
			// Within the header and the schema's first page only. Bytes flipped in the middle of a
			// later page go unnoticed by SQLite unless it runs an integrity check, and a catalog so
			// damaged was seen to list one session fewer: a gap this suite does not cover yet.
			const fd = openSync(file, 'r+');
			const at = random.int(0, Math.min(size, 4096) - 64);
			writeSync(fd, Buffer.from(Array.from({length: 64}, () => random.int(0, 255))), 0, 64, at);
			closeSync(fd);
			return {how: `64 random bytes at ${at}`, detectable: at < 100};
		}
	}
}

/** The reads' answers with a clean cache, and how long one build takes. */
async function reference(world: CacheWorld): Promise<{expected: unknown[]; buildMs: number}> {
	const clean = await runPool(world.reads, 1);
	for (const result of clean) {
		assert.equal(result.code, 0, result.stderr);
	}

	const started = Date.now();
	await runPool([world.build], 1);
	return {expected: clean.map(result => answer(result.stdout)), buildMs: Date.now() - started};
}

for (const cache of chosen(caches)) {
	test(`${cache.name}: ${chaos.workers} processes building it cold at once answer as a clean cache does`, {timeout: 3_600_000}, async t => {
		const world = cache.setup(t);
		const {expected} = await reference(world);
		for (let round = 0; round < Math.max(2, Math.round(chaos.operations / 25)); round++) {
			remove(world.file);
			const racing = await runPool(Array.from({length: chaos.workers}, (_, index) => world.reads[index % world.reads.length]!), chaos.workers);
			for (const [index, result] of racing.entries()) {
				assert.equal(result.code, 0, `cold round ${round}, reader ${index}: ${result.stderr}`);
				assert.deepEqual(answer(result.stdout), expected[index % world.reads.length], `cold round ${round}, reader ${index}`);
			}
		}
	});

	test(`${cache.name}: SIGKILL mid-build ${chaos.kills} times, damaged files: the same answers, a warning, no stack trace`, {timeout: 3_600_000}, async t => {
		const world = cache.setup(t);
		const {expected, buildMs} = await reference(world);
		const started = Date.now();

		// Killed while it builds.
		let killed = 0;
		for (let iteration = 0; iteration < chaos.kills; iteration++) {
			if (random.next() < 0.7) {
				remove(world.file);
			}

			const usePause = cache.pauses.length > 0 && random.next() < 0.5;
			const [point, most] = usePause ? random.pick(cache.pauses) : ['', 0];
			const moment = usePause ? {pause: `${point}#${random.int(1, most)}`} : {delayMs: random.int(0, Math.round(buildMs * 1.2))};
			const outcome = await killAt(world.build, moment);
			killed += outcome.killed ? 1 : 0;
			await readsAnswer(world, expected, `${cache.name}, kill ${iteration} (${'pause' in moment ? moment.pause : `${moment.delayMs} ms`}, seed ${chaos.seed})`);
		}

		// Damaged on disk.
		let detected = 0;
		for (let iteration = 0; iteration < Math.max(3, Math.round(chaos.kills / 4)); iteration++) {
			if (!existsSync(world.file)) {
				await runPool([world.reads[0]!], 1);
			}

			const {how, detectable} = damage(world.file);
			const label = `${cache.name}, damage ${iteration} (${how}, seed ${chaos.seed})`;
			const warnings = await readsAnswer(world, expected, label);
			if (detectable) {
				assert.match(warnings, cache.damaged, `${label}: the damage is reported`);
			}

			detected += cache.damaged.test(warnings) ? 1 : 0;
		}

		t.diagnostic(`${cache.name}: ${chaos.kills} kills (${killed} mid-build), ${detected} damaged files reported, ${((Date.now() - started) / 1000).toFixed(1)} s`);
		assert.ok(killed > 0, 'some builds were killed mid-way');
	});
}
