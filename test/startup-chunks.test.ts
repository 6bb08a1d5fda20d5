import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {repoRoot, runCli} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

/**
 * What a warm `unfinished`, `sessions` or `retention plan` loads is most of what the call costs
 * (every call is a fresh process, and each module is read and compiled again). Growth crept in
 * unnoticed once (35 chunks, 577 KB, where 25 and 473 KB had done), so the warm paths are held
 * here: no module of the deny-list below, and no more bytes of build/ than the budget. A warm
 * call reads no session, so the adapters' readers (~180 KB) are not among what it loads.
 * better-sqlite3's JavaScript (~27 KB) is counted here since it is bundled: required from
 * node_modules it was thirteen CommonJS files more to resolve and compile, which this trace of
 * ES modules did not see.
 */
const tracer = join(repoRoot, 'test/helpers/trace-imports.mjs');

type Meta = {outputs: Record<string, {bytes: number; inputs: Record<string, unknown>}>};

/** Modules these calls have no use for, each with why it is heavy or where it belongs. */
const denied: ReadonlyArray<readonly [RegExp, string]> = [
	[/^node_modules\/zod\/v4\/core\/(memoizer|doc|compile)\.js$/, 'zod\'s JIT compiler and memoizer (the MCP SDK\'s zod, bundled)'],
	[/^node_modules\/zod\/v4\/classic\//, 'classic zod (the source uses zod/mini)'],
	[/^node_modules\/@modelcontextprotocol\/|^build\/mcp-sdk\.js$/, 'the MCP SDK (engi mcp only)'],
	[/^node_modules\/(yaml|execa|meow|ink|react|minisearch)\//, 'a package only other commands need'],
	[/^source\/adapters\/index\.ts$|^source\/adapters\/[a-z]+\/(normalize|load)\.ts$|^source\/engine\/catalog\/(scan|search)\.ts$/, 'the adapters\' readers and the catalog\'s scanner (only when a session changed or is read)'],
	[/^source\/(mcp|screens)\/|^source\/tui\.tsx$|^source\/output\/json-schema\.ts$/, 'another face'],
];

/** What the session listings have no use for; a retention plan reads the index (and its memory rules) too. */
const otherAreas = [/^source\/engine\/(candidates|retention|index|knowledge|middleware|evidence|artifacts|journal\/append)/, 'another area of the engine'] as const;
const memoryRules = [/^source\/engine\/upkeep\/memory-types\.ts$/, 'memory rules (the config needs only the names: memory-type-names.ts)'] as const;

// Raised by ~5 KB for the kept scope answers (catalog/scope-memo.ts, candidates.ts), which spare
// warm calls over 15,000 sessions ~60 ms of reading every session in scope; by 1–4 KB for the
// ASCII word counter of catalog/term-counts.ts, which the catalog's store holds (a cold build's
// term counting: −200 ms at M); by 3 KB for lib/file-status.ts, the status of each session file
// without node's Stats (a warm call at L: −30 ms); by 4 KB for the links between sessions the
// catalog's store keeps (session_links: an Antigravity subagent attached to the parent whose
// transcript names it), code a warm call loads but runs none of: it writes only at scan time; by
// ~2 KB for discovering the layouts real stores were found to hold (OpenCode's per-project trees,
// QWEN_RUNTIME_DIR, Codex's `.json` rollouts, Cursor's `.txt` transcripts) and reading past a
// byte-order mark; by 2 KB for the places and layouts a second audit found stores to use (Claude
// Code's `~/.config/claude`, Copilot CLI's `$XDG_STATE_HOME/.copilot`, Qwen Code's archived and
// pre-JSONL chats, the only transcript of a Cursor session's folder, Grok's forks that are no
// subagents) and reading a root linked from another once; by 2 KB for what a fourth audit found
// (Qwen Code's subagent transcripts, the Antigravity CLI's prompt index naming each conversation's
// folder, the VS Code forks that keep Copilot Chat's store); by 2 KB for a fifth (Copilot Chat's
// transcripts folder, the chats one older Gemini CLI process recorded under one id); by 3–4 KB
// where line reading is loaded, for reading Codex's compressed rollouts (lib/zstd-lines.ts; the
// decoder itself, fzstd, loads only when a .zst file is read) and joining a record split over
// lines; by 1 KB for the Claude Code variants cc-mirror installs (their variant.json read for
// each variant's projects root); by 2 KB for Claude Desktop's Cowork tasks (the app's tree
// walked for each task's projects directory); by 3 KB for what a sixth audit found discovery
// must read (Copilot's workspace.yaml names written as YAML block scalars, the Cursor CLI's chat
// meta.json naming each chat's workspace); by 2 KB for OpenCode 2.x prompts still waiting in a
// session's inbox (counted in each session's stamp) and a Cowork walk that notes what it cannot
// list; by 1 KB where `unfinished` loads VS Code's request lists and a note of a Grok session
// directory discovery may not search; by 1–2 KB for the Antigravity CLI's prompt index lines
// without a conversation id (matched by their prompt and time); by 2 KB for whether the tool
// archived each session (Codex's and Qwen Code's archive folders, OpenCode's time_archived in its
// stamp), a narrow column listing and unfinished read; by 2 KB where `unfinished` loads Claude's
// discovery, for a Cowork task's archive mark (its state file's status, the mark kept in the
// discovery memo); by 1 KB where the stores name their native resume (Qwen Code's and Grok's
// stores now have one; the commands themselves load only when a resume asks); by 2–3 KB for the chats
// VS Code's Agent Sessions view archived (its storage database, read only when its status changes);
// by 1–2 KB where discovery reads a VS Code workspace folder written on Windows (a drive letter or a
// UNC host in its file: URI) and a Cursor subagent's parent from the chat facts it already keeps;
// by 2 KB where it reads the .code-workspace file a multi-root VS Code window's workspace.json names
// (JSON with comments), for the one folder it lists; by 1–2 KB where Claude's discovery reads the
// agent that started a nested subagent (its sidecar, when that changes) and OpenCode's and Grok's
// leave out a session named as its own parent; by 1–2 KB where the Antigravity CLI's discovery
// lists its step databases (a conversation whose transcript is empty or missing is read from
// one) and passes over an empty transcript log for one with content, as Grok's does (the summary
// table that names a subagent's parent is the reader's, so no warm call loads it); by 4–5 KB where
// Cursor's discovery names an editor chat from the editor's global state.vscdb (composerData's
// name and start, composerHeaders' workspace, asked only when that chat's transcript changed; the
// chats it archived, one query when the database changed); by 1 KB where every refresh forgets the
// rows of a catalogued root that is gone (one small read of root_writes, a stat for each root the
// call does not read); by 1 KB more where Cursor's discovery stamps a chat store with its WAL too
// and the Antigravity CLI's root follows ANTIGRAVITY_CLI_HOME; sessions' by 1 KB more where the
// Antigravity IDE's overview.txt step log is a transcript place too (62 bytes over); by 1–2 KB
// more where Cursor's discovery finds the editor's User directory where Electron keeps it, reads
// a chat's composerHeaders value and a multi-root window's .code-workspace (shared with VS Code),
// and follows a link while it spells a workspace from its slug; by 1 KB more where Grok's
// discovery finds subagent sessions in <session>/subagents/ and Codex reads the desktop app's
// envelopes; by 1 KB more where Cursor's discovery reads a chat's model from its store and from
// the editor's database; by 3–4 KB where Copilot CLI's discovery lists the sessions kept only in
// its session-store.db (a stat of the store and its WAL on a warm call; the listing query only
// when their status or the folders without events.jsonl changed); by 4–5 KB where the catalog's
// writes are plain data a writing thread can be handed (write-ops.ts, the writer's hand-over and
// its fallback; the thread's own code loads only when a refresh starts one); by 1 KB where the
// hand-written record readers find a record's fields from its own keys (shared/loose.ts), and
// by 1 KB more (unfinished) where they share one reader of a tagged record (looseRecord).
const budgets = [
	{args: ['unfinished', '--all-projects', '--since', '2020-01-01'], kilobytes: 469, alsoDenied: [otherAreas, memoryRules, [/^source\/engine\/search\/result-state\.ts$/, 'the typed search state (sessions\' reasons only)']] as const},
	{args: ['sessions', '--all-projects'], kilobytes: 427, alsoDenied: [otherAreas, memoryRules]},
	{
		args: ['retention', 'plan', '--no-retention'],
		kilobytes: 546,
		alsoDenied: [
			[/^source\/engine\/(candidates|middleware|evidence|artifacts|journal\/append)/, 'another area of the engine'],
			[/^source\/engine\/retention\/(sweep|purge|run-purge|compact|attest|delete|log)\.ts$/, 'the retention commands that change things or read the log'],
		] as const,
	},
];

/** The build/ files a traced call loaded, and the source modules bundled into them. */
function loadedBuild(traceFile: string): {files: string[]; inputs: string[]; bytes: number} {
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as Meta;
	const urls = existsSync(traceFile) ? readFileSync(traceFile, 'utf8').split('\n').filter(url => url.startsWith('file:')) : [];
	const files = [...new Set(urls.map(url => relative(repoRoot, fileURLToPath(url))).filter(file => file.startsWith('build/')))];
	const outputs = files.map(file => meta.outputs[file]).filter(output => output !== undefined);
	return {files, inputs: outputs.flatMap(output => Object.keys(output.inputs)), bytes: outputs.reduce((sum, output) => sum + output.bytes, 0)};
}

for (const {args, kilobytes, alsoDenied} of budgets) {
	test(`a warm engi ${args.slice(0, args.findIndex(arg => arg.startsWith('-'))).join(' ')} loads none of the denied modules and at most ${kilobytes} KB of build/`, t => {
		const kb = makeKb(t);
		buildFixtureHome(kb.env);
		const call = [...args, '--format', 'json'];
		assert.equal(runCli(call, {env: kb.env}).code, 0, 'the catalog, warmed');
		const traceFile = join(tempDir(t), 'trace.txt');
		const result = runCli(call, {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
		assert.equal(result.code, 0, result.stderr);
		const loaded = loadedBuild(traceFile);
		assert.ok(loaded.files.includes('build/cli.js') && loaded.files.length > 5, `the tracer saw the CLI and its chunks load: ${loaded.files.join(', ')}`);
		const offending = [...denied, ...alsoDenied].flatMap(([pattern, why]) => [...loaded.inputs, ...loaded.files].filter(input => pattern.test(input)).map(input => `${input} (${why})`));
		assert.deepEqual(offending, [], `engi ${args.join(' ')} loaded modules it does not need`);
		assert.ok(loaded.bytes <= kilobytes * 1024, `engi ${args.join(' ')} loaded ${Math.round(loaded.bytes / 1024)} KB in ${loaded.files.length} files (budget ${kilobytes} KB)`);
	});
}

test('better-sqlite3\'s JavaScript is bundled with the module that opens databases, its addon left in node_modules', () => {
	const meta = JSON.parse(readFileSync(join(repoRoot, 'build/meta.json'), 'utf8')) as Meta;
	const opener = Object.entries(meta.outputs).filter(([, output]) => 'source/lib/sqlite.ts' in output.inputs);
	assert.equal(opener.length, 1, 'lib/sqlite.ts is in one chunk');
	const inputs = Object.keys(opener[0]![1].inputs);
	assert.ok(inputs.includes('node_modules/better-sqlite3/lib/database.js'), `better-sqlite3's database.js is bundled beside lib/sqlite.ts: ${inputs.join(', ')}`);
	assert.ok(!inputs.some(input => input.endsWith('.node') || input.startsWith('node_modules/bindings/')), 'the addon and its finder are not bundled');
});

test('the budget check sees what a heavier command loads (it can fail)', t => {
	const kb = makeKb(t);
	const traceFile = join(tempDir(t), 'trace.txt');
	const result = runCli(['schema', '--format', 'json'], {env: {...kb.env, ENGI_TRACE_FILE: traceFile, ENGI_CODE_CACHE: 'off'}, nodeArgs: ['--import', tracer]});
	assert.equal(result.code, 0, result.stderr);
	const loaded = loadedBuild(traceFile);
	assert.ok(loaded.inputs.includes('source/output/json-schema.ts'), 'engi schema loads the denied JSON Schema module');
	assert.ok(loaded.bytes > 540 * 1024, `engi schema loads every command: ${Math.round(loaded.bytes / 1024)} KB`);
});
