/**
 * Session hooks (issue 18): `engi hook install` merges engi's hook into each agent's real config
 * file without touching anything else, `engi hook run` turns the payload an agent hands its hook
 * on stdin into one pending note per session (and never fails the agent), and `engi hook pending`
 * lists the queue and what a candidate harvest has taken from it. Everything through the built
 * CLI, in a sandbox HOME, with real files and real git worktrees (a `.git` directory).
 */
import assert from 'node:assert/strict';
import {appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {cliPath, runCli} from './helpers/cli.js';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {writeClaudeSession} from './helpers/stores.js';
import {settle} from './fixtures/home.js';

/** Claude Code's settings as Claude writes them, with hooks and keys of its own already there. */
const claudeSettings = `{
  "model": "opus",
  "permissions": {
    "allow": ["Bash(npm test)", "Read(~/notes/**)"],
    "deny": []
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [{"type": "command", "command": "~/.claude/check-bash.sh", "timeout": 5}]
      }
    ],
    "SessionEnd": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "~/.claude/archive-transcript.sh"
          }
        ]
      }
    ]
  },
  "statusLine": {"type": "command", "command": "~/.claude/status.sh"}
}
`;

/** Gemini CLI's settings.json, indented with tabs, no hooks yet. */
const geminiSettings = '{\n\t"theme": "GitHub",\n\t"general": {\n\t\t"vimMode": true\n\t},\n\t"mcpServers": {\n\t\t"docs": {"command": "docs-mcp", "args": ["--stdio"]}\n\t}\n}\n';

const codexToml = 'model = "gpt-5-codex"\n\n[features]\ncodex_hooks = true\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';

function backupsOf(file: string): string[] {
	return readdirSync(dirname(file)).filter(name => name.startsWith(`${file.split('/').at(-1)}.engi-backup-`));
}

/** Whether every line of `before` is still in `after`, in order: the merge only added lines. */
function keepsEveryLine(before: string, after: string): boolean {
	const lines = after.split('\n');
	let at = 0;
	for (const line of before.split('\n')) {
		at = lines.indexOf(line, at);
		if (at === -1) {
			return false;
		}

		at++;
	}

	return true;
}

function install(kb: KbSandbox, args: string[], cwd?: string) {
	return kb.run(['hook', 'install', ...args, '--format', 'json'], {cwd});
}

test('hook install merges into Claude\'s settings.json beside its own hooks, keeps every other byte, backs it up, and a second install changes nothing', t => {
	const kb = makeKb(t);
	const file = join(kb.env['HOME']!, '.claude', 'settings.json');
	mkdirSync(dirname(file), {recursive: true});
	writeFileSync(file, claudeSettings);
	const dry = install(kb, ['--agent', 'claude', '--dry-run']);
	assert.equal(dry.code, 0, dry.stderr);
	assert.equal(dry.json().action, 'added');
	assert.equal(readFileSync(file, 'utf8'), claudeSettings, 'a dry run changes nothing');
	assert.deepEqual(backupsOf(file), []);

	const first = install(kb, ['--agent', 'claude']).json();
	assert.equal(first.action, 'added');
	assert.equal(first.native_event, 'SessionEnd');
	const after = readFileSync(file, 'utf8');
	assert.equal(after, dry.json().merged, 'the dry run showed exactly what was written');
	assert.ok(keepsEveryLine(claudeSettings, after), 'every line of the original is still there, in order');
	assert.ok(after.includes('"allow": ["Bash(npm test)", "Read(~/notes/**)"]'), 'an inline list keeps its layout');
	const settings = JSON.parse(after);
	assert.deepEqual(settings.hooks.SessionEnd, [
		{hooks: [{type: 'command', command: '~/.claude/archive-transcript.sh'}]},
		{hooks: [{type: 'command', command: 'engi hook run --event session-end --agent claude'}]},
	]);
	const {hooks: _hooks, ...others} = settings;
	const {hooks: _before, ...othersBefore} = JSON.parse(claudeSettings);
	assert.deepEqual(others, othersBefore);
	assert.deepEqual(backupsOf(file), [first.backup.split('/').at(-1)]);
	assert.equal(readFileSync(first.backup, 'utf8'), claudeSettings, 'the backup is the original');

	const second = install(kb, ['--agent', 'claude']).json();
	assert.equal(second.action, 'unchanged');
	assert.equal(second.backup, null);
	assert.equal(readFileSync(file, 'utf8'), after, 'a second install changes nothing');
	assert.equal(backupsOf(file).length, 1, 'and copies nothing');

	// Another way of calling engi replaces engi's own hook, never adds a second one.
	const moved = install(kb, ['--agent', 'claude', '--command', 'node /opt/engi/cli.js']).json();
	assert.equal(moved.action, 'updated');
	const commands = JSON.parse(readFileSync(file, 'utf8')).hooks.SessionEnd.flatMap((group: {hooks: Array<{command: string}>}) => group.hooks.map(hook => hook.command));
	assert.deepEqual(commands, ['~/.claude/archive-transcript.sh', 'node /opt/engi/cli.js hook run --event session-end --agent claude']);
});

test('hook install writes Gemini\'s, Codex\'s, OpenCode\'s and Copilot\'s own hook files in their formats, leaving what it does not own alone', t => {
	const kb = makeKb(t);
	const home = kb.env['HOME']!;
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});

	const gemini = join(home, '.gemini', 'settings.json');
	mkdirSync(dirname(gemini), {recursive: true});
	writeFileSync(gemini, geminiSettings);
	assert.equal(install(kb, ['--agent', 'gemini']).json().action, 'added');
	const geminiAfter = readFileSync(gemini, 'utf8');
	assert.ok(keepsEveryLine(geminiSettings, geminiAfter));
	assert.ok(geminiAfter.includes('\n\t"hooks": {\n\t\t"SessionEnd": [\n'), 'the hook is written in the file\'s own tab indentation');
	assert.deepEqual(JSON.parse(geminiAfter).hooks, {SessionEnd: [{hooks: [{type: 'command', command: 'engi hook run --event session-end --agent gemini', name: 'engi'}]}]});

	const toml = join(home, '.codex', 'config.toml');
	mkdirSync(dirname(toml), {recursive: true});
	writeFileSync(toml, codexToml);
	const codex = install(kb, ['--agent', 'codex']).json();
	assert.equal(codex.action, 'created');
	assert.equal(codex.path, join(home, '.codex', 'hooks.json'));
	assert.deepEqual(JSON.parse(readFileSync(codex.path, 'utf8')), {hooks: {Stop: [{hooks: [{type: 'command', command: 'engi hook run --event stop --agent codex'}]}]}});
	assert.ok(codex.notes.some((note: string) => note.includes('no session-end hook')), 'the output says Codex has no session-end hook');
	assert.equal(readFileSync(toml, 'utf8'), codexToml, 'config.toml is never edited');
	assert.equal((statSync(codex.path).mode & 0o777).toString(8), '600', 'a file engi creates is owner-only');

	const opencode = install(kb, ['--agent', 'opencode', '--scope', 'project'], repo).json();
	assert.equal(opencode.path, join(repo, '.opencode', 'plugins', 'engi.js'));
	assert.equal(opencode.native_event, 'session.idle');
	assert.match(readFileSync(opencode.path, 'utf8'), /event\.type !== 'session\.idle'/);
	assert.equal(install(kb, ['--agent', 'opencode', '--scope', 'project'], repo).json().action, 'unchanged');
	const foreign = join(kb.env['XDG_CONFIG_HOME']!, 'opencode', 'plugins', 'engi.js');
	mkdirSync(dirname(foreign), {recursive: true});
	writeFileSync(foreign, 'export const Mine = async () => ({});\n');
	const refused = install(kb, ['--agent', 'opencode']);
	assert.equal(refused.code, 1);
	assert.equal(refused.error().code, 'hook_config_foreign');
	assert.equal(readFileSync(foreign, 'utf8'), 'export const Mine = async () => ({});\n');

	const copilot = install(kb, ['--agent', 'copilot'], join(repo)).json();
	assert.equal(copilot.scope, 'project');
	assert.equal(copilot.path, join(repo, '.github', 'hooks', 'engi.json'));
	assert.deepEqual(JSON.parse(readFileSync(copilot.path, 'utf8')), {version: 1, hooks: {sessionEnd: [{type: 'command', bash: 'engi hook run --event session-end --agent copilot', timeoutSec: 10}]}});
	const userWide = install(kb, ['--agent', 'copilot', '--scope', 'user'], repo);
	assert.equal(userWide.code, 1);
	assert.equal(userWide.error().code, 'hook_scope_unsupported');
});

test('hook install refuses a config it cannot parse, naming the file and line, and changes nothing', t => {
	const kb = makeKb(t);
	const file = join(kb.env['HOME']!, '.claude', 'settings.json');
	mkdirSync(dirname(file), {recursive: true});
	const broken = '{\n  "model": "opus",\n  "hooks": {},\n}\n';
	writeFileSync(file, broken);
	const result = install(kb, ['--agent', 'claude']);
	assert.equal(result.code, 1);
	assert.equal(result.error().code, 'hook_config_unparsable');
	assert.match(result.error().message, new RegExp(`${file.replaceAll('.', '\\.')}:\\d+ is not valid JSON`));
	assert.equal(readFileSync(file, 'utf8'), broken);
	assert.deepEqual(backupsOf(file), []);

	writeFileSync(file, '{"hooks": {"SessionEnd": {"not": "a list"}}}\n');
	assert.equal(install(kb, ['--agent', 'claude']).error().code, 'hook_config_unexpected');
});

/** A git project with a Claude transcript in the sandbox's store, as Claude Code leaves one. */
function claudeProject(kb: KbSandbox, name = 'repo') {
	const repo = join(kb.base, name);
	mkdirSync(join(repo, '.git'), {recursive: true});
	const id = 'c0de0000-0000-4000-8000-0000000000b1';
	const transcript = writeClaudeSession(join(kb.env['HOME']!, '.claude', 'projects'), id, repo, [{user: 'add a CSV export to the orders page', assistant: 'Added the export button.', at: '2026-11-20T09:00:00.000Z'}]);
	settle(join(kb.env['HOME']!, '.claude'), new Date('2026-11-20T10:00:00Z'));
	return {repo, id, transcript, payload: {session_id: id, transcript_path: transcript, cwd: repo, hook_event_name: 'SessionEnd', reason: 'exit', permission_mode: 'default'}};
}

function hookRun(kb: KbSandbox, payload: unknown, args: string[] = ['--event', 'session-end', '--agent', 'claude']) {
	return kb.run(['hook', 'run', ...args], {input: typeof payload === 'string' ? payload : JSON.stringify(payload), cwd: kb.base});
}

const pendingFiles = (kb: KbSandbox) => (existsSync(join(kb.root, '00-inbox', 'harvest')) ? readdirSync(join(kb.root, '00-inbox', 'harvest')).filter(name => name.startsWith('pending-')) : []);

test('hook run queues one pending note per session from a real payload, silently, and a repeat of the same state writes nothing', t => {
	const kb = makeKb(t);
	const {id, transcript, payload, repo} = claudeProject(kb);
	const first = hookRun(kb, payload);
	assert.equal(first.code, 0, first.stderr);
	assert.equal(first.stdout, '', 'stdout belongs to the agent\'s hook protocol');
	assert.equal(first.stderr, '');
	const [name] = pendingFiles(kb);
	assert.match(name!, /^pending-[\da-f]{16}\.md$/);
	const note = join(kb.root, '00-inbox', 'harvest', name!);
	const text = readFileSync(note, 'utf8');
	assert.ok(text.includes(`session_id: "${id}"`) && text.includes(`project: "${repo}"`) && text.includes(`transcript_bytes: ${statSync(transcript).size}`));
	assert.ok(!text.includes('permission_mode'), 'only the fields engi names are kept');

	const again = hookRun(kb, payload, ['--event', 'session-end', '--agent', 'claude', '--print']);
	assert.equal(again.code, 0);
	assert.equal(again.json().status, 'duplicate');
	assert.equal(readFileSync(note, 'utf8'), text, 'the note is not rewritten');

	// The session went on: the same note is refreshed, not a second one written.
	copyFileSync(transcript, `${transcript}.copy`);
	appendFileSync(`${transcript}.copy`, `${JSON.stringify({type: 'user', message: {role: 'user', content: 'one more thing'}, timestamp: '2026-11-20T11:00:00.000Z'})}\n`);
	copyFileSync(`${transcript}.copy`, transcript);
	const grown = hookRun(kb, payload, ['--event', 'stop', '--agent', 'claude', '--print']).json();
	assert.equal(grown.status, 'updated');
	assert.deepEqual(pendingFiles(kb), [name]);
	assert.ok(readFileSync(note, 'utf8').includes('event: "stop"'));
});

test('hook run exits 0 on every error and says why on stderr: bad JSON, a bad flag, outside git, no knowledge base', t => {
	const kb = makeKb(t);
	const {payload} = claudeProject(kb);
	const outside = join(kb.base, 'not-a-repo');
	mkdirSync(outside);
	const cases: Array<[string, ReturnType<typeof hookRun>]> = [
		['invalid_json', hookRun(kb, '{"session_id": "abc", ')],
		['hook_payload_invalid', hookRun(kb, '["a list"]')],
		['invalid_flag_value', hookRun(kb, payload, ['--event', 'session-start'])],
		['hook_outside_git', hookRun(kb, {...payload, cwd: outside})],
		['unknown_flag', hookRun(kb, payload, ['--event', 'stop', '--bogus'])],
	];
	for (const [code, result] of cases) {
		assert.equal(result.code, 0, `${code}: exit 0`);
		assert.equal(result.stdout, '');
		assert.equal(JSON.parse(result.stderr).error.code, code);
	}

	assert.deepEqual(pendingFiles(kb), [], 'nothing was queued');
	const noRoot = runCli(['hook', 'run', '--event', 'session-end'], {env: {...kb.env, XDG_CONFIG_HOME: join(kb.base, 'elsewhere')}, input: JSON.stringify(payload)});
	assert.equal(noRoot.code, 0);
	assert.equal(noRoot.error().code, 'root_not_configured');
});

test('hook run masks secret-shaped values before writing, and ingest and harvest --check never take a pending note for knowledge', t => {
	const kb = makeKb(t);
	const token = `ghp_${'A1b2C3d4E5'.repeat(4).slice(0, 36)}`;
	const repo = join(kb.base, `deploy-${token}`);
	mkdirSync(join(repo, '.git'), {recursive: true});
	const result = hookRun(kb, {session_id: 'c0de0000-0000-4000-8000-0000000000c1', cwd: repo, last_assistant_message: `export GITHUB_TOKEN=${token}`}, ['--event', 'stop', '--agent', 'codex', '--print']);
	assert.equal(result.code, 0, result.stderr);
	assert.ok(result.json().masked.length > 0, 'the report names what was masked');
	const [name] = pendingFiles(kb);
	const text = readFileSync(join(kb.root, '00-inbox', 'harvest', name!), 'utf8');
	assert.ok(!text.includes(token), 'the secret never reaches the note');
	assert.ok(text.includes('[redacted:'));
	assert.ok(!result.stdout.includes(token));

	const check = kb.run(['harvest', '--check', '--format', 'json']);
	assert.equal(check.code, 0, check.stderr);
	assert.deepEqual(check.json().files, []);
	const ingest = kb.ok(['ingest']);
	assert.deepEqual([ingest.added, ingest.invalid, ingest.refused, ingest.skipped], [[], [], [], []]);
	assert.equal(readFileSync(kb.journal, 'utf8'), '', 'nothing was appended');
	assert.deepEqual(pendingFiles(kb), [name], 'the pending note stays queued');
});

test('hook pending lists what hooks queued, and a candidate harvest of the session (its own command) marks it harvested', t => {
	const kb = makeKb(t);
	const {id, payload} = claudeProject(kb);
	assert.deepEqual(kb.ok(['hook', 'pending']).pending, []);
	hookRun(kb, payload);
	hookRun(kb, {timestamp: 1_764_590_000_000, cwd: payload.cwd, reason: 'complete'}, ['--event', 'session-end', '--agent', 'copilot']);
	const listed = kb.ok(['hook', 'pending']);
	assert.deepEqual(listed.counts, {queued: 2, harvested: 0, unreadable: 0});
	const claude = listed.pending.find((row: {agent: string}) => row.agent === 'claude');
	assert.equal(claude.harvest, `engi candidates harvest ${id} --source claude`);
	const copilot = listed.pending.find((row: {agent: string}) => row.agent === 'copilot');
	assert.equal(copilot.session_id, null);
	assert.equal(copilot.harvest, `engi candidates harvest --source copilot --project ${payload.cwd}`);

	const words = claude.harvest.split(' ').slice(1);
	const harvested = kb.run([...words, '--consent', '--format', 'json'], {cwd: payload.cwd});
	assert.equal(harvested.code, 0, harvested.stderr);
	assert.equal(harvested.json().counts.written, 1);
	const after = kb.ok(['hook', 'pending']);
	assert.deepEqual(after.counts, {queued: 1, harvested: 1, unreadable: 0});
	assert.equal(after.pending.find((row: {agent: string}) => row.agent === 'claude').candidate, `claude-${id}`);

	writeFileSync(join(kb.root, '00-inbox', 'harvest', 'pending-0123456789abcdef.md'), 'not frontmatter\n');
	assert.equal(kb.ok(['hook', 'pending']).counts.unreadable, 1);
	assert.match(kb.run(['hook', 'pending', '--format', 'human']).stdout, /3 pending notes: 1 queued, 1 harvested, 1 unreadable/);

	// Paged as other lists are: counted whole, one page of rows, the next page's offset and command.
	const every = kb.ok(['hook', 'pending']).pending.map((row: {path: string}) => row.path);
	const first = kb.ok(['hook', 'pending', '--limit', '2']);
	assert.deepEqual([first.total, first.offset, first.next_offset, first.counts.unreadable, first.pending.map((row: {path: string}) => row.path)], [3, 0, 2, 1, every.slice(0, 2)]);
	const rest = kb.ok(['hook', 'pending', '--limit', '2', '--offset', '2']);
	assert.deepEqual([rest.next_offset, rest.pending.map((row: {path: string}) => row.path)], [null, every.slice(2)]);
	assert.match(kb.run(['hook', 'pending', '--limit', '2', '--format', 'human']).stdout, /\nnext: engi hook pending .*--offset 2/);
});

test('the OpenCode plugin engi installs hands the idle session to engi hook run, which queues it', async t => {
	const kb = makeKb(t);
	const repo = join(kb.base, 'repo');
	mkdirSync(join(repo, '.git'), {recursive: true});
	const installed = install(kb, ['--agent', 'opencode', '--command', `ENGI_ROOT=${kb.root} ${process.execPath} ${cliPath}`]).json();
	// OpenCode loads plugins as ES modules; a copy named .mjs lets node do the same here.
	const module = join(kb.base, 'engi-plugin.mjs');
	copyFileSync(installed.path, module);
	const {EngiHook} = (await import(module)) as {EngiHook: (context: {directory: string}) => Promise<{event: (input: {event: unknown}) => Promise<void>}>};
	const hooks = await EngiHook({directory: repo});
	await hooks.event({event: {type: 'message.updated', properties: {}}});
	await hooks.event({event: {type: 'session.idle', properties: {sessionID: 'ses_0123456789abcdefABCDEF'}}});
	const deadline = Date.now() + 20_000;
	while (pendingFiles(kb).length === 0 && Date.now() < deadline) {
		await new Promise(resolve => setTimeout(resolve, 100));
	}

	const rows = kb.ok(['hook', 'pending']).pending;
	assert.equal(rows.length, 1, 'one session queued, by the idle event only');
	assert.deepEqual([rows[0].agent, rows[0].event, rows[0].session_id, rows[0].project], ['opencode', 'stop', 'ses_0123456789abcdefABCDEF', repo]);
});

test('candidates harvest --pending harvests exactly the queued sessions, leaves a running one queued and names one the store lacks', t => {
	const kb = makeKb(t);
	const {id, payload, repo} = claudeProject(kb);
	const projects = join(kb.env['HOME']!, '.claude', 'projects');
	// Written just now: a harvest takes it as still running and leaves it for later.
	const running = 'c0de0000-0000-4000-8000-0000000000b2';
	const runningPath = writeClaudeSession(projects, running, repo, [{user: 'keep going', at: new Date().toISOString()}]);
	// Not queued: a harvest of the queue never touches it.
	writeClaudeSession(projects, 'c0de0000-0000-4000-8000-0000000000b3', repo, [{user: 'an unrelated session', at: '2026-11-20T09:00:00.000Z'}]);
	settle(join(projects, repo.replaceAll(/[^A-Za-z\d]/g, '-')), new Date('2026-11-20T10:00:00Z'));
	const now = new Date();
	utimesSync(runningPath, now, now);
	hookRun(kb, payload);
	hookRun(kb, {...payload, session_id: running, transcript_path: runningPath});
	hookRun(kb, {...payload, session_id: 'c0de0000-0000-4000-8000-0000000000ff', transcript_path: join(projects, 'gone.jsonl')});

	const harvested = kb.run(['candidates', 'harvest', '--pending', '--consent', '--format', 'json']);
	assert.equal(harvested.code, 0, harvested.stderr);
	const result = harvested.json();
	assert.deepEqual(result.written.map((note: {native_id: string}) => note.native_id), [id]);
	assert.equal(result.counts.active, 1);
	assert.deepEqual(result.failed.map((failure: {native_id: string; reason: string}) => [failure.native_id, failure.reason]), [['c0de0000-0000-4000-8000-0000000000ff', 'not in the claude store engi reads']]);
	const rows = kb.ok(['hook', 'pending']).pending as Array<{session_id: string; status: string}>;
	assert.deepEqual(Object.fromEntries(rows.map(row => [row.session_id, row.status])), {[id]: 'harvested', [running]: 'queued', 'c0de0000-0000-4000-8000-0000000000ff': 'queued'});

	const again = kb.run(['candidates', 'harvest', '--pending', '--format', 'json']).json();
	assert.equal(again.counts.written, 0, 'a harvested session is no longer queued');
	assert.equal(kb.run(['candidates', 'harvest', id, '--pending']).error().code, 'conflicting_flags');
});
