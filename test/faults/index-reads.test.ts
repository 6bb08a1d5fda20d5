import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {appendFileSync, existsSync, readdirSync, readFileSync, watch, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {runCli, sandboxEnv} from '../helpers/cli.js';
import {makeKb, type KbSandbox} from '../helpers/kb.js';
import {mountSandbox, mountsUnavailable} from '../helpers/mounts.js';

const reads: string[][] = [
	['status'],
	['query', '--q', 'parser'],
	['project'],
	['timeline'],
	['harvest', '--check'],
];

const event = (id: string) => serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id, kind: 'Task', label: `the ${id} parser`}}], new Date('2026-11-20T10:00:00Z'))[0]!);
const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * The index is a cache any command may refresh (README "On disk"); reads refresh it and
 * nothing else: the journal, its quarantine and every other file in .engi stay as they were.
 */
test('reads refresh the index and touch nothing else in .engi, even with lines awaiting quarantine', async t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'the a parser']);
	appendFileSync(kb.journal, `${event('task:b')}{"torn": tru\n${event('task:c')}`);
	writeFileSync(join(kb.root, '00-inbox', 'harvest', 'note.md'), '---\nid: task:note\nkind: Task\nlabel: A note\n---\nbody\n');
	const engi = join(kb.root, '.engi');
	const journal = hash(kb.journal);
	const touched: string[] = [];
	const watcher = watch(engi, (_type, name) => touched.push(String(name)));
	try {
		for (const command of reads) {
			const result = kb.run([...command, '--format', 'json']);
			assert.ok(result.code === 0 || (command[0] === 'harvest' && result.code === 2), `engi ${command.join(' ')}: ${result.stderr}`);
		}

		await new Promise(resolve => setTimeout(resolve, 200));
	} finally {
		watcher.close();
	}

	assert.equal(kb.ok(['status']).nodes, 3, 'the reads saw the appended lines');
	assert.deepEqual([...new Set(touched.filter(name => !/^index\.sqlite(-wal|-shm)?$/.test(name)))], [], 'only the index and its WAL were written');
	assert.equal(hash(kb.journal), journal, 'the corrupt line waits in the journal for a writer');
	assert.ok(!existsSync(join(engi, 'quarantine')));
	assert.deepEqual(readdirSync(engi).sort(), ['index.sqlite', 'journal.jsonl']);
});

test('reads of a read-only knowledge base refresh a stale index in memory and answer in full', {skip: mountsUnavailable()}, t => {
	const sandbox = mountSandbox(t);
	const env = sandboxEnv(sandbox.base);
	const root = join(sandbox.base, 'kb');
	assert.equal(runCli(['init', root], {env}).code, 0);
	const kb: KbSandbox = {base: sandbox.base, root, env, journal: join(root, '.engi', 'journal.jsonl'), run: (args, options = {}) => runCli(args, {env, ...options}), ok: args => runCli([...args, '--format', 'json'], {env}).json()};
	kb.ok(['graph', 'node', '--id', 'task:a', '--kind', 'Task', '--label', 'the a parser']);
	appendFileSync(kb.journal, event('task:b'));
	sandbox.readOnly(root);
	for (const command of reads) {
		const result = kb.run([...command, '--format', 'json']);
		assert.ok(result.code === 0 || (command[0] === 'harvest' && result.code === 2), `engi ${command.join(' ')}: ${result.stderr}`);
	}

	const status = kb.ok(['status']);
	assert.deepEqual([status.nodes, status.index.in_memory], [2, true]);
	assert.match(status.warnings.join('\n'), /^index_unwritable: /m);
	assert.deepEqual(kb.ok(['query', '--q', 'parser', '--view', 'hits']).hits.map((hit: {node_id: string}) => hit.node_id).sort(), ['task:a', 'task:b']);
});
