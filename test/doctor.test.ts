import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {appendFileSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {makeKb, type KbSandbox} from './helpers/kb.js';
import {prepareEvents, serializeEvent} from '../source/engine/journal/append.js';

function snapshot(kb: KbSandbox): Record<string, string> {
	const files: Record<string, string> = {};
	for (const name of readdirSync(kb.root, {recursive: true, encoding: 'utf8'}).sort()) {
		const path = join(kb.root, name);
		const stats = statSync(path);
		files[name] = stats.isDirectory() ? 'dir' : `${stats.mtimeMs}:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
	}

	return files;
}

function checks(kb: KbSandbox): {code: number; byName: Record<string, {ok: boolean; severity: string; detail: string}>} {
	const result = kb.run(['doctor', '--format', 'json']);
	const output = result.json();
	assert.equal(output.exit_code, result.code);
	return {code: result.code, byName: Object.fromEntries(output.checks.map((check: {name: string}) => [check.name, check]))};
}

test('doctor: 0 when clean, 1 for a rewritten journal or missing merge rule, 2 for corruption; never writes', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'p', '--kind', 'Project', '--label', 'P']);
	let before = snapshot(kb);
	const clean = checks(kb);
	assert.equal(clean.code, 0, 'right after a write the index matches the journal');
	assert.deepEqual(Object.keys(clean.byName), ['journal-valid', 'event-ids', 'quarantine-empty', 'index-integrity', 'index-fresh', 'catalog-integrity', 'ref-integrity', 'retention-interrupted', 'gitattributes']);
	assert.equal(clean.byName['index-fresh']!.detail, 'index matches the journal');
	assert.deepEqual(snapshot(kb), before, 'doctor changed nothing');

	appendFileSync(kb.journal, serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: 'q', kind: 'Task'}}], new Date())[0]!));
	before = snapshot(kb);
	const behind = checks(kb);
	assert.equal(behind.code, 0, 'an index that only has new lines to apply is healthy');
	assert.match(behind.byName['index-fresh']!.detail, /^the journal has \d+ bytes the index has not read yet/);
	assert.deepEqual(snapshot(kb), before, 'doctor did not refresh the index');

	writeFileSync(kb.journal, readFileSync(kb.journal, 'utf8').split('\n').reverse().join('\n').trimStart() + '\n');
	const rewritten = checks(kb);
	assert.equal(rewritten.code, 1);
	assert.match(rewritten.byName['index-fresh']!.detail, /journal was rewritten/);

	kb.ok(['status']);
	writeFileSync(join(kb.root, '.gitattributes'), '');
	assert.equal(checks(kb).byName['gitattributes']!.severity, 'warning');
	writeFileSync(join(kb.root, '.gitattributes'), '.engi/journal.jsonl merge=union\n');

	appendFileSync(kb.journal, '{"broken": true\n');
	before = snapshot(kb);
	const broken = checks(kb);
	assert.equal(broken.code, 2);
	assert.equal(broken.byName['journal-valid']!.detail, 'lines that do not parse: 1 (line 3); a writing command (or engi index rebuild) moves them to .engi/quarantine');
	assert.deepEqual(snapshot(kb), before);
	const status = kb.ok(['status']);
	assert.equal(status.corrupt_lines, 1);
	assert.ok(status.warnings.includes('journal_corrupt_lines: 1 (line 3); a writing command quarantines them, engi doctor explains'), 'a count, then the line it is');
});

test('doctor flags hand-written event ids as a warning', t => {
	const kb = makeKb(t);
	writeFileSync(kb.journal, '{"id":"event-x","observed_utc":"2026-01-03T00:00:00Z","op":"node.upsert","payload":{"id":"claim","kind":"Decision"}}\n');
	const result = checks(kb);
	assert.equal(result.code, 1);
	assert.equal(result.byName['event-ids']!.detail, 'ids that are not the content hash (hand-written or edited lines): 1 (line 1)');
	assert.equal(kb.ok(['status']).nodes, 1, 'such lines still replay');
});
