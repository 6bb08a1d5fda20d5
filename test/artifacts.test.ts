import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {makeKb} from './helpers/kb.js';
import {entriesUnder, journalNodes} from './helpers/retention.js';

const sha = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

test('artifact add stores a file under its sha256 once, with an Artifact node and, if asked, its project', t => {
	const kb = makeKb(t);
	const file = join(kb.base, 'report.pdf');
	writeFileSync(file, 'quarterly figures\n');
	const digest = sha('quarterly figures\n');
	const first = kb.ok(['artifact', 'add', '--file', file]);
	assert.deepEqual([first.sha256, first.bytes, first.written, first.appended, first.path], [digest, 18, true, true, join('03-output', 'artifacts', 'sha256', digest.slice(0, 2), digest)]);
	assert.equal(readFileSync(join(kb.root, first.path), 'utf8'), 'quarterly figures\n');
	const again = kb.ok(['artifact', 'add', '--file', file]);
	assert.deepEqual([again.written, again.appended], [false, false]);
	const [node] = journalNodes(kb.journal, 'Artifact');
	assert.deepEqual([node!['id'], node!['sha256'], node!['original_path']], [`artifact:sha256:${digest}`, digest, file]);
	assert.equal(kb.run(['artifact', 'add', '--file', file, '--project', 'project:none', '--format', 'json']).error().code, 'missing_endpoint');
	kb.ok(['graph', 'node', '--id', 'project:shop', '--kind', 'Project', '--label', 'Shop']);
	assert.equal(kb.ok(['artifact', 'add', '--file', file, '--project', 'project:shop']).project, 'project:shop');
	const edges = readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line)).filter(event => event.op === 'edge.assert');
	assert.deepEqual(edges.map(edge => [edge.payload.from, edge.payload.type, edge.payload.to]), [[`artifact:sha256:${digest}`, 'BELONGS_TO', 'project:shop']]);
	assert.equal(kb.run(['artifact', 'add', '--file', kb.base, '--format', 'json']).error().code, 'not_a_regular_file');
});

test('artifact add-tree records a tree by hash in a manifest outside it; symlinks are recorded and never followed; no file is copied', t => {
	const kb = makeKb(t);
	const tree = join(kb.base, 'run-42');
	mkdirSync(join(tree, 'logs'), {recursive: true});
	writeFileSync(join(tree, 'model.bin'), 'weights');
	writeFileSync(join(tree, 'logs', 'train.log'), 'epoch 1\n');
	const outside = join(kb.base, 'outside');
	mkdirSync(outside);
	writeFileSync(join(outside, 'secret.txt'), 'not part of the tree');
	symlinkSync(outside, join(tree, 'linked-dir'));
	symlinkSync('model.bin', join(tree, 'latest'));
	symlinkSync('/nowhere/at/all', join(tree, 'dangling'));
	const manifest = join(kb.base, 'receipts', 'run-42.json');
	const result = kb.ok(['artifact', 'add-tree', '--directory', tree, '--manifest', manifest]);
	assert.deepEqual([result.files, result.symlinks, result.source_bytes, result.metadata_only, result.skipped], [2, 3, 15, true, []]);
	const written = JSON.parse(readFileSync(manifest, 'utf8'));
	assert.deepEqual(written.files, [
		{path: 'logs/train.log', bytes: 8, sha256: sha('epoch 1\n')},
		{path: 'model.bin', bytes: 7, sha256: sha('weights')},
	]);
	assert.deepEqual(written.symlinks, [
		{path: 'dangling', target: '/nowhere/at/all'},
		{path: 'latest', target: 'model.bin'},
		{path: 'linked-dir', target: outside},
	]);
	assert.equal(result.tree_sha256, written.tree_sha256);
	assert.equal(result.manifest_sha256, sha(readFileSync(manifest)));
	assert.equal(readFileSync(join(kb.root, result.stored_path), 'utf8'), readFileSync(manifest, 'utf8'));
	const stored = entriesUnder(join(kb.root, '03-output', 'artifacts', 'sha256')).filter(path => /[0-9a-f]{64}$/.test(path));
	assert.deepEqual(stored, [join(kb.root, result.stored_path)], 'only the manifest is stored');
	// The same tree gives the same hash; a changed file another.
	assert.equal(kb.ok(['artifact', 'add-tree', '--directory', tree, '--manifest', manifest]).tree_sha256, result.tree_sha256);
	writeFileSync(join(tree, 'model.bin'), 'weights v2');
	assert.notEqual(kb.ok(['artifact', 'add-tree', '--directory', tree, '--manifest', manifest]).tree_sha256, result.tree_sha256);
	assert.equal(kb.run(['artifact', 'add-tree', '--directory', tree, '--manifest', join(tree, 'manifest.json'), '--format', 'json']).error().code, 'manifest_inside_directory');
	assert.equal(existsSync(join(tree, 'manifest.json')), false);
});

test('artifact finalize: a dry run by default; --apply moves the final files and deletes the drafts, each sha256 checked; nothing happens if any step would fail', t => {
	const kb = makeKb(t);
	const work = join(kb.base, 'work');
	mkdirSync(work);
	const files = {final: join(work, 'paper.pdf'), figure: join(work, 'figure.png'), draft: join(work, 'draft-1.pdf'), scratch: join(work, 'scratch.txt')};
	for (const [name, path] of Object.entries(files)) {
		writeFileSync(path, `${name} bytes`);
	}

	const entry = (path: string) => ({path, sha256: sha(readFileSync(path))});
	const planPath = join(kb.base, 'final.json');
	const plan = {format: 'engi.final-collection.v1', collection: 'paper-2026', final_files: [entry(files.final), entry(files.figure)], remove_files: [entry(files.draft), entry(files.scratch)]};
	writeFileSync(planPath, JSON.stringify(plan));
	const dry = kb.ok(['artifact', 'finalize', '--plan', planPath]);
	assert.equal(dry.applied, false);
	assert.equal(dry.ok, true);
	assert.deepEqual([...dry.final_files, ...dry.remove_files].map((step: any) => step.status), ['ready', 'ready', 'ready', 'ready']);
	assert.ok(Object.values(files).every(path => existsSync(path)), 'a dry run changes nothing');

	// One draft changed since the plan was made: nothing at all is done.
	writeFileSync(files.scratch, 'edited since');
	const refused = kb.run(['artifact', 'finalize', '--plan', planPath, '--apply', '--format', 'json']);
	assert.equal(refused.code, 2);
	assert.equal(refused.json().applied, false);
	assert.equal(refused.json().remove_files[1].status, 'sha256_mismatch');
	assert.ok(Object.values(files).every(path => existsSync(path)));
	writeFileSync(files.scratch, 'scratch bytes');

	const applied = kb.ok(['artifact', 'finalize', '--plan', planPath, '--apply']);
	assert.deepEqual([applied.applied, applied.ok], [true, true]);
	assert.deepEqual([...applied.final_files, ...applied.remove_files].map((step: any) => step.status), ['moved', 'moved', 'removed', 'removed']);
	const collection = join(kb.root, '03-output', 'artifacts', 'collections', 'paper-2026');
	assert.equal(readFileSync(join(collection, 'paper.pdf'), 'utf8'), 'final bytes');
	assert.equal(readFileSync(join(collection, 'figure.png'), 'utf8'), 'figure bytes');
	assert.deepEqual(readdirSync(work), [], 'the originals are gone: moved or deleted');
	const [node] = journalNodes(kb.journal, 'ArtifactCollection');
	assert.deepEqual(node!['removed'].map((file: any) => file.path), [files.draft, files.scratch]);
	const again = kb.ok(['artifact', 'finalize', '--plan', planPath, '--apply']);
	assert.deepEqual([...again.final_files, ...again.remove_files].map((step: any) => step.status), ['already_moved', 'already_moved', 'already_removed', 'already_removed']);

	// A name the collection already holds with other bytes, a symlink to delete, a bad plan.
	writeFileSync(files.final, 'another paper');
	const link = join(work, 'link.txt');
	symlinkSync(join(collection, 'figure.png'), link);
	writeFileSync(planPath, JSON.stringify({...plan, final_files: [entry(files.final)], remove_files: [{path: link, sha256: sha('figure bytes')}]}));
	const clash = kb.run(['artifact', 'finalize', '--plan', planPath, '--apply', '--format', 'json']).json();
	assert.deepEqual([clash.final_files[0].status, clash.remove_files[0].status], ['destination_taken', 'not_a_regular_file']);
	assert.ok(existsSync(link) && existsSync(join(collection, 'figure.png')));
	writeFileSync(planPath, JSON.stringify({...plan, format: 'innen.final-collection.v1'}));
	assert.equal(kb.run(['artifact', 'finalize', '--plan', planPath, '--format', 'json']).error().code, 'invalid_plan');
	writeFileSync(planPath, JSON.stringify({...plan, collection: '../escape'}));
	assert.equal(kb.run(['artifact', 'finalize', '--plan', planPath, '--format', 'json']).error().code, 'invalid_plan');
});
