/** @jsxRuntime automatic */
/** @jsxImportSource react */
import assert from 'node:assert/strict';
import {mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {render} from 'ink-testing-library';
import {decodePacket} from '../source/engine/conversation/codec/decode.js';
import {createEngineClient} from '../source/screens/engine-client.js';
import {KeyRouter} from '../source/screens/hooks/use-keys.js';
import {Pickup} from '../source/screens/pickup/index.js';
import {canaries, canaryText, leakedNeedles} from './helpers/canaries.js';
import {writers, type ScriptedSession} from './helpers/canary-stores.js';
import {runCli, sandboxEnv, type CliResult} from './helpers/cli.js';
import {waitForFrame} from './helpers/ink.js';
import {tempDir} from './helpers/temp.js';

const sources = ['claude', 'codex', 'gemini', 'copilot'] as const;

/** What a JSON output says, a packet decoded (resume prints compact by default); human text as it is. */
function decodedDocument(result: CliResult): unknown {
	try {
		const {schema: _schema, ...document} = JSON.parse(result.stdout) as Record<string, unknown>;
		return decodePacket(document);
	} catch {
		return result.stdout;
	}
}

/** Two sessions per source: one left on a failed and a pending command, one on an unanswered request. */
function scripts(source: string, index: number, cwd: string, at: Date): ScriptedSession[] {
	const id = (n: number) => `${String(index + 1).repeat(8)}-0000-4000-8000-00000000000${n}`;
	return [
		{
			id: id(1),
			cwd,
			at,
			turns: [
				{kind: 'user', text: `Deploy the shop (${source}) with these settings:\n${canaryText}`},
				{kind: 'assistant', text: `I will deploy with:\n${canaryText}`},
				{kind: 'call', id: `call-${source}-1`, command: `deploy --env prod <<'EOF'\n${canaryText}\nEOF`},
				{kind: 'failure', id: `call-${source}-1`, output: `deploy failed; the settings were:\n${canaryText}`},
				{kind: 'call', id: `call-${source}-2`, command: `retry-deploy ${canaries.map(canary => canary.text.split('\n')[0]).join(' ')}`},
			],
		},
		{
			id: id(2),
			cwd,
			at,
			turns: [
				{kind: 'user', text: `Rotate the shop credentials (${source}):\n${canaryText}`},
				{kind: 'assistant', text: `Rotated; the new ones are:\n${canaryText}`},
				{kind: 'user', text: `Now store these in the vault:\n${canaryText}`},
			],
		},
	];
}

function files(directory: string): string[] {
	return readdirSync(directory, {recursive: true, encoding: 'utf8'})
		.map(name => join(directory, name))
		.filter(path => statSync(path).isFile());
}

/** Terms an FTS5 table indexed: a contentless table keeps no text, but it keeps every term. */
function ftsTerms(path: string, table: string): string {
	const db = new Database(path, {readonly: true, fileMustExist: true});
	try {
		db.exec(`CREATE VIRTUAL TABLE temp.terms USING fts5vocab(main, ${table}, row)`);
		return (db.prepare('SELECT term FROM temp.terms').pluck().all() as string[]).join('\n');
	} finally {
		db.close();
	}
}

test('canary secrets of every pattern, pasted into four sources and a staged note, are never stored or shown (except by read)', {timeout: 240_000}, async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const home = env['HOME']!;
	const project = join(base, 'shop');
	mkdirSync(join(project, '.git'), {recursive: true});
	const at = new Date(Date.now() - 60 * 60 * 1000);
	const sessions = sources.flatMap((source, index) => scripts(source, index, project, at).map(session => ({source, session, path: writers[source](home, session)})));
	const kb = join(base, 'kb');
	const transcripts = new Set(sessions.map(entry => entry.path));

	const outputs: Array<{args: string[]; result: CliResult}> = [];
	const run = (args: string[], options: {code?: number[]} = {}) => {
		const result = runCli(args, {env, cwd: project});
		assert.ok((options.code ?? [0]).includes(result.code), `engi ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
		outputs.push({args, result});
		return result;
	};

	// The transcripts hold every canary, and `read` (a person reading their own transcript) shows them raw.
	for (const {source, session} of sessions) {
		assert.ok(leakedNeedles(runCli(['read', session.id, '--source', source, '--format', 'json'], {env, cwd: project}).stdout).length > 0, `${source} read shows the raw text`);
	}

	// Sessions, search, unfinished work, stand-up, briefs and pickup, in both faces.
	run(['sessions', '--all-projects']);
	run(['sessions', '--all-projects', '--format', 'human']);
	const found = run(['sessions', '--all-projects', '--q', 'deploy settings']).json();
	assert.equal(found.total, sessions.length / 2, 'every source\'s deploy session is found');
	assert.ok(found.sessions.every((entry: {matches: unknown[]}) => entry.matches.length > 0));
	run(['sessions', '--all-projects', '--q', 'deploy settings', '--format', 'human']);
	const unfinished = run(['unfinished', '--all-projects']).json();
	assert.equal(unfinished.total, sessions.length, 'every session is unfinished');
	const codes = new Set(unfinished.candidates.flatMap((candidate: {reasons: Array<{code: string}>}) => candidate.reasons.map(reason => reason.code)));
	for (const code of ['trailing_user_request_unanswered', 'pending_tool_call', 'unresolved_tool_failure']) {
		assert.ok(codes.has(code), `some candidate has ${code}`);
	}

	run(['unfinished', '--all-projects', '--format', 'human']);
	for (const {source, session} of sessions) {
		const brief = decodedDocument(run(['resume', session.id, '--source', source])) as {first_request: {text: string}};
		assert.ok(brief.first_request.text.includes('[redacted:'), `${source}: the brief quotes the request, masked`);
		run(['resume', session.id, '--source', source, '--format', 'human']);
		run(['resume', session.id, '--source', source, '--budget', '1000']);
		for (const view of ['dialogue', 'context', 'events']) {
			run(['resume', session.id, '--source', source, '--view', view]);
		}

		run(['resume', session.id, '--source', source, '--lines', '1,2,3']);
		run(['pickup', session.id, '--source', source]);
		run(['pickup', session.id, '--source', source, '--format', 'human']);
	}

	// A checkpoint written with secrets in it, then everything that shows checkpoints.
	const first = sessions[0]!;
	run(['checkpoint', 'record', '--session', first.session.id, '--source', first.source, '--objective', `deploy with ${canaries[12]!.text}`, '--next-action', canaries[15]!.text, '--blocker', canaries[1]!.text, '--evidence', canaries[4]!.text]);
	run(['checkpoint', 'show', first.session.id]);
	run(['checkpoint', 'list', '--format', 'human']);
	run(['resume', first.session.id, '--source', first.source, '--format', 'human']);
	run(['pickup', first.session.id, '--source', first.source]);
	run(['standup', '--since', '2d']);
	run(['standup', '--since', '2d', '--format', 'human']);

	// The knowledge base: a staged note full of secrets is refused, then ingested masked.
	run(['init', kb, '--no-register']);
	const root = ['--root', kb];
	run(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Web shop', ...root]);
	mkdirSync(join(kb, '00-inbox', 'harvest'), {recursive: true});
	const note = join(kb, '00-inbox', 'harvest', 'rotate.md');
	writeFileSync(note, ['---', 'id: task:rotate', 'kind: Task', `label: Rotate ${canaries[10]!.text}`, 'project: project:shop', 'status: open', `next_action: '${canaries[15]!.text}'`, `blockers: ['${canaries[13]!.text}']`, '---', 'Deploy settings pasted from the session:', '', canaryText, ''].join('\n'));
	const check = run(['harvest', '--check', ...root], {code: [2]}).json();
	assert.deepEqual(new Set(check.files[0].secrets.map((secret: {pattern: string}) => secret.pattern)), new Set(canaries.map(canary => canary.pattern)), 'every pattern is found in the note');
	assert.equal(run(['ingest', ...root], {code: [2]}).json().refused.length, 1);
	assert.equal(run(['ingest', '--redact', ...root]).json().added.length, 1);
	assert.equal(run(['ingest', ...root]).json().refused.length, 0, 'a redacted note is known again');
	for (const args of [['query', '--q', 'deploy settings'], ['query', '--q', 'rotate', '--view', 'evidence'], ['query', '--q', 'rotate', '--format', 'human'], ['project', 'project:shop'], ['project', 'project:shop', '--view', 'evidence'], ['status'], ['timeline'], ['index', 'rebuild'], ['status', '--format', 'human']]) {
		run([...args, ...root]);
	}

	run(['standup', '--since', '2d', ...root]);

	// No output of any command shows a canary.
	for (const {args, result} of outputs) {
		assert.deepEqual(leakedNeedles(result.stdout + result.stderr), [], `engi ${args.join(' ')} shows a canary`);
		// A compact packet keeps lines of a string apart: decoded, it must be as clean.
		assert.deepEqual(leakedNeedles(JSON.stringify(decodedDocument(result))), [], `engi ${args.join(' ')}, decoded, shows a canary`);
	}

	// Nor does any byte of any file engi wrote (catalog, index, journal, checkpoints, config, caches, their -wal files).
	const written = files(base).filter(path => !transcripts.has(path) && path !== note && !path.startsWith(join(home, '.gemini')) && !path.startsWith(join(home, '.copilot')));
	assert.ok(written.some(path => path.endsWith('catalog.sqlite')) && written.some(path => path.endsWith('index.sqlite')) && written.some(path => path.endsWith('journal.jsonl')) && written.some(path => path.endsWith('checkpoints.jsonl')));
	for (const path of written) {
		assert.deepEqual(leakedNeedles(readFileSync(path)), [], `${relative(base, path)} holds a canary`);
	}

	const catalog = written.find(path => path.endsWith('catalog.sqlite'))!;
	assert.deepEqual(leakedNeedles(ftsTerms(catalog, 'text_fts')), [], 'the session index has no canary term');
	assert.deepEqual(leakedNeedles(ftsTerms(join(kb, '.engi', 'index.sqlite'), 'node_fts')), [], 'the knowledge index has no canary term');

	// The dashboard's Pickup screen, drawn whole, for each source.
	const client = await createEngineClient({env, cwd: project, now: () => new Date(), platform: process.platform}, {allProjects: true, since: '2d'}, kb);
	for (const {source, session} of sessions) {
		const screen = render(
			<KeyRouter>
				<Pickup client={client} revision={0} target={{id: session.id, source}} active width={200} height={400} onResume={() => undefined} onCounts={() => undefined} />
			</KeyRouter>,
		);
		try {
			const frame = await waitForFrame(screen.lastFrame, text => text.includes('Resume (enter'));
			assert.match(frame, /\[redacted:/);
			assert.deepEqual(leakedNeedles(frame), [], `the ${source} Pickup screen shows a canary`);
		} finally {
			screen.unmount();
		}
	}
});
