// Privacy on disk: what engi creates (knowledge base, index, checkpoints, quarantine, config) is
// owner-only whatever the umask, a rewrite keeps the file's mode, and a store directory engi
// may not list is reported rather than silently leaving its sessions out.
import assert from 'node:assert/strict';
import {appendFileSync, chmodSync, chownSync, existsSync, mkdirSync, statSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {nobody, runCliAsNobody} from '../helpers/faults.js';
import {makeKb} from '../helpers/kb.js';
import {writeClaudeSession} from '../helpers/stores.js';
import {tempDir} from '../helpers/temp.js';

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8);

test('knowledge base, index, quarantine, checkpoints and config are owner-only under a 022 umask', t => {
	const previous = process.umask(0o022); // The CLI runs as a child and inherits it.
	t.after(() => process.umask(previous));
	const kb = makeKb(t);
	const engi = join(kb.root, '.engi');
	assert.equal(kb.run(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A', '--format', 'json']).code, 0);
	appendFileSync(kb.journal, '{"torn":');
	assert.equal(kb.run(['graph', 'node', '--id', 'b', '--kind', 'Task', '--label', 'B', '--format', 'json']).code, 0);

	const project = join(kb.base, 'project');
	mkdirSync(join(project, '.git'), {recursive: true});
	const record = runCli(['checkpoint', 'record', '--session', 'aaaaaaaa-1111-4111-8111-111111111111', '--project', project, '--objective', 'o', '--format', 'json'], {env: kb.env});
	assert.equal(record.code, 0, record.stderr);

	const expected: Array<[string, string]> = [
		[kb.root, '700'],
		[join(kb.root, '02-wiki'), '700'],
		[engi, '700'],
		[kb.journal, '600'],
		[join(kb.root, '.gitignore'), '600'],
		[join(engi, 'index.sqlite'), '600'],
		[join(engi, 'quarantine'), '700'],
		[join(kb.env['XDG_CONFIG_HOME']!, 'engi'), '700'],
		[join(kb.env['XDG_CONFIG_HOME']!, 'engi', 'config.json'), '600'],
		[join(project, '.engi'), '700'],
		[join(project, '.engi', 'checkpoints.jsonl'), '600'],
	];
	for (const suffix of ['-wal', '-shm']) {
		if (existsSync(join(engi, `index.sqlite${suffix}`))) {
			expected.push([join(engi, `index.sqlite${suffix}`), '600']);
		}
	}

	assert.deepEqual(expected.map(([path]) => [path, modeOf(path)]), expected);
});

test('a journal rewrite keeps the journal\'s own mode', t => {
	const kb = makeKb(t);
	assert.equal(kb.run(['graph', 'node', '--id', 'a', '--kind', 'Task', '--label', 'A', '--format', 'json']).code, 0);
	appendFileSync(kb.journal, 'a corrupt line\n');
	chmodSync(kb.journal, 0o640);
	const rebuild = kb.ok(['index', 'rebuild']);
	assert.deepEqual(rebuild.quarantined, [{line: 2, reason: 'not_json'}]);
	assert.equal(modeOf(kb.journal), '640');
});

test('a store directory engi may not list is reported, and the readable sessions are still listed', t => {
	const base = tempDir(t);
	chmodSync(base, 0o755);
	const env = sandboxEnv(base);
	mkdirSync(env['XDG_CACHE_HOME']!, {recursive: true});
	chownSync(env['XDG_CACHE_HOME']!, nobody.uid, nobody.gid);
	const projects = join(base, 'home', '.claude', 'projects');
	writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000a', '/work/open', [{user: 'readable request', at: '2026-11-25T10:00:00.000Z'}]);
	const hidden = writeClaudeSession(projects, 'aaaaaaaa-0000-4000-8000-00000000000b', '/work/closed', [{user: 'hidden request', at: '2026-11-25T11:00:00.000Z'}]);
	chmodSync(join(hidden, '..'), 0o700); // Root's own: `nobody` may not list it.

	const result = runCliAsNobody(t, ['sessions', '--all-projects', '--format', 'json'], {env});
	if (!result) {
		return;
	}

	assert.equal(result.code, 0, result.stderr);
	const listed = result.json();
	assert.deepEqual(listed.sessions.map((session: {id: string}) => session.id), ['aaaaaaaa-0000-4000-8000-00000000000a']);
	assert.ok(listed.warnings.some((warning: string) => warning.includes(`could not list ${join(hidden, '..')} (EACCES)`)), listed.warnings.join('\n'));
	// The answer itself says it is partial, with the directory as a typed reason.
	assert.equal(listed.state, 'degraded');
	assert.deepEqual(listed.reasons.map((reason: {code: string; subject: string}) => [reason.code, reason.subject]), [['store_unreadable', join(hidden, '..')]]);
	const searched = runCliAsNobody(t, ['sessions', '--all-projects', '--q', 'request', '--format', 'json'], {env})!.json();
	assert.deepEqual([searched.state, searched.total, searched.reasons[0].code], ['degraded', 1, 'store_unreadable']);
});
