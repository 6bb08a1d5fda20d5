import assert from 'node:assert/strict';
import {existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {parse as parseYaml} from 'yaml';
import {sourceIds} from '../source/adapters/types.js';
import {canaries, canaryText, leakedNeedles} from './helpers/canaries.js';
import {writers, type ScriptedSession} from './helpers/canary-stores.js';
import {writeClaudeTranscript} from './helpers/claude-transcript.js';
import {buildFixtureHome} from './fixtures/home.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';

const since = ['--all-projects', '--since', '2020-01-01'];

function harvest(kb: KbSandbox, args: readonly string[] = [], options: {cwd?: string} = {}) {
	return kb.run(['candidates', 'harvest', ...args, '--format', 'json'], options);
}

function noteFiles(kb: KbSandbox): string[] {
	const folder = join(kb.root, '00-inbox', 'candidates');
	return existsSync(folder) ? readdirSync(folder).filter(name => name.endsWith('.md')).sort() : [];
}

const readNote = (kb: KbSandbox, name: string) => readFileSync(join(kb.root, '00-inbox', 'candidates', name), 'utf8');
const frontmatterOf = (text: string) => parseYaml(text.split('\n---\n')[0]!.replace(/^---\n/, '')) as Record<string, any>;

function project(kb: KbSandbox, name = 'shop'): string {
	const directory = join(kb.base, name);
	mkdirSync(join(directory, '.git'), {recursive: true});
	return directory;
}

test('every source\'s fixtures harvest: a note per readable session, each read back alike by engi and by a YAML parser, and every one serves its evidence', {timeout: 180_000}, t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const result = harvest(kb, [...since, '--consent']);
	assert.equal(result.code, 0, result.stderr);
	const output = result.json();
	assert.equal(output.schema, 'engi.candidates.harvest.v1');
	// The only failures are the sessions the catalog itself cannot read (fixtures damaged on purpose).
	const sessions = kb.ok(['sessions', ...since, '--limit', '500']).sessions as Array<{id: string; source: string; error: string | null}>;
	assert.deepEqual(output.failed.map((failure: {native_id: string}) => failure.native_id).sort(), sessions.filter(session => session.error !== null).map(session => session.id).sort());
	assert.equal(output.counts.written, sessions.filter(session => session.error === null).length, 'every readable session gets a note');
	assert.deepEqual([...new Set(output.written.map((note: {source: string}) => note.source))].sort(), [...sourceIds].sort(), 'all ten sources');
	assert.equal(noteFiles(kb).length, output.counts.written);

	const listed = kb.ok(['candidates', 'list', '--limit', '500']);
	assert.equal(listed.total, output.counts.written);
	assert.equal(listed.counts.unreadable, 0, 'engi reads back every note it wrote');
	for (const row of listed.candidates) {
		const note = frontmatterOf(readNote(kb, `${row.ref}.md`));
		assert.equal(note['native_id'], row.native_id, `${row.ref}: a YAML parser reads what engi reads`);
		assert.equal(note['turns'], row.turns);
		assert.deepEqual(note['command_counts'], row.commands);
		assert.equal(note['tier'], 'harvest');
		assert.equal(note['status'], 'pending');
		assert.deepEqual([note['verified'], note['failed'], note['blockers'], note['decided'], note['next']], [[], [], [], [], null], 'a harvest never guesses a judgement');
		const evidence = kb.run(['candidates', 'evidence', row.ref, '--format', 'json']);
		assert.equal(evidence.code, 0, `${row.ref}: ${evidence.stderr}`);
		assert.equal(evidence.json().turns_total, row.turns, `${row.ref}: evidence numbers the turns the harvest numbered`);
	}

	const codex = frontmatterOf(readNote(kb, 'codex-0195a1c2-0a00-7a00-8a00-00000000000a.md'));
	assert.deepEqual(codex['first_request'], {turn: 4, line: 6, text: 'Fix the flaky retry test in the HTTP client'}, 'the first request a person typed, not the AGENTS.md and environment the host injected');
	assert.deepEqual(codex['command_counts'], {ok: 2, failed: 2, no_result: 2});
	assert.deepEqual(codex['files'], [{path: 'src/retry.ts', turn: 7}]);
	assert.equal(codex['skipped_lines'], 2, 'malformed lines are counted');

	const again = harvest(kb, since).json();
	assert.deepEqual(again.counts, {...output.counts, written: 0, grown: 0, unchanged: output.counts.written}, 'a second harvest of unchanged transcripts writes nothing (and needs no --consent)');
});

test('an unchanged transcript is skipped, a grown one gets a hash-suffixed sibling, and no note under review is ever rewritten', t => {
	const kb = makeKb(t);
	const cwd = project(kb);
	const id = 'c0ffee00-0000-4000-8000-000000000001';
	const transcript = writeClaudeTranscript(kb.env['HOME']!, {id, cwd}, [{user: 'add the refund column'}, {bash: 'npm test', id: 'call-1', ok: 'all passed'}, {assistant: 'Added.'}]);
	const first = harvest(kb, ['--consent'], {cwd}).json();
	assert.equal(first.counts.written, 1);
	const base = `claude-${id}.md`;
	assert.deepEqual(noteFiles(kb), [base]);
	const original = readNote(kb, base);

	// Touched but not changed: the fingerprint differs, the sha256 does not.
	const later = new Date(Date.now() - 30 * 60 * 1000);
	utimesSync(transcript.path, later, later);
	assert.equal(harvest(kb, [], {cwd}).json().counts.unchanged, 1);

	transcript.append([{user: 'now the CSV export'}, {bash: 'npm run export', id: 'call-2', fail: 'no such script'}]);
	const grown = harvest(kb, [], {cwd}).json();
	assert.deepEqual([grown.counts.written, grown.counts.grown], [1, 1]);
	const sibling = grown.written[0];
	const sha = frontmatterOf(readFileSync(join(kb.root, sibling.path), 'utf8'))['source_sha256'] as string;
	assert.equal(sibling.ref, `claude-${id}+${sha.slice(0, 12)}`, 'named with the first 12 digits of the new sha256');
	assert.deepEqual(sibling.siblings, [`claude-${id}`]);
	assert.equal(readNote(kb, base), original, 'the earlier note is exactly as it was');
	assert.equal(sibling.turns, 5);

	assert.equal(harvest(kb, [], {cwd}).json().counts.unchanged, 1, 'the sibling is the cursor now');
	assert.equal(noteFiles(kb).length, 2);

	// The queue and the cursor are the notes: with every cache and index gone, nothing changes.
	const queue = kb.ok(['candidates', 'list', '--status', 'all']);
	rmSync(kb.env['XDG_CACHE_HOME']!, {recursive: true, force: true});
	rmSync(join(kb.root, '.engi', 'index.sqlite'), {force: true});
	assert.deepEqual(kb.ok(['candidates', 'list', '--status', 'all']), queue);
	assert.equal(harvest(kb, [], {cwd}).json().counts.unchanged, 1);
	const ambiguous = kb.run(['candidates', 'show', id, '--format', 'json']);
	assert.equal(ambiguous.code, 1);
	assert.equal(ambiguous.error().code, 'candidate_ambiguous', 'a session id naming two notes is refused, not guessed');
});

test('the first harvest into a knowledge base needs --consent, recorded in its machine-local config: without it nothing is written', t => {
	const kb = makeKb(t);
	const cwd = project(kb);
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-000000000002', cwd}, [{user: 'rotate the keys'}]);
	const refused = harvest(kb, [], {cwd});
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'consent_required');
	assert.equal(existsSync(join(kb.root, '00-inbox', 'candidates')), false, 'no folder, no note');
	assert.equal(existsSync(join(kb.root, '.engi', 'config.json')), false);

	const granted = harvest(kb, ['--consent'], {cwd}).json();
	assert.equal(granted.consent.granted_now, true);
	assert.equal(JSON.parse(readFileSync(join(kb.root, '.engi', 'config.json'), 'utf8')).candidates_consent, granted.consent.at);
	assert.equal(readFileSync(kb.journal, 'utf8'), '', 'consent is not knowledge: the journal stays empty');
	assert.match(readFileSync(join(kb.root, '.gitignore'), 'utf8'), /^\.engi\/config\.json$/m, 'and the config is never committed');
	const folder = join(kb.root, '00-inbox', 'candidates');
	assert.equal(statSync(folder).mode & 0o777, 0o700);
	for (const name of noteFiles(kb)) {
		assert.equal(statSync(join(folder, name)).mode & 0o777, 0o600, `${name} is owner-only`);
	}

	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-000000000003', cwd}, [{user: 'and the certificates'}]);
	const next = harvest(kb, [], {cwd}).json();
	assert.deepEqual([next.consent.granted_now, next.counts.written], [false, 1], 'consent is asked once');
});

test('sessions written in the last two minutes are left for a later harvest, and counted', t => {
	const kb = makeKb(t);
	const cwd = project(kb);
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-000000000004', cwd, at: new Date()}, [{user: 'still typing'}]);
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-000000000005', cwd}, [{user: 'done an hour ago'}]);
	const output = harvest(kb, ['--consent'], {cwd}).json();
	assert.deepEqual([output.counts.considered, output.counts.active, output.counts.written], [2, 1, 1]);
	assert.deepEqual(noteFiles(kb), ['claude-c0ffee00-0000-4000-8000-000000000005.md']);
	assert.match(kb.run(['candidates', 'harvest', '--format', 'human'], {cwd}).stdout, /1 still running \(written in the last two minutes, left for later\)/);
});

/** A session per source that pastes every canary into a request, a command, its output and a reply. */
function canarySessions(cwd: string, at: Date): Array<{source: keyof typeof writers; session: ScriptedSession}> {
	return (['claude', 'codex', 'gemini', 'copilot'] as const).map((source, index) => ({
		source,
		session: {
			id: `${String(index + 1).repeat(8)}-0000-4000-8000-00000000000c`,
			cwd,
			at,
			turns: [
				{kind: 'user', text: `Deploy the shop with these settings:\n${canaryText}\n<private>my home address is 1 Elm Street</private>`},
				{kind: 'assistant', text: `Deploying with:\n${canaryText}`},
				{kind: 'call', id: `call-${source}`, command: `deploy --token ${canaries.map(canary => canary.text.split('\n')[0]).join(' ')}`},
				{kind: 'failure', id: `call-${source}`, output: `deploy failed:\n${canaryText}`},
			],
		},
	}));
}

test('canary secrets never reach a note, the report names each masked value by line and pattern only, and private spans are kept out and counted', t => {
	const kb = makeKb(t);
	const cwd = project(kb);
	const at = new Date(Date.now() - 60 * 60 * 1000);
	for (const {source, session} of canarySessions(cwd, at)) {
		writers[source](kb.env['HOME']!, session);
	}

	const result = harvest(kb, ['--consent', ...since]);
	assert.equal(result.code, 0, result.stderr);
	const output = result.json();
	assert.equal(output.counts.written, 4);
	for (const name of noteFiles(kb)) {
		const text = readNote(kb, name);
		assert.deepEqual(leakedNeedles(text), [], `${name} holds a canary`);
		assert.doesNotMatch(text, /Elm Street/, `${name} holds a private span`);
		assert.match(text, /\[redacted:/);
	}

	for (const note of output.written) {
		assert.equal(note.private_spans, 1, `${note.source}: the private span is counted`);
		const patterns = new Set(note.masked.map((masked: {pattern: string}) => masked.pattern));
		for (const canary of canaries) {
			assert.ok(patterns.has(canary.pattern), `${note.source}: ${canary.pattern} is reported`);
		}

		assert.ok(note.masked.every((masked: {line: number | null; field: string}) => typeof masked.field === 'string' && (masked.line === null || masked.line > 0)));
		const evidence = kb.run(['candidates', 'evidence', note.ref, '--format', 'json']);
		assert.equal(evidence.code, 0, evidence.stderr);
		assert.deepEqual(leakedNeedles(evidence.stdout), [], `${note.source}: the evidence shows a canary`);
		assert.doesNotMatch(evidence.stdout, /Elm Street/);
		assert.ok(evidence.json().masked > 0);
		assert.deepEqual(leakedNeedles(kb.run(['candidates', 'evidence', note.ref, '--format', 'human']).stdout), []);
	}

	assert.deepEqual(leakedNeedles(result.stdout + result.stderr), [], 'nor does the report');
	assert.deepEqual(leakedNeedles(kb.run(['candidates', 'list', '--format', 'human']).stdout), []);
});

test('a note whose frontmatter no longer parses stays in the queue, flagged unreadable under the id its file name gives; a reformatted one is read with YAML', t => {
	const kb = makeKb(t);
	const cwd = project(kb);
	const id = 'c0ffee00-0000-4000-8000-000000000006';
	writeClaudeTranscript(kb.env['HOME']!, {id, cwd}, [{user: 'fix the flaky checkout test'}, {assistant: 'Fixed.'}]);
	writeClaudeTranscript(kb.env['HOME']!, {id: 'c0ffee00-0000-4000-8000-000000000007', cwd}, [{user: 'bump the SDK'}]);
	harvest(kb, ['--consent'], {cwd});
	const folder = join(kb.root, '00-inbox', 'candidates');
	const broken = join(folder, `claude-${id}.md`);
	writeFileSync(broken, readFileSync(broken, 'utf8').replace('native_id: ', 'native_id: [unclosed '));
	// A person reformats the other note in block style, as an editor might.
	const other = join(folder, 'claude-c0ffee00-0000-4000-8000-000000000007.md');
	const text = readFileSync(other, 'utf8');
	const frontmatter = frontmatterOf(text);
	writeFileSync(other, ['---', ...Object.entries(frontmatter).map(([key, value]) => `${key}: ${value === null ? 'null' : typeof value === 'object' ? JSON.stringify(value) : typeof value === 'string' ? `'${value.replaceAll('\'', '\'\'')}'` : String(value)}`), '# reformatted by hand', '---', text.split('\n---\n')[1]!].join('\n'));

	const listed = kb.ok(['candidates', 'list']);
	assert.equal(listed.total, 2);
	const row = listed.candidates.find((candidate: {ref: string}) => candidate.ref === `claude-${id}`);
	assert.deepEqual([row.unreadable, row.status, row.source, row.native_id], [true, 'pending', 'claude', id]);
	assert.match(row.problem, /^line \d+: the frontmatter is not valid YAML$/);
	assert.equal(listed.counts.unreadable, 1);
	const readable = listed.candidates.find((candidate: {ref: string}) => candidate.ref !== `claude-${id}`);
	assert.equal(readable.unreadable, false, 'a hand-reformatted note is read with the YAML parser');
	assert.equal(readable.first_request, 'bump the SDK');

	const shown = kb.ok(['candidates', 'show', `claude-${id}.md`]);
	assert.equal(shown.note, null);
	assert.equal(shown.candidate.unreadable, true);
	for (const verb of ['reject', 'promote', 'evidence']) {
		const refused = kb.run(['candidates', verb, `claude-${id}`, '--format', 'json']);
		assert.equal(refused.error().code, 'candidate_unreadable', `${verb} refuses an unreadable note`);
	}

	const before = readFileSync(broken, 'utf8');
	const again = harvest(kb, [], {cwd}).json();
	assert.equal(again.counts.written, 1, 'its session is harvested again beside it');
	assert.match(again.written[0].ref, new RegExp(`^claude-${id}\\+[0-9a-f]{12}$`));
	assert.equal(readFileSync(broken, 'utf8'), before, 'and the unreadable note is left as it is');
});
