/**
 * --prune (innen §8): each rule prunes what it must and keeps what it must; tool names and
 * argument keys are known for all ten sources (checked against the fixture stores); the notes
 * replace only output, add no field to a native record, and spare errors and the newest records.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import type {SessionEvent} from '../source/adapters/events.js';
import {sourceIds, type SourceId} from '../source/adapters/types.js';
import {listSessions} from '../source/engine/catalog/sessions.js';
import {withLocatedSession} from '../source/engine/conversation/locate.js';
import {walkRows} from '../source/engine/conversation/rows.js';
import {classifyShell} from '../source/engine/conversation/prune/shell.js';
import {isEmptyResult, pruneDecisions} from '../source/engine/conversation/prune/rules.js';
import {classifyCall, toolTables} from '../source/engine/conversation/prune/tools.js';
import {toolInputFields} from '../source/engine/conversation/tool-calls.js';
import type {Deps} from '../source/engine/deps.js';
import {EngiError} from '../source/lib/errors.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';
import {claudeSessionPath, claudeToolLines, codexSessionPath, codexToolLines, sourceFile, writeLines, type ToolStep} from './fixtures/tool-sessions.js';

let line = 0;
const call = (name: string, input: unknown, id = `c${line + 1}`): SessionEvent => ({line: ++line, kind: 'tool_call', tool: {name, call_id: id, input}});
const result = (id: string, output: string, options: {error?: boolean; exit?: number} = {}): SessionEvent => ({line: ++line, kind: 'tool_result', result: {call_id: id, is_error: options.error ?? false, output, ...(options.exit === undefined ? {} : {exit_code: options.exit})}});

/** A call and its result, as a pair of events. */
function pair(name: string, input: unknown, output: string, options: {error?: boolean; exit?: number} = {}): [SessionEvent, SessionEvent] {
	const id = `call-${line + 1}`;
	return [call(name, input, id), result(id, output, options)];
}

function decide(source: SourceId, events: SessionEvent[], kept: SessionEvent[] = []) {
	const decisions = pruneDecisions(events, source, '/work/app', new Set(kept));
	return events.filter(event => event.kind === 'tool_result').map(event => decisions.get(event)?.rule ?? null);
}

test('a read superseded by a later successful write of the same file is pruned; other files and failed writes are not', () => {
	const text = 'export const a = 1;\n'.repeat(20);
	assert.deepEqual(decide('claude', [...pair('Read', {file_path: '/work/app/a.ts'}, text), ...pair('Edit', {file_path: '/work/app/a.ts', old_string: '1', new_string: '2'}, 'ok')]), ['superseded_read', null]);
	assert.deepEqual(decide('claude', [...pair('Read', {file_path: '/work/app/a.ts'}, text), ...pair('Edit', {file_path: '/work/app/b.ts', old_string: '1', new_string: '2'}, 'ok')]), [null, null], 'another file');
	assert.deepEqual(decide('claude', [...pair('Read', {file_path: '/work/app/a.ts'}, text), ...pair('Edit', {file_path: '/work/app/a.ts', old_string: 'x', new_string: 'y'}, 'String not found', {error: true})]), [null, null], 'the write failed');
	assert.deepEqual(decide('claude', [...pair('Edit', {file_path: '/work/app/a.ts', old_string: '1', new_string: '2'}, 'ok'), ...pair('Read', {file_path: '/work/app/a.ts'}, text)]), [null, null], 'a read after the write is current');
	// Relative and absolute spellings name one file; Codex patches say which files they change.
	assert.deepEqual(decide('codex', [...pair('exec_command', {cmd: 'cat ./src/a.ts', workdir: '/work/app'}, text), ...pair('apply_patch', '*** Begin Patch\n*** Update File: /work/app/src/a.ts\n@@\n-1\n+2\n*** End Patch\n', 'Success')]), ['superseded_read', null]);
});

test('a read repeated with no write between is pruned; a different range, a write between or a failed re-read keep it', () => {
	const text = 'line\n'.repeat(40);
	assert.deepEqual(decide('gemini', [...pair('read_file', {absolute_path: '/work/app/a.ts'}, text), ...pair('read_file', {absolute_path: '/work/app/a.ts'}, text)]), ['duplicate_read', null]);
	assert.deepEqual(decide('gemini', [...pair('read_file', {absolute_path: '/work/app/a.ts', offset: 0, limit: 20}, text), ...pair('read_file', {absolute_path: '/work/app/a.ts', offset: 20, limit: 20}, text)]), [null, null], 'another range');
	assert.deepEqual(decide('gemini', [...pair('read_file', {absolute_path: '/work/app/a.ts'}, text), ...pair('read_file', {absolute_path: '/work/app/a.ts'}, 'ENOENT', {error: true})]), [null, null], 'the re-read failed');
	assert.deepEqual(decide('copilot', [...pair('view', {path: '/work/app/a.ts'}, text), ...pair('bash', {command: 'git status'}, 'clean'), ...pair('view', {path: 'a.ts'}, text)]), ['duplicate_read', null, null], 'a look between changes nothing');
});

test('a search that found nothing is pruned; one with matches, or a failing one, is not', () => {
	assert.deepEqual(decide('opencode', pair('grep', {pattern: 'retryLegacy'}, 'No files found')), ['empty_search']);
	assert.deepEqual(decide('opencode', pair('grep', {pattern: 'retry'}, 'src/a.ts:3: retry()')), [null]);
	assert.deepEqual(decide('codex', pair('exec_command', {cmd: 'rg -n retryLegacy'}, 'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 1\nOriginal token count: 0\nOutput:\n', {error: true, exit: 1})), ['empty_search'], 'rg exits 1 when nothing matches');
	assert.deepEqual(decide('codex', pair('exec_command', {cmd: 'rg -n "(" src'}, 'regex parse error', {error: true, exit: 2})), [null], 'exit 2 is an error');
	for (const empty of ['', '[]', 'No matches found', 'Found 0 results for "x"', 'Output: (empty)\nError: (none)', 'grep: 0 matches in 3 files', '<exited with exit code 1>']) {
		assert.ok(isEmptyResult(empty), empty);
	}

	for (const found of ['src/a.ts:1: x', '10 matches', 'Found 3 results']) {
		assert.ok(!isEmptyResult(found), found);
	}
});

test('git status repeated with only looks between is pruned; any other call between keeps it', () => {
	assert.deepEqual(decide('claude', [...pair('Bash', {command: 'git status --short'}, ' M a.ts'), ...pair('Read', {file_path: '/work/app/a.ts'}, 'x'), ...pair('Bash', {command: 'git status --short'}, ' M a.ts')]), ['duplicate_read', null, null]);
	assert.deepEqual(decide('claude', [...pair('Bash', {command: 'git status --short'}, ' M a.ts'), ...pair('Bash', {command: 'npm install'}, 'added 3'), ...pair('Bash', {command: 'git status --short'}, ' M a.ts')]), [null, null, null]);
});

test('tool names and argument keys the third-party fixture stores use are classified too', () => {
	const text = 'export const a = 1;\n'.repeat(20);
	// Cursor's transcripts name the shell Bash as well as Shell (../shared/fixtures/stores/cursor).
	assert.deepEqual(decide('cursor', [...pair('Bash', {command: 'cat src/a.ts'}, text), ...pair('Bash', {command: 'cat /work/app/src/a.ts'}, text)]), ['duplicate_read', null]);
	// Copilot CLI's shell tool may be named shell.
	assert.deepEqual(decide('copilot', [...pair('shell', {command: 'cat src/a.ts'}, text), ...pair('edit', {path: '/work/app/src/a.ts', old_str: '1', new_str: '2'}, 'ok')]), ['superseded_read', null]);
	// Gemini's and OpenCode's shell calls may say where they ran under cwd.
	for (const [source, shell, write] of [['gemini', 'run_shell_command', 'write_file'], ['opencode', 'bash', 'write']] as const) {
		const key = source === 'gemini' ? 'file_path' : 'filePath';
		assert.deepEqual(decide(source, [...pair(shell, {command: 'cat a.ts', cwd: '/work/app/src'}, text), ...pair(write, {[key]: '/work/app/src/a.ts', content: 'y'}, 'ok')]), ['superseded_read', null], source);
	}

	// A find that lists nothing is an empty search, on any source's shell.
	assert.deepEqual(decide('codex', pair('exec_command', {cmd: 'find . -name \'*.legacy\'', workdir: '/work/app'}, 'Chunk ID: 1\nWall time: 0.0 seconds\nProcess exited with code 0\nOriginal token count: 0\nOutput:\n')), ['empty_search']);
	assert.deepEqual(decide('claude', pair('Bash', {command: 'find . -name \'*.ts\''}, './src/a.ts\n')), [null], 'a find that found files is kept');
});

test('Grok\'s shell tool run_terminal_command and OpenCode 2.x\'s shell tool shell are shells', () => {
	const text = 'export const a = 1;\n'.repeat(20);
	// Grok Build names its shell run_terminal_command (chat_history tool_calls, updates.jsonl _meta["x.ai/tool"].name).
	assert.deepEqual(decide('grok', [...pair('run_terminal_command', {command: 'cat src/a.ts'}, text), ...pair('search_replace', {file_path: '/work/app/src/a.ts', old_string: '1', new_string: '2'}, 'ok')]), ['superseded_read', null]);
	// OpenCode 2.x renamed bash to shell (its v1-to-v2 migration renames the old calls too).
	assert.deepEqual(decide('opencode', [...pair('shell', {command: 'cat src/a.ts'}, text), ...pair('edit', {path: '/work/app/src/a.ts', oldString: '1', newString: '2'}, 'ok')]), ['superseded_read', null]);
});

test('errors and the newest records are never pruned; results without an explicit call id are never paired', () => {
	const text = 'x\n'.repeat(30);
	assert.deepEqual(decide('claude', [...pair('Read', {file_path: '/work/app/a.ts'}, text, {error: true}), ...pair('Write', {file_path: '/work/app/a.ts', content: 'y'}, 'ok')]), [null, null]);
	const events = [...pair('Read', {file_path: '/work/app/a.ts'}, text), ...pair('Write', {file_path: '/work/app/a.ts', content: 'y'}, 'ok')];
	assert.deepEqual(decide('claude', events, [events[1]!]), [null, null], 'kept: the result is among the newest records');
	const unpaired: SessionEvent[] = [{line: 1, kind: 'tool_call', tool: {name: 'view_file', call_id: null, input: {AbsolutePath: '/work/app/a.ts'}}}, {line: 2, kind: 'tool_result', result: {call_id: null, is_error: false, output: text}}, ...pair('write_to_file', {TargetFile: '/work/app/a.ts'}, 'ok')];
	assert.deepEqual(decide('antigravity', unpaired), [null, null]);
});

test('shell commands are classified from what they run', () => {
	const cases: Array<[string, string]> = [
		['cat src/a.ts', 'read'],
		['cd /work/app && head -n 40 ./src/a.ts', 'read'],
		['sed -n \'1,200p\' src/a.ts', 'read'],
		['nl -ba src/a.ts | sed -n \'1,80p\'', 'read'],
		['bat --plain src/a.ts', 'read'],
		['rg -n "retry" src', 'search'],
		['grep -rn TODO notes/ 2>&1', 'search'],
		['git grep -n retry', 'search'],
		['git status --short', 'status'],
		['git diff', 'status'],
		['echo x > src/a.ts', 'write'],
		['cat > src/a.ts <<\'EOF\'\ncat b.ts\nEOF', 'write'],
		['sed -i \'s/a/b/\' src/a.ts', 'write'],
		['npm test 2>&1 | tail -20', 'other'],
		['cat a.ts && npm test', 'other'],
		['ls -la', 'other'],
		// cat's -n numbers lines and takes no value; nl's and bat's value options do.
		['cat -n src/a.ts', 'read'],
		['nl -w 4 src/a.ts', 'read'],
		['bat -r 1:40 src/a.ts', 'read'],
		// A script handed to a shell is the command; git's own options before the subcommand change nothing it checks.
		['bash -lc "cat src/a.ts"', 'read'],
		['sh -c \'rg -n retry src\'', 'search'],
		['git -C /work/app status --short', 'status'],
		['git --no-pager diff', 'status'],
		['git -c color.ui=never diff --stat', 'status'],
		// find and fd list what matches, so an empty listing is an empty search; one that acts on what it finds is not a look.
		['find . -name \'*.legacy\'', 'search'],
		['find src -type f -iname "*retry*"', 'search'],
		['fd -e ts retryLegacy src', 'search'],
		['find . -name \'*.tmp\' -delete', 'other'],
		['find src -name "*.ts" -exec sed -i s/a/b/ {} +', 'other'],
		['ls src', 'other'],
	];
	for (const [command, kind] of cases) {
		assert.equal(classifyShell(command, '/work/app').kind, kind, command);
	}

	assert.deepEqual(classifyShell('cd src && cat ./a.ts', '/work/app'), classifyShell('cat /work/app/src/a.ts', '/work/app'), 'one file however it is spelt');
	assert.deepEqual((classifyShell('cat -n src/a.ts', '/work/app') as {paths: string[]}).paths, ['/work/app/src/a.ts']);
	assert.deepEqual((classifyShell('nl -w 4 src/a.ts', '/work/app') as {paths: string[]}).paths, ['/work/app/src/a.ts']);
	assert.deepEqual(classifyShell('bash -lc "cat src/a.ts"', '/work/app'), classifyShell('cat src/a.ts', '/work/app'));
	assert.deepEqual(classifyShell('git -C src status', '/work/app'), classifyShell('cd src && git status', '/work/app'), 'git -C runs in that directory');
	assert.deepEqual(classifyShell('find . -name \'*.legacy\'', '/work/app'), {kind: 'search', query: '*.legacy', noMatchExit: false});

});

test('every source\'s tool calls in the fixture stores are classified by its own table', async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const deps: Deps = {env, cwd: base, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform};
	const kinds = new Map<SourceId, Set<string>>();
	for (const session of (await listSessions({allProjects: true, includeSubagents: true, limit: 1000, offset: 0}, deps)).sessions) {
		// A session that cannot be located (unreadable, ambiguous) is passed over.
		const unreadable = new Set(['session_not_found', 'session_ambiguous', 'session_corrupt']);
		await withLocatedSession({id: session.id, source: session.source}, deps, located => {
			const source = located.adapter.id;
			const table = toolTables[source];
			const known = [...table.read, ...table.write, ...table.search, ...table.shell].map(name => name.toLowerCase());
			walkRows(located.view.db, located.adapter, located.unit, {fromLine: 1}, row => {
				for (const event of row.events.filter(candidate => candidate.kind === 'tool_call')) {
					const action = classifyCall(source, event, session.project);
					// A shell command may be anything; a truncated argument string (kept as the store wrote it) says nothing.
					const readable = typeof event.tool!.input !== 'string' || toolInputFields(event.tool!.input) !== undefined || event.tool!.input.includes('*** ');
					if (readable && known.includes(event.tool!.name.toLowerCase()) && !table.shell.some(name => name.toLowerCase() === event.tool!.name.toLowerCase())) {
						assert.notEqual(action.kind, 'other', `${source} ${event.tool!.name} ${JSON.stringify(event.tool!.input)}: the table names the tool, so its arguments must say what it touched`);
					}

					if (action.kind !== 'other') {
						const set = kinds.get(source) ?? new Set();
						set.add(action.kind);
						kinds.set(source, set);
					}
				}
			});
		}).catch((error: unknown) => {
			if (!(error instanceof EngiError && unreadable.has(error.code))) {
				throw error;
			}
		});
	}

	assert.deepEqual([...kinds.keys()].sort(), [...sourceIds].sort(), 'every source has classified calls');
	for (const [source, set] of kinds) {
		assert.ok(set.has('read') || set.has('write'), `${source}: ${[...set].join(', ')}`);
	}
});

/** Every key path of a JSON value, so a rewrite can be checked to add none. */
function keyPaths(value: unknown, at = ''): string[] {
	if (Array.isArray(value)) {
		return value.flatMap((item, index) => keyPaths(item, `${at}/${index}`));
	}

	if (value !== null && typeof value === 'object') {
		return Object.entries(value).flatMap(([key, item]) => [`${at}/${key}`, ...keyPaths(item, `${at}/${key}`)]);
	}

	return [];
}

function steps(): ToolStep[] {
	const a = sourceFile('/work/app/src/a.ts', 80, 1);
	const b = sourceFile('/work/app/src/b.ts', 80, 2);
	return [
		{user: 'Fix the timeouts in a.ts and b.ts'},
		{read: '/work/app/src/a.ts', content: a},
		{read: '/work/app/src/b.ts', content: b},
		{search: 'legacyTimeout', output: ''},
		{read: '/work/app/src/b.ts', content: b},
		{edit: '/work/app/src/a.ts', old: 'const timeout = 100;', new: 'const timeout = 250;'},
		{shell: 'npm test', output: 'FAIL src/b.test.ts\n  expected 250, got 100\n', exit: 1},
		{read: '/work/app/src/b.ts', content: b},
		{assistant: 'b.ts still has the old timeout.'},
		{user: 'Go on.'},
	];
}

test('read --prune on tool-heavy Claude and Codex sessions: notes replace obsolete output, and the receipt counts them', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const claudeId = 'b0b0b0b0-0000-4000-8000-000000000001';
	const codexId = '0195a1c2-b0b0-7b00-8b00-000000000001';
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeToolLines(claudeId, '/work/app', steps()));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexToolLines(codexId, '/work/app', steps()));
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	for (const [source, id] of [['claude', claudeId], ['codex', codexId]] as const) {
		const plain = run(['read', id, '--source', source, '--view', 'events', '--limit', '100']).json();
		const result = run(['read', id, '--source', source, '--view', 'events', '--limit', '100', '--prune']);
		assert.equal(result.code, 0, result.stderr);
		const pruned = result.json();
		// a.ts: read, then edited (superseded); b.ts: read, read again (both redundant), read once more among the newest
		// records (kept). Codex repeats each output in its exec_command_end record, and its last read of b.ts, older than the
		// newest four records, is printed once, its copies pointing there; Claude's "No matches found" is shorter than a note,
		// and its Edit result keeps a.ts as it was before the edit (originalFile), which the model was never shown.
		assert.deepEqual(
			{...pruned.prune, saved_chars_estimate: pruned.prune.saved_chars_estimate > 4000},
			{total_records: plain.records.length, pruned_count: source === 'codex' ? 9 : 4, superseded_reads: 1, duplicate_reads: 2, empty_searches: source === 'codex' ? 1 : 0, repeated_outputs: source === 'codex' ? 1 : 0, pre_edit_files: source === 'codex' ? 0 : 1, saved_chars_estimate: true},
			`${source}: ${JSON.stringify(pruned.prune)}`,
		);
		assert.ok(result.stdout.length < JSON.stringify(plain).length * 0.6, `${source}: the page is much smaller`);
		for (const [index, record] of pruned.records.entries()) {
			const original = plain.records[index];
			if (!record.pruned) {
				assert.deepStrictEqual(record, original, 'a record not pruned is untouched');
				continue;
			}

			assert.deepEqual(keyPaths(record.event), keyPaths(original.event), 'no field the source did not have is added');
			assert.match(JSON.stringify(record.event), /\[omitted: read of '\/work\/app\/src\/(?:a|b)\.ts' (?:superseded by write|redundant; re-read) at line \d+; \d+ chars\]|\[omitted: search for 'legacyTimeout' returned 0 matches; \d+ chars\]|\[omitted; \d+ chars\]|\[omitted: copy of the output at line \d+; \d+ chars\]|\[omitted: file before the edit, not shown to the model; \d+ chars\]/);
			assert.match(record.prune_reason, /superseded by write at line|redundant; re-read at line|returned 0 matches|copy of the output at line|file before the edit, not shown to the model/);
		}

		const newest = pruned.records.slice(-4);
		assert.deepStrictEqual(newest, plain.records.slice(-4), 'the newest four records are never pruned');
		assert.ok(JSON.stringify(pruned).includes('expected 250, got 100'), 'the failing test run is kept');
	}

	// The rules look past the page: a.ts's first read (Claude lines 2-3) is superseded by the edit on line 10, a later page.
	const first = run(['read', claudeId, '--source', 'claude', '--view', 'events', '--limit', '4', '--prune']).json();
	assert.equal(first.next_offset, 4);
	assert.match(first.records.find((record: {line: number}) => record.line === 3).prune_reason, /^read of '\/work\/app\/src\/a\.ts' superseded by write at line 10$/);
	assert.equal(first.prune.superseded_reads, 1, 'the newest records of the session are not on this page, so none is spared for being last');

	// Pruning needs the page's tool events; exact native lines carry none of that.
	assert.equal(run(['read', claudeId, '--lines', '2', '--prune']).error().code, 'conflicting_flags');
	assert.equal(run(['resume', claudeId, '--prune']).error().code, 'conflicting_flags', 'the brief has no tool output to prune');
	const resumed = run(['resume', claudeId, '--view', 'context', '--prune', '--no-compact', '--limit', '100']).json();
	assert.equal(resumed.prune.total_records, resumed.records.length);
});

test('a kept output is printed once: the store\'s further copies point at it, a failure keeps every copy, and the newest records stay whole', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const claudeId = 'b0b0b0b0-0000-4000-8000-000000000002';
	const codexId = '0195a1c2-b0b0-7b00-8b00-000000000002';
	const a = sourceFile('/work/app/src/a.ts', 80, 1);
	const failure = `FAIL src/a.test.ts\n${'  expected 250, got 100\n'.repeat(8)}`;
	const story: ToolStep[] = [{user: 'Why does the retry test fail?'}, {read: '/work/app/src/a.ts', content: a}, {shell: 'npm test', output: failure, exit: 1}, {assistant: 'The handler keeps the old timeout.'}, {user: 'Fix it.'}, {assistant: 'On it.'}, {user: 'Thanks.'}];
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeToolLines(claudeId, '/work/app', story));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexToolLines(codexId, '/work/app', story));
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	for (const [source, id] of [['claude', claudeId], ['codex', codexId]] as const) {
		const plain = run(['read', id, '--source', source, '--view', 'events', '--limit', '100']).json();
		const pruned = run(['read', id, '--source', source, '--view', 'events', '--limit', '100', '--prune']).json();
		assert.equal(pruned.prune.repeated_outputs, 1, `${source}: ${JSON.stringify(pruned.prune)}`);
		assert.equal(pruned.prune.superseded_reads + pruned.prune.duplicate_reads + pruned.prune.empty_searches, 0, 'nothing else to prune');
		const text = JSON.stringify(pruned.records);
		// The read's output is on the page whole, once: numbered in Claude's tool_result, raw in Codex's stdout.
		const whole = source === 'claude' ? plain.records.find((record: {event: {toolUseResult?: unknown}}) => record.event.toolUseResult !== undefined && JSON.stringify(record.event).includes('a.ts: request handling')).event.message.content[0].content : a;
		assert.equal(text.split(JSON.stringify(whole).slice(1, -1)).length - 1, 1, `${source}: the output once`);
		const copies = pruned.records.filter((record: {prune_reason?: string}) => record.prune_reason?.startsWith('copy of the output at line '));
		assert.equal(copies.length, source === 'claude' ? 1 : 2, `${source}: Claude's raw file copy; Codex's aggregated and formatted output and the framed text`);
		for (const record of copies) {
			const original = plain.records.find((candidate: {line: number}) => candidate.line === record.line);
			assert.deepEqual(keyPaths(record.event), keyPaths(original.event), 'no field the store did not write is added');
			assert.match(JSON.stringify(record.event), /\[omitted: copy of the output at line \d+; \d+ chars\]/);
		}

		if (source === 'codex') {
			const framed = copies.find((record: {event: {payload: {type: string}}}) => record.event.payload.type === 'function_call_output').event.payload.output;
			assert.match(framed, /^Chunk ID: .*\nOutput:\n\[omitted: copy of the output at line \d+; \d+ chars\]$/s, 'the frame around a copy stays');
		}

		// The failing test run is an error: every copy of it stays, as do the newest four records.
		assert.equal(text.split('expected 250, got 100').length - 1, JSON.stringify(plain.records).split('expected 250, got 100').length - 1);
		assert.deepStrictEqual(pruned.records.slice(-4), plain.records.slice(-4));
	}
});

test('Claude\'s Edit result drops the file as it was before the edit, which the model never saw; the newest records, failed edits and the native record keep it', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const id = 'b0b0b0b0-0000-4000-8000-000000000003';
	const a = sourceFile('/work/app/src/a.ts', 80, 1);
	const story: ToolStep[] = [
		{user: 'Raise the timeouts in a.ts.'},
		{read: '/work/app/src/a.ts', content: a},
		{edit: '/work/app/src/a.ts', old: 'const timeout = 100;', new: 'const timeout = 250;'},
		{assistant: 'Done; now the second handler.'},
		{edit: '/work/app/src/a.ts', old: 'const timeout = 310;', new: 'const timeout = 320;'},
	];
	const talk: ToolStep[] = [{user: 'And?'}, {assistant: 'It failed.'}, {user: 'Try again.'}, {assistant: 'Later.'}];
	const lines = claudeToolLines(id, '/work/app', [...story, ...talk]);
	// The second Edit failed: Claude writes the error as a plain string in toolUseResult.
	const failed = JSON.parse(lines[7]!) as {toolUseResult: unknown; message: {content: Array<Record<string, unknown>>}};
	failed.toolUseResult = 'Error: String to replace not found in file.';
	failed.message.content[0] = {...failed.message.content[0], content: 'String to replace not found in file.', is_error: true};
	lines[7] = JSON.stringify(failed);
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), id, '/work/app'), lines);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	const plain = run(['read', id, '--source', 'claude', '--view', 'events', '--limit', '100']).json();
	const pruned = run(['read', id, '--source', 'claude', '--view', 'events', '--limit', '100', '--prune']).json();
	const edits = plain.records.filter((record: {event: {toolUseResult?: {originalFile?: string}}}) => typeof record.event.toolUseResult?.originalFile === 'string');
	assert.equal(edits.length, 1, 'one successful Edit result');
	const [edit] = edits;
	const after = pruned.records.find((record: {line: number}) => record.line === edit.line);
	assert.equal(after.event.toolUseResult.originalFile, `[omitted: file before the edit, not shown to the model; ${a.length} chars]`);
	assert.equal(after.prune_reason, 'file before the edit, not shown to the model');
	assert.deepEqual(keyPaths(after.event), keyPaths(edit.event), 'no field is added');
	assert.deepEqual({...after.event, toolUseResult: {...after.event.toolUseResult, originalFile: a}}, edit.event, 'nothing else changes: the patch and the strings stay');
	assert.equal(pruned.prune.pre_edit_files, 1);
	// The superseded read before it is pruned too; the failed edit (an error) is untouched.
	assert.equal(pruned.prune.superseded_reads, 1);
	const failure = pruned.records.find((record: {event: {toolUseResult?: unknown}}) => record.event.toolUseResult === 'Error: String to replace not found in file.');
	assert.equal(failure.pruned, undefined);
	// The native record is one --lines call away.
	assert.deepStrictEqual(run(['read', id, '--source', 'claude', '--lines', String(edit.line)]).json().records[0].event, edit.event);

	// Among the newest four records, an Edit result keeps the file.
	const recentId = 'b0b0b0b0-0000-4000-8000-000000000004';
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), recentId, '/work/app'), claudeToolLines(recentId, '/work/app', story.slice(0, 3)));
	const recent = run(['read', recentId, '--source', 'claude', '--view', 'events', '--limit', '100', '--prune']).json();
	assert.equal(recent.prune.pre_edit_files, 0);
	assert.ok(recent.records.some((record: {event: {toolUseResult?: {originalFile?: string}}}) => record.event.toolUseResult?.originalFile === a));
});
