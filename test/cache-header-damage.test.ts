import assert from 'node:assert/strict';
import {closeSync, openSync, writeSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {makeKb} from './helpers/kb.js';
import {buildFixtureHome} from './fixtures/home.js';

/**
 * Damage to a cache's header that SQLite reports as "unsupported file format" (SQLITE_ERROR, a
 * schema format number above what it knows, offset 44), not as corruption: engi's own cache is
 * rebuilt with a warning and the same answers, never an internal error. The chaos suite found it
 * with 64 random bytes at offset 36 of index.sqlite.
 */
function damageHeader(file: string): void {
	const fd = openSync(file, 'r+');
	try {
		writeSync(fd, Buffer.from([0, 0, 0, 0x7f]), 0, 4, 44);
	} finally {
		closeSync(fd);
	}
}

test('index.sqlite whose header SQLite calls an unsupported file format is rebuilt, with the same answers', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:1', '--kind', 'Task', '--label', 'one', '--status', 'open']);
	const before = kb.run(['query', '--q', 'task:1', '--view', 'evidence', '--format', 'json']).stdout;
	damageHeader(join(kb.root, '.engi', 'index.sqlite'));
	const after = kb.run(['query', '--q', 'task:1', '--view', 'evidence', '--format', 'json']);
	assert.equal(after.code, 0, after.stderr);
	assert.doesNotMatch(after.stdout + after.stderr, /internal_error/);
	const answer = (stdout: string) => {
		const {warnings, as_of: _asOf, ...rest} = JSON.parse(stdout) as {warnings: string[]; as_of: string};
		return {warnings, rest};
	};

	assert.match(answer(after.stdout).warnings.join('\n'), /^index_corrupt: .*index\.sqlite was damaged .*rebuilt the index from the journal$/m);
	assert.deepEqual(answer(after.stdout).rest, answer(before).rest, 'the same answer from the rebuilt index');
});

test('catalog.sqlite whose header SQLite calls an unsupported file format is replaced, with a warning and the same sessions', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const sessions = () => kb.ok(['sessions', '--all-projects']) as {sessions: Array<{id: string}>; warnings: string[]};
	const before = sessions().sessions.map(session => session.id);
	damageHeader(join(kb.env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'));
	const after = sessions();
	assert.deepEqual(after.sessions.map(session => session.id), before);
	assert.match(after.warnings.join('\n'), /catalog/i);
});
