/**
 * The JSON contract (DESIGN §3): every command in source/commands.ts, and every variant whose
 * result has another shape (read and resume views, project and query views, the ambiguous and
 * not_found answers of resume and pickup), is run through the built CLI on deterministic inputs:
 * the committed fixture stores laid out under a sandboxed HOME, sessions and a knowledge base
 * made with the real CLI. Each document is parsed with its command's own `output` zod schema and
 * must come out unchanged (zod drops keys it does not know, so a document with a key the schema
 * lacks fails too), validated with the JSON Schema `engi schema` prints for the command, and
 * compared byte for byte with its golden file, snapshots/json/<name>.json, after the minimal
 * normalisation documented in test/helpers/json-golden.ts.
 *
 * <name> is the command with `-` for spaces (`graph-node`), then `.<variant>` where a command
 * has several (`read.events`, `resume.ambiguous`).
 *
 * After a deliberate change to an output, regenerate every golden document with one command and
 * review the diff:
 *
 *   UPDATE_SNAPSHOTS=1 node scripts/test.mjs test/json-contract.test.ts
 */
import assert from 'node:assert/strict';
import {createHash, randomInt} from 'node:crypto';
import {mkdirSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import test, {type TestContext} from 'node:test';
import * as zod from 'zod';
import * as z from 'zod/mini';
import {schemaName} from '../source/cli/define.js';
import {commandTable, loadCommand} from '../source/commands.js';
import {repoRoot, runCli, sandboxEnv, type CliResult} from './helpers/cli.js';
import {buildFixtureHome, fixtureMtime, settle} from './fixtures/home.js';
import {assertGolden} from './helpers/golden.js';
import {goldenJson, type Normalizer} from './helpers/json-golden.js';
import {writeClaudeSession} from './helpers/stores.js';
import {claudeSessionPath, claudeToolLines, sourceFile, writeLines} from './fixtures/tool-sessions.js';
import {tempDir} from './helpers/temp.js';
import {contract, journalText, node, pinsOf, writeJson} from './helpers/evidence.js';
import {kbPaths} from '../source/engine/kb/paths.js';

type Step = {
	/** The golden file's name; steps that only set the scene have none but are checked all the same. */
	readonly golden?: string;
	readonly command: string;
	readonly args: readonly string[];
	readonly cwd?: string;
	/** Exit codes this step may end with (default 0). */
	readonly codes?: readonly number[];
	/** What the step gets on stdin (an agent's hook payload). */
	readonly input?: string;
};

type JsonDocument = Record<string, unknown> & {schema: string};

/** Parses with the command's zod schema and demands the document back unchanged; returns why not. */
async function schemaProblem(command: string, document: JsonDocument): Promise<string | undefined> {
	const {schema, ...data} = document;
	// An alias prints the documents of the command it stands for.
	const {name, output} = await loadCommand(command);
	if (schema !== schemaName(name)) {
		return `schema is ${schema}, not ${schemaName(name)}`;
	}

	const parsed = output.safeParse(data);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return `${issue?.path.map(String).join('.') || '(document)'}: ${issue?.message}`;
	}

	try {
		assert.deepStrictEqual(parsed.data, data);
	} catch (error) {
		return `the document has what its schema does not describe:\n${(error as Error).message}`;
	}

	return undefined;
}

/** Every stage of a document's check: its zod schema and the JSON Schema printed for it. */
async function checkDocument(command: string, document: JsonDocument, published: Record<string, unknown>): Promise<void> {
	const problem = await schemaProblem(command, document);
	assert.equal(problem, undefined, `engi ${command}: ${problem}`);
	const fromJsonSchema = zod.fromJSONSchema(published[command] as Parameters<typeof zod.fromJSONSchema>[0]);
	const result = fromJsonSchema.safeParse(document);
	assert.ok(result.success, `engi ${command}: the document does not match engi schema "${command}": ${JSON.stringify(result.error?.issues[0])}`);
	// The checks must be able to fail: the same document with one key too many fails both.
	const widened = {...document, unexpected_key: true};
	assert.notEqual(await schemaProblem(command, widened), undefined, `engi ${command}: the zod check accepts an unknown key`);
	assert.equal(fromJsonSchema.safeParse(widened).success, false, `engi ${command}: engi schema accepts an unknown key`);
}

/**
 * A temporary directory whose name ends in six random digits. Documents quote paths, and a
 * brief's token estimate counts them by the make-up of each run of letters and digits; a run of
 * digits counts the same whatever the digits, where mkdtemp's mixed-case suffix would not.
 */
function sandboxDirectory(t: TestContext): string {
	for (;;) {
		const path = join(tmpdir(), `engi-json-${String(randomInt(1_000_000)).padStart(6, '0')}`);
		try {
			mkdirSync(path);
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
				continue;
			}

			throw error;
		}

		t.after(() => rmSync(path, {recursive: true, force: true}));
		return path;
	}
}

/** The scene: fixture stores, two projects with sessions, a knowledge base made with the CLI. */
function scene(t: TestContext) {
	const base = sandboxDirectory(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const repo = join(base, 'repo');
	const empty = join(base, 'empty');
	for (const project of [repo, empty]) {
		mkdirSync(join(project, '.git'), {recursive: true});
	}

	const projects = join(env['HOME']!, '.claude', 'projects');
	writeClaudeSession(projects, 'c0de0000-0000-4000-8000-000000000001', repo, [
		{user: 'add a CSV export to the orders page', assistant: 'Added the export button and the route.', at: '2026-11-24T09:00:00.000Z'},
		{user: 'now include the refund column', at: '2026-11-24T09:05:00.000Z'},
	]);
	writeClaudeSession(projects, 'c0de0000-0000-4000-8000-000000000002', repo, [{user: 'fix the flaky checkout test', at: '2026-11-25T14:30:00.000Z'}]);
	settle(env['HOME']!, fixtureMtime);
	const kb = join(base, 'kb');
	const harvest = join(kb, '00-inbox', 'harvest');
	const stageNotes = () => {
		mkdirSync(harvest, {recursive: true});
		writeFileSync(join(harvest, 'a-task.md'), ['---', 'id: task:refunds', 'kind: Task', 'label: Confirm the refund column', 'project: project:shop', 'status: open', 'next_action: ask finance', '---', 'Finance owns the refund rules.', ''].join('\n'));
		writeFileSync(join(harvest, 'b-bad.md'), ['---', 'id: task:bad', 'kind: Task', '---', ''].join('\n'));
	};

	// The calling agent's distillation of the first session: one claim the filter refuses, the rest kept.
	const distillationFile = join(base, 'distillation.json');
	const stageDistillation = () =>
		writeFileSync(
			distillationFile,
			JSON.stringify({
				model: 'golden-agent',
				verified: [{text: 'the export works', turns: [2]}],
				decided: [{text: 'add a route for the export', turns: [2]}],
				blockers: [{text: 'the refund column is unconfirmed', turns: [3]}],
				next: 'confirm the refund column with finance',
			}),
		);
	// A store outside the default roots (so listings stay as they are), holding a session with an image.
	const attachmentStore = join(base, 'attachment-store');
	writeLines(claudeSessionPath(join(attachmentStore, 'projects'), attachmentSession, '/work/app'), [JSON.stringify({parentUuid: null, isSidechain: false, userType: 'external', cwd: '/work/app', sessionId: attachmentSession, version: '2.1.80', gitBranch: 'main', type: 'user', uuid: 'u1', timestamp: '2026-11-24T09:00:00.000Z', message: {role: 'user', content: [{type: 'image', source: {type: 'base64', media_type: 'image/png', data: attachmentValue}}, {type: 'text', text: 'Why is this blank?'}]}})]);
	const handler = sourceFile('/work/app/src/retry.ts', 30, 1);
	writeLines(claudeSessionPath(join(attachmentStore, 'projects'), toolSession, '/work/app'), claudeToolLines(toolSession, '/work/app', [
		{user: 'Lengthen the retry timeout'},
		{read: '/work/app/src/retry.ts', content: handler},
		{edit: '/work/app/src/retry.ts', old: 'const timeout = 100;', new: 'const timeout = 250;'},
		{read: '/work/app/src/retry.ts', content: handler.replace('const timeout = 100;', 'const timeout = 250;')},
		{assistant: 'Done.'},
	]));
	const packets = join(base, 'packets');
	mkdirSync(packets, {recursive: true});
	const savePage = () => {
		const page = runCli(['read', claudeFixture, '--source', 'claude', '--view', 'events', '--format', 'json'], {env});
		writeFileSync(join(packets, 'page.json'), page.stdout);
		writeFileSync(join(packets, 'packet.json'), runCli(['read', '--encode-json', join(packets, 'page.json'), '--format', 'json'], {env}).stdout);
		writeFileSync(join(packets, 'request.json'), middlewareRequest);
	};

	const wiki = join(kb, '02-wiki');
	const stageWiki = () => {
		mkdirSync(wiki, {recursive: true});
		writeFileSync(join(wiki, 'csv-export.md'), ['---', 'id: wiki:csv-export', 'title: CSV export', 'kind: decision', 'sources: [task:csv, https://example.org/csv-spec]', '---', 'Streamed; see [[refunds]].', ''].join('\n'));
		writeFileSync(join(wiki, 'refunds.md'), ['# Refunds', '', '<<<<<<< HEAD', 'finance owns them', '=======', 'support owns them', '>>>>>>> theirs', ''].join('\n'));
	};

	return {base, env, repo, empty, kb, stageNotes, distillationFile, stageDistillation, attachmentStore, packets, savePage, stageWiki, evidence: evidenceScene(base, env)};
}

/**
 * A second knowledge base for evidence contracts, written with fixed observation times so its
 * hashes (journal, contract, context, proposal) are the same on every run.
 */
function evidenceScene(base: string, env: Record<string, string>) {
	const root = join(base, 'kb-evidence');
	const question = 'Should the CSV export stream?';
	const at = '2026-02-01T00:00:00Z';
	const asOf = '2026-06-01T00:00:00Z';
	const file = (name: string) => join(base, name);
	const setUp = () => {
		mkdirSync(join(root, '.engi'), {recursive: true});
		writeFileSync(
			join(root, '.engi', 'journal.jsonl'),
			journalText([
				node('decision:stream', at, {label: 'Stream the CSV rather than build it in memory', provenance: 'conversation:claude:c0de0000-0000-4000-8000-000000000001'}),
				node('decision:size', at, {label: 'Order exports reach 2 GB', provenance: 'conversation:claude:c0de0000-0000-4000-8000-000000000001'}),
				{op: 'edge.assert', payload: {from: 'decision:stream', type: 'DEPENDS_ON', to: 'decision:size', provenance: 'conversation:claude:c0de0000-0000-4000-8000-000000000001'}, at},
				node('project:shop', at, {kind: 'Project', label: 'Web shop'}),
			]),
		);
		const ids = ['decision:stream', 'decision:size', 'project:shop'];
		const pins = pinsOf(kbPaths(root), asOf, ids);
		const fields = {question, scope_nodes: ids, as_of: asOf, sources: pins};
		writeJson(file('contract.json'), contract({...fields, facts: [{id: 'why', description: 'the reason to stream', alternatives: [['decision:stream'], ['decision:size', 'project:shop']]}], budget_tokens: 4000}));
		writeJson(file('prepare.json'), contract({...fields, sources: {'decision:stream': pins['decision:stream'], 'decision:size': pins['decision:size']}, facts: []}));
		const prepared = runCli(['query', '--q', question, '--evidence-contract', file('prepare.json'), '--prepare-proposal', '--root', root, '--format', 'json'], {env}).json<{context_sha256: string}>();
		const premises = [{id: 'big', claim: 'Exports are too big to build in memory', alternatives: [[{source: 'decision:size', quote: 'reach 2 GB'}]]}];
		writeJson(file('proposal.json'), {version: 1, question, context_sha256: prepared.context_sha256, tasks: [{id: 'task:stream-csv', label: 'Stream the orders CSV export', project: 'project:shop', premises}]});
	};

	const writeReview = () => {
		const checked = runCli(['query', '--q', question, '--evidence-contract', file('prepare.json'), '--task-proposal', file('proposal.json'), '--root', root, '--format', 'json'], {env}).json<{review_template: {premises: object[]; proposal: {tasks: Array<{premises: Array<{alternatives: unknown[][]}>}>}}}>();
		const template = checked.review_template;
		writeJson(file('review.json'), {...template, reviewer: 'ada', premises: template.premises.map(entry => ({...entry, verdict: 'supported', spans: template.proposal.tasks[0]!.premises[0]!.alternatives[0]}))});
	};

	const query = ['query', '--q', question, '--root', root];
	return {setUp, writeReview, query, root, file};
}

const attachmentSession = 'a77ac4ed-0000-4000-8000-0000000000aa';
/** A PNG signature and header, then a fixed filler: deterministic, so the golden documents are. */
const attachmentValue = `iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ${'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo'.repeat(60)}`;
const toolSession = 'd0d0d0d0-0000-4000-8000-0000000000dd';
const middlewareRequest = JSON.stringify({
	stable_prefix: {system: 'You review code changes.'},
	task: 'review the retry change',
	items: [
		{id: 'background', content: 'The HTTP client retries twice with a fixed backoff.', required: false, priority: 1},
		{id: 'diff', content: {path: 'src/retry.ts', patch: '-  backoff: 100\n+  backoff: 250\n'}, required: true},
		{id: 'log', content: 'retry > backs off twice: expected 250, got 100', required: false, priority: 5},
	],
	budget_tokens: 60,
});

const sessionOne = 'c0de0000-0000-4000-8000-000000000001';
const claudeFixture = '11111111-1111-4111-8111-111111111111';
const codexFixture = '0195a1c2-0a00-7a00-8a00-00000000000a';

/** A Codex session with no children, retired by the retention steps. */
const codexRetired = '0195a1c2-0d00-7d00-8d00-00000000000d';

function steps(world: ReturnType<typeof scene>): Array<Step | (() => void)> {
	const {repo, empty, kb, stageNotes, distillationFile, stageDistillation, evidence, attachmentStore, packets, savePage, stageWiki} = world;
	const attachment = ['--source', 'claude', '--source-root', attachmentStore];
	const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
	const since = ['--since', '2020-01-01'];
	// Executing a sweep takes the digest its dry run printed, known only once the dry run has run.
	const sweepExecute = ['retention', 'sweep', '--source', 'qwen', '--no-retention', '--details', '--execute', '--plan', ''];
	const artifacts = join(world.base, 'artifacts');
	const stageArtifacts = () => {
		mkdirSync(join(artifacts, 'tree', 'data'), {recursive: true});
		writeFileSync(join(artifacts, 'report.txt'), 'the quarterly report\n');
		writeFileSync(join(artifacts, 'tree', 'data', 'rows.csv'), 'id,total\n1,3\n');
		writeFileSync(join(artifacts, 'tree', 'README'), 'a run\n');
		symlinkSync('data/rows.csv', join(artifacts, 'tree', 'latest.csv'));
		writeFileSync(join(artifacts, 'final.txt'), 'final text\n');
		writeFileSync(join(artifacts, 'draft.txt'), 'draft text\n');
		const entry = (name: string, text: string) => ({path: join(artifacts, name), sha256: createHash('sha256').update(text).digest('hex')});
		writeFileSync(join(artifacts, 'final.json'), JSON.stringify({format: 'engi.final-collection.v1', collection: 'q3', final_files: [entry('final.txt', 'final text\n')], remove_files: [entry('draft.txt', 'draft text\n')]}));
	};

	return [
		{golden: 'init', command: 'init', args: ['init', kb]},
		{golden: 'config-set', command: 'config set', args: ['config', 'set', 'format', 'json']},
		{golden: 'config-get', command: 'config get', args: ['config', 'get', 'root', '--global']},
		{golden: 'graph-node', command: 'graph node', args: ['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop', '--path', '/src/shop']},
		{command: 'graph node', args: ['graph', 'node', '--id', 'task:csv', '--kind', 'Task', '--label', 'CSV export of orders', '--status', 'blocked', '--blocker', 'refund column unconfirmed']},
		{command: 'graph node', args: ['graph', 'node', '--id', 'task:flaky', '--kind', 'Task', '--label', 'Fix the flaky checkout test', '--status', 'open', '--next-action', 'apply the discount once']},
		{command: 'graph node', args: ['graph', 'node', '--id', 'decision:csv', '--kind', 'Decision', '--label', 'Stream the CSV rather than build it in memory']},
		{golden: 'graph-relate', command: 'graph relate', args: ['graph', 'relate', '--from', 'task:csv', '--edge', 'BELONGS_TO', '--to', 'project:shop']},
		{command: 'graph relate', args: ['graph', 'relate', '--from', 'task:flaky', '--edge', 'BELONGS_TO', '--to', 'project:shop']},
		{command: 'graph relate', args: ['graph', 'relate', '--from', 'decision:csv', '--edge', 'SUPPORTS', '--to', 'task:flaky']},
		{golden: 'graph-retract', command: 'graph retract', args: ['graph', 'retract', '--from', 'decision:csv', '--edge', 'SUPPORTS', '--to', 'task:flaky']},
		stageNotes,
		{golden: 'harvest', command: 'harvest', args: ['harvest', '--check'], codes: [0, 2]},
		{golden: 'ingest', command: 'ingest', args: ['ingest'], codes: [0, 2]},
		{golden: 'index-rebuild', command: 'index rebuild', args: ['index', 'rebuild']},
		{golden: 'doctor', command: 'doctor', args: ['doctor'], codes: [0, 1, 2]},
		{golden: 'status', command: 'status', args: ['status']},
		{golden: 'timeline', command: 'timeline', args: ['timeline']},
		{golden: 'project.brief', command: 'project', args: ['project']},
		{golden: 'project.evidence', command: 'project', args: ['project', '--view', 'evidence']},
		{golden: 'project.full', command: 'project', args: ['project', 'project:shop', '--view', 'full']},
		{golden: 'query.context', command: 'query', args: ['query', '--q', 'csv']},
		{golden: 'query.hits', command: 'query', args: ['query', '--q', 'csv', '--view', 'hits']},
		{golden: 'query.evidence', command: 'query', args: ['query', '--q', 'task:csv', '--view', 'evidence']},
		evidence.setUp,
		{golden: 'query.contract', command: 'query', args: [...evidence.query, '--evidence-contract', evidence.file('contract.json')]},
		{golden: 'query.prepare-proposal', command: 'query', args: [...evidence.query, '--evidence-contract', evidence.file('prepare.json'), '--prepare-proposal', '--evidence-ids']},
		{golden: 'query.task-proposal', command: 'query', args: [...evidence.query, '--evidence-contract', evidence.file('prepare.json'), '--task-proposal', evidence.file('proposal.json')], codes: [2]},
		evidence.writeReview,
		{golden: 'query.proposal-review', command: 'query', args: [...evidence.query, '--evidence-contract', evidence.file('prepare.json'), '--task-proposal', evidence.file('proposal.json'), '--proposal-review', evidence.file('review.json')]},
		{golden: 'proposal-apply', command: 'proposal apply', args: ['proposal', 'apply', evidence.file('review.json'), '--root', evidence.root]},
		stageWiki,
		{golden: 'wiki-sync', command: 'wiki sync', args: ['wiki', 'sync'], codes: [2]},
		// Each step's time in ms differs run to run: the document is checked by its schemas, without a golden file.
		{command: 'dream', args: ['dream', '--steps', '1-4,6-7']},
		// A packet's hash covers its moment, so these two are checked by their schemas too.
		{command: 'dream', args: ['dream', '--prepare', 'contradictions']},
		() => {
			const packet = runCli(['dream', '--prepare', 'contradictions', '--format', 'json'], {env: world.env}).json<{packet: unknown}>().packet;
			writeFileSync(join(world.base, 'contradictions.json'), JSON.stringify({packet, model: 'golden-agent', contradictions: [{from: 1, to: 1, text: 'a node against itself', units: [1]}]}));
		},
		{command: 'dream', args: ['dream', '--accept', 'contradictions', '--file', join(world.base, 'contradictions.json')]},
		{golden: 'sessions.list', command: 'sessions', args: ['sessions', '--all-projects', '--limit', '500']},
		{golden: 'sessions.search', command: 'sessions', args: ['sessions', '--all-projects', '--q', 'retry']},
		{golden: 'read.dialogue', command: 'read', args: ['read', claudeFixture, '--source', 'claude']},
		{golden: 'read.events', command: 'read', args: ['read', claudeFixture, '--source', 'claude', '--view', 'events']},
		{golden: 'read.context', command: 'read', args: ['read', claudeFixture, '--source', 'claude', '--view', 'context']},
		{golden: 'read.index', command: 'read', args: ['read', claudeFixture, '--source', 'claude', '--view', 'index']},
		{golden: 'read.lines', command: 'read', args: ['read', codexFixture, '--source', 'codex', '--lines', '1,3']},
		{golden: 'conversation', command: 'conversation', args: ['conversation', codexFixture, '--source', 'codex', '--limit', '5']},
		{golden: 'read.compact', command: 'read', args: ['read', claudeFixture, '--source', 'claude', '--view', 'events', '--compact']},
		{golden: 'read.deltas', command: 'read', args: ['read', toolSession, ...attachment, '--view', 'events', '--compact', '--deltas']},
		{golden: 'read.prune', command: 'read', args: ['read', codexFixture, '--source', 'codex', '--view', 'context', '--limit', '100', '--prune']},
		{golden: 'read.context-whole', command: 'read', args: ['read', toolSession, ...attachment, '--view', 'context', '--preview-chars', 'all', '--prune']},
		{golden: 'read.attachment-refs', command: 'read', args: ['read', attachmentSession, ...attachment, '--view', 'events', '--attachment-refs']},
		{golden: 'read.attachment', command: 'read', args: ['read', attachmentSession, ...attachment, '--lines', '1', '--attachment', '/message/content/0/source/data', '--expect-sha256', sha256(attachmentValue)]},
		savePage,
		{golden: 'read.encode-json', command: 'read', args: ['read', '--encode-json', join(packets, 'page.json'), '--deltas']},
		{golden: 'read.validate-packet', command: 'read', args: ['read', '--validate-packet', join(packets, 'packet.json')]},
		{golden: 'read.decode-packet', command: 'read', args: ['read', '--decode-packet', join(packets, 'packet.json')]},
		{golden: 'middleware-prepare', command: 'middleware prepare', args: ['middleware', 'prepare', '--file', join(packets, 'request.json')]},
		{golden: 'middleware-expand', command: 'middleware expand', args: ['middleware', 'expand', '--file', join(packets, 'request.json'), '--expect-source-sha256', sha256(middlewareRequest), '--ids', 'diff,log']},
		{golden: 'unfinished', command: 'unfinished', args: ['unfinished', '--all-projects', ...since, '--limit', '500']},
		{golden: 'resume.ambiguous', command: 'resume', args: ['resume', ...since], cwd: repo, codes: [1]},
		{golden: 'pickup.ambiguous', command: 'pickup', args: ['pickup', ...since], cwd: repo, codes: [1]},
		{golden: 'resume.not-found', command: 'resume', args: ['resume', ...since], cwd: empty, codes: [1]},
		{golden: 'pickup.not-found', command: 'pickup', args: ['pickup', ...since], cwd: empty, codes: [1]},
		{golden: 'checkpoint-record', command: 'checkpoint record', args: ['checkpoint', 'record', '--session', sessionOne, '--objective', 'CSV export of orders', '--status', 'blocked', '--blocker', 'refund column unconfirmed'], cwd: repo},
		{golden: 'checkpoint-show', command: 'checkpoint show', args: ['checkpoint', 'show', sessionOne], cwd: repo},
		{golden: 'checkpoint-list', command: 'checkpoint list', args: ['checkpoint', 'list'], cwd: repo},
		{golden: 'resume.brief', command: 'resume', args: ['resume', sessionOne, '--source', 'claude'], cwd: repo},
		{golden: 'resume.no-compact', command: 'resume', args: ['resume', codexFixture, '--source', 'codex', '--no-compact']},
		{golden: 'resume.compact', command: 'resume', args: ['resume', codexFixture, '--source', 'codex', '--view', 'context', '--limit', '100']},
		{golden: 'resume.events', command: 'resume', args: ['resume', codexFixture, '--source', 'codex', '--view', 'events', '--limit', '5']},
		{golden: 'pickup.ok', command: 'pickup', args: ['pickup', sessionOne, '--source', 'claude'], cwd: repo},
		{golden: 'standup', command: 'standup', args: ['standup', '--since', '2026-11-01']},
		{golden: 'candidates-harvest', command: 'candidates harvest', args: ['candidates', 'harvest', sessionOne, codexFixture, claudeFixture, '--consent']},
		{golden: 'candidates-list', command: 'candidates list', args: ['candidates', 'list']},
		{golden: 'candidates-show', command: 'candidates show', args: ['candidates', 'show', `codex-${codexFixture}`]},
		{golden: 'candidates-evidence', command: 'candidates evidence', args: ['candidates', 'evidence', `codex-${codexFixture}`, '--max-turns', '12']},
		stageDistillation,
		{golden: 'candidates-accept', command: 'candidates accept', args: ['candidates', 'accept', `claude-${sessionOne}`, '--file', distillationFile]},
		{golden: 'candidates-distill', command: 'candidates distill', args: ['candidates', 'distill', `codex-${codexFixture}`, '--with', 'node test/fixtures/distillers/mix.mjs', '--max-turns', '12'], cwd: repoRoot},
		{golden: 'candidates-reject', command: 'candidates reject', args: ['candidates', 'reject', `claude-${claudeFixture}`]},
		{golden: 'candidates-promote', command: 'candidates promote', args: ['candidates', 'promote', `codex-${codexFixture}`, '--project', repo]},
		{golden: 'trace', command: 'trace', args: ['trace', '--q', 'retry', '--max-records', '3']},
		{golden: 'retention-plan', command: 'retention plan', args: ['retention', 'plan', '--no-retention']},
		{golden: 'retention-plan.details', command: 'retention plan', args: ['retention', 'plan', '--no-retention', '--details', '--source', 'qwen']},
		{command: 'graph node', args: ['graph', 'node', '--id', `conversation:codex:${codexRetired}`, '--kind', 'Conversation', '--label', 'Codex session']},
		{command: 'graph node', args: ['graph', 'node', '--id', 'dataset:timeouts', '--kind', 'Dataset', '--label', 'Timeouts of every retry caller']},
		{command: 'graph relate', args: ['graph', 'relate', '--from', 'dataset:timeouts', '--edge', 'DERIVED_FROM', '--to', `conversation:codex:${codexRetired}`]},
		{golden: 'retention-attest', command: 'retention attest', args: ['retention', 'attest', codexRetired, '--source', 'codex', '--knowledge-node', 'dataset:timeouts', '--session-closed']},
		{golden: 'retention-purge.dry-run', command: 'retention purge', args: ['retention', 'purge', codexRetired, '--source', 'codex', '--no-retention']},
		{golden: 'retention-purge.executed', command: 'retention purge', args: ['retention', 'purge', codexRetired, '--source', 'codex', '--no-retention', '--execute']},
		{golden: 'retention-sweep.dry-run', command: 'retention sweep', args: ['retention', 'sweep', '--source', 'qwen', '--no-retention', '--details']},
		() => {
			sweepExecute[sweepExecute.indexOf('--plan') + 1] = runCli(['retention', 'sweep', '--source', 'qwen', '--no-retention', '--format', 'json'], {env: world.env}).json<{plan_sha256: string}>().plan_sha256;
		},
		{golden: 'retention-sweep.executed', command: 'retention sweep', args: sweepExecute},
		{golden: 'retention-log', command: 'retention log', args: ['retention', 'log']},
		stageArtifacts,
		{golden: 'artifact-add', command: 'artifact add', args: ['artifact', 'add', '--file', join(artifacts, 'report.txt'), '--project', 'project:shop']},
		{golden: 'artifact-add-tree', command: 'artifact add-tree', args: ['artifact', 'add-tree', '--directory', join(artifacts, 'tree'), '--manifest', join(artifacts, 'tree.manifest.json')]},
		{golden: 'artifact-finalize', command: 'artifact finalize', args: ['artifact', 'finalize', '--plan', join(artifacts, 'final.json'), '--apply']},
		{golden: 'demo', command: 'demo', args: ['demo']},
		{golden: 'schema', command: 'schema', args: ['schema']},
		{golden: 'mcp.list', command: 'mcp', args: ['mcp', '--list', '--allow-writes']},
		{golden: 'guide', command: 'guide', args: ['guide']},
		{golden: 'hook-install', command: 'hook install', args: ['hook', 'install', '--agent', 'claude', '--scope', 'project'], cwd: repo},
		{golden: 'hook-run', command: 'hook run', args: ['hook', 'run', '--event', 'session-end', '--agent', 'claude', '--print'], input: JSON.stringify({session_id: sessionOne, cwd: repo, hook_event_name: 'SessionEnd'})},
		{golden: 'hook-pending', command: 'hook pending', args: ['hook', 'pending']},
	];
}

test('every command\'s JSON document matches its own output schema, engi schema and its golden file', {timeout: 300_000}, async t => {
	const world = scene(t);
	const from = Date.now() - 2000;
	const run = (step: Step): CliResult => runCli([...step.args, '--format', 'json'], {env: world.env, cwd: step.cwd, input: step.input});
	const plan = steps(world);
	const covered = new Set(plan.flatMap(step => (typeof step === 'function' ? [] : [step.command])));
	assert.deepEqual(commandTable.map(entry => entry.name).filter(name => !covered.has(name)), [], 'every command in the table has a step');

	const published = runCli(['schema', '--format', 'json'], {env: world.env}).json<{schemas: Record<string, unknown>}>().schemas;
	const documents: Array<{golden: string; document: unknown}> = [];
	for (const step of plan) {
		if (typeof step === 'function') {
			step();
			continue;
		}

		const result = run(step);
		const label = `engi ${step.args.join(' ')}`;
		assert.ok((step.codes ?? [0]).includes(result.code), `${label} exited ${result.code}: ${result.stderr}`);
		const document = result.json<JsonDocument>();
		await checkDocument(step.command, document, published);
		if (step.golden) {
			documents.push({golden: step.golden, document});
		}
	}

	const normalizer: Normalizer = {sandbox: world.base, window: {from, to: Date.now() + 2000}};
	// Every golden file is compared before failing, so one run names all that differ.
	const differing: string[] = [];
	for (const {golden, document} of documents) {
		try {
			assertGolden(`json/${golden}.json`, goldenJson(document, normalizer, {clockRelative: golden === 'demo'}));
		} catch (error) {
			differing.push((error as Error).message);
		}
	}

	assert.deepEqual(differing, [], 'golden JSON documents differ; if the change is meant, regenerate them (see the header of this file) and review the diff');
});

type JsonSchemaNode = Record<string, unknown>;

const unionOf = (node: JsonSchemaNode) => (node['anyOf'] ?? node['oneOf']) as JsonSchemaNode[] | undefined;

/** The object shapes a JSON Schema allows, through unions nested at any depth. */
function shapesOf(node: JsonSchemaNode): JsonSchemaNode[] {
	return unionOf(node)?.flatMap(branch => shapesOf(branch)) ?? [node];
}

/** The schema without the `schema` field engi schema adds to every object shape. */
function withoutSchemaField(node: JsonSchemaNode): JsonSchemaNode {
	const union = unionOf(node);
	if (union) {
		return {...node, [node['anyOf'] ? 'anyOf' : 'oneOf']: union.map(branch => withoutSchemaField(branch))};
	}

	const {schema: _schema, ...properties} = node['properties'] as JsonSchemaNode;
	return {...node, properties, required: (node['required'] as string[]).filter(key => key !== 'schema')};
}

test('engi schema <command> prints, for each command, a JSON Schema that is the one engi schema lists', async t => {
	const env = sandboxEnv(tempDir(t));
	const all = runCli(['schema', '--format', 'json'], {env}).json<{schema: string; schemas: Record<string, Record<string, unknown>>}>();
	assert.equal(all.schema, 'engi.schema.v1');
	assert.deepEqual(Object.keys(all.schemas), commandTable.map(entry => entry.name));
	for (const {name} of commandTable) {
		const one = runCli(['schema', name, '--format', 'json'], {env}).json<{schemas: Record<string, Record<string, unknown>>}>();
		assert.deepEqual(Object.keys(one.schemas), [name]);
		const jsonSchema = one.schemas[name]!;
		assert.deepEqual(jsonSchema, all.schemas[name], `engi schema "${name}" is the one engi schema lists`);
		const {name: printedAs, output} = await loadCommand(name);
		assert.equal(jsonSchema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
		assert.equal(jsonSchema['$id'], schemaName(printedAs));
		// Every shape the document can take is an object that names its schema and allows nothing else.
		for (const branch of shapesOf(jsonSchema)) {
			assert.equal(branch['type'], 'object', name);
			assert.deepEqual((branch['properties'] as Record<string, unknown>)['schema'], {type: 'string', const: schemaName(printedAs)}, name);
			assert.ok((branch['required'] as string[]).includes('schema'), name);
			assert.equal(branch['additionalProperties'], false, `${name} allows no keys it does not describe`);
		}

		// It is a JSON Schema zod can read back, and it is the command's own output schema: the
		// conversion of the zod schema, plus the schema field every document carries.
		assert.doesNotThrow(() => zod.fromJSONSchema(jsonSchema as Parameters<typeof zod.fromJSONSchema>[0]), name);
		const {$id: _id, ...printed} = jsonSchema;
		assert.deepEqual(withoutSchemaField(printed), z.toJSONSchema(output, {io: 'output', unrepresentable: 'any'}), `engi schema "${name}" is z.toJSONSchema of its output schema`);
	}
});

test('the contract checks fail on a document of another shape', async () => {
	const checkpoint = {session: 's', source: 'claude', project: '/p', status: 'blocked', objective: 'o', completed_work: [], current_evidence: [], blockers: ['b'], next_action: null, verification: null, updated_at: '2026-11-26T12:00:00.000Z'};
	const shown = {schema: 'engi.checkpoint.show.v1', status: 'ok', path: '/p/.engi/checkpoints.jsonl', checkpoint};
	assert.equal(await schemaProblem('checkpoint show', shown), undefined, 'the document as printed passes');
	const cases: Array<[string, JsonDocument]> = [
		['a nested key the schema lacks', {...shown, checkpoint: {...checkpoint, mood: 'hopeful'}}],
		['a missing field', {...shown, checkpoint: {...checkpoint, blockers: undefined}}],
		['a value outside its enum', {...shown, checkpoint: {...checkpoint, status: 'sleeping'}}],
		['a null where a string belongs', {...shown, path: null}],
		['another command\'s schema name', {...shown, schema: 'engi.checkpoint.list.v1'}],
	];
	for (const [what, document] of cases) {
		assert.notEqual(await schemaProblem('checkpoint show', document), undefined, `${what} is caught`);
	}
});
