// A journal that is a symbolic link is refused by every knowledge-base command: a repair would
// rename its rewrite over the link (replacing it with a copy, leaving the target behind), and a
// quarantine would copy the target's lines into this knowledge base.
import assert from 'node:assert/strict';
import {appendFileSync, existsSync, lstatSync, readFileSync, renameSync, symlinkSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {makeKb} from '../helpers/kb.js';
import {tempDir} from '../helpers/temp.js';

test('a journal that is a symlink is refused, never copied into quarantine or replaced', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'a']);
	const elsewhere = join(tempDir(t), 'journal.jsonl');
	renameSync(kb.journal, elsewhere);
	symlinkSync(elsewhere, kb.journal);
	appendFileSync(elsewhere, '{"torn":');
	const before = readFileSync(elsewhere);

	for (const args of [
		['graph', 'node', '--id', 'task:b', '--kind', 'Task', '--label', 'b'],
		['index', 'rebuild'],
		['status'],
		['query', '--q', 'a'],
	]) {
		const result = kb.run([...args, '--format', 'json']);
		assert.equal(result.code, 1, `engi ${args.join(' ')}: ${result.stdout}`);
		assert.equal(result.error().code, 'journal_not_a_file', `engi ${args.join(' ')}`);
		assert.ok(!result.stderr.includes('"torn"'), 'the message names the path, not its content');
	}

	assert.ok(lstatSync(kb.journal).isSymbolicLink(), 'the link is still a link');
	assert.deepEqual(readFileSync(elsewhere), before, 'its target is untouched');
	assert.ok(!existsSync(join(kb.root, '.engi', 'quarantine')), 'nothing was quarantined');
});
