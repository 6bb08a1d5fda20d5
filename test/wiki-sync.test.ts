import assert from 'node:assert/strict';
import {createHash} from 'node:crypto';
import {mkdirSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import test from 'node:test';
import {makeKb, type KbSandbox} from './helpers/kb.js';

function page(kb: KbSandbox, path: string, lines: readonly string[]): string {
	const file = join(kb.root, '02-wiki', path);
	mkdirSync(dirname(file), {recursive: true});
	writeFileSync(file, lines.join('\n') + '\n');
	return file;
}

type Line = {op: string; payload: Record<string, unknown>};
const journal = (kb: KbSandbox): Line[] => readFileSync(kb.journal, 'utf8').split('\n').filter(Boolean).map(line => JSON.parse(line) as Line);
const sync = (kb: KbSandbox) => {
	const result = kb.run(['wiki', 'sync', '--format', 'json']);
	assert.ok(result.code === 0 || result.code === 2, result.stderr);
	return {code: result.code, ...result.json()};
};

/** The sync edges of a node as the journal leaves them: asserted and not retracted since. */
function liveEdges(kb: KbSandbox, from: string): string[] {
	const live = new Set<string>();
	for (const line of journal(kb)) {
		const key = `${String(line.payload['type'])} ${String(line.payload['to'])}`;
		if (line.payload['from'] === from) {
			if (line.op === 'edge.assert') {
				live.add(key);
			} else if (line.op === 'edge.retract') {
				live.delete(key);
			}
		}
	}

	return [...live].sort();
}

const hashes = (directory: string) => Object.fromEntries(readdirSync(directory, {recursive: true, withFileTypes: true}).filter(entry => entry.isFile()).map(entry => [join(entry.parentPath, entry.name), createHash('sha256').update(readFileSync(join(entry.parentPath, entry.name))).digest('hex')]));

test('wiki sync: pages become Wiki nodes with owned edges; idempotent; a change retracts only what sync owns; a vanished page is missing', t => {
	const kb = makeKb(t);
	kb.ok(['graph', 'node', '--id', 'task:cache', '--kind', 'Task', '--label', 'Cache the feed']);
	page(kb, 'caching.md', ['---', 'id: wiki:caching', 'title: Caching policy', 'kind: decision', 'status: adopted', 'tags: perf', 'sources: [https://example.org/rfc, task:cache]', 'related:', '  - Retry budget', '---', '# Caching policy', '', 'We revalidate on read; see [[retries|the retry page]] and [[nowhere]].', '']);
	page(kb, 'ops/retries.md', ['# Retry budget', '', 'At most three retries. AKIAIOSFODNN7EXAMPLE was the old key.']);
	const first = sync(kb);
	assert.equal(first.code, 0, JSON.stringify(first));
	assert.deepEqual(first.counts, {new: 2, changed: 0, unchanged: 0, missing: 0, held: 0, invalid: 0, skipped: 0});
	assert.deepEqual(first.pages.map((entry: {path: string; node: string}) => [entry.path, entry.node]), [['caching.md', 'wiki:caching'], ['ops/retries.md', 'wiki:ops/retries']]);
	assert.deepEqual(first.unresolved, [{path: 'caching.md', line: 13, ref: 'nowhere'}]);
	const source = `source:${createHash('sha256').update('https://example.org/rfc').digest('hex')}`;
	assert.deepEqual(liveEdges(kb, 'wiki:caching'), [`DERIVED_FROM ${source}`, 'DERIVED_FROM task:cache', 'RELATED_TO wiki:ops/retries']);
	const node = kb.ok(['query', '--q', 'wiki:caching', '--view', 'evidence']).candidates[0].node;
	assert.deepEqual([node.kind, node.label, node.page_kind, node.status, node.tags, node.source_path, node.missing], ['Wiki', 'Caching policy', 'decision', 'adopted', ['perf'], '02-wiki/caching.md', false]);
	assert.equal(kb.ok(['query', '--q', 'wiki:caching', '--view', 'hits']).hits[0].factors.memory_type, 'decision', 'the page kind gives the memory type');
	assert.doesNotMatch(readFileSync(kb.journal, 'utf8'), /AKIAIOSFODNN7EXAMPLE/, 'a secret in a page is masked before it is stored');

	const before = readFileSync(kb.journal);
	const again = sync(kb);
	assert.deepEqual([again.appended, again.counts.unchanged], [0, 2], 'an unchanged wiki appends nothing');
	assert.deepEqual(again.pages, [], 'only new and changed pages are listed');
	const every = kb.run(['wiki', 'sync', '--all-pages', '--format', 'json']).json();
	assert.deepEqual(every.pages.map((entry: {path: string; status: string}) => [entry.path, entry.status]), [['caching.md', 'unchanged'], ['ops/retries.md', 'unchanged']], '--all-pages lists every page');
	assert.deepEqual(readFileSync(kb.journal), before);

	// A hand-made edge that sync would also make is not sync's to retract.
	kb.ok(['graph', 'relate', '--from', 'wiki:caching', '--edge', 'RELATED_TO', '--to', 'task:cache', '--provenance', 'hand']);
	page(kb, 'caching.md', ['---', 'id: wiki:caching', 'title: Caching policy', 'sources: https://example.org/rfc', 'related: task:cache', '---', 'No retry link any more.']);
	const changed = sync(kb);
	assert.deepEqual([changed.counts.changed, changed.counts.unchanged, changed.edges], [1, 1, {asserted: 0, retracted: 2}]);
	assert.deepEqual(changed.pages, [{path: 'caching.md', node: 'wiki:caching', status: 'changed'}]);
	assert.match(kb.run(['wiki', 'sync', '--all-pages', '--format', 'human']).stdout, /^unchanged\tcaching\.md\twiki:caching$/m);
	assert.deepEqual(liveEdges(kb, 'wiki:caching'), [`DERIVED_FROM ${source}`, 'RELATED_TO task:cache']);
	const cleared = kb.ok(['query', '--q', 'wiki:caching', '--view', 'evidence']).candidates[0].node;
	assert.deepEqual([cleared.status, cleared.tags, cleared.page_kind], [null, null, null], 'keys the page no longer has are cleared');

	rmSync(join(kb.root, '02-wiki', 'ops', 'retries.md'));
	const gone = sync(kb);
	assert.deepEqual(gone.missing, ['wiki:ops/retries']);
	assert.equal(kb.ok(['query', '--q', 'wiki:ops/retries', '--view', 'evidence']).candidates[0].node.missing, true);
	assert.equal(sync(kb).appended, 0, 'a page already marked missing appends nothing more');
	page(kb, 'ops/retries.md', ['# Retry budget', '', 'Back again.']);
	assert.deepEqual(sync(kb).pages.find((entry: {path: string}) => entry.path === 'ops/retries.md').status, 'changed');
	assert.equal(kb.ok(['query', '--q', 'wiki:ops/retries', '--view', 'evidence']).candidates[0].node.missing, false);
});

test('wiki sync: every frontmatter is validated before anything is appended; symlinks are skipped, never followed', t => {
	const kb = makeKb(t);
	page(kb, 'good.md', ['---', 'title: Good', '---', 'fine']);
	page(kb, 'bad.md', ['---', 'title: Bad', 'tags:', '  nested: map', '---', 'body']);
	page(kb, 'broken.md', ['---', 'title: [unclosed', '---']);
	const outside = join(kb.base, 'outside.md');
	writeFileSync(outside, '# Outside\n');
	symlinkSync(outside, join(kb.root, '02-wiki', 'link.md'));
	const result = sync(kb);
	assert.equal(result.code, 2);
	assert.deepEqual(result.invalid, [
		{path: 'bad.md', reasons: [{line: 3, message: 'tags: must be text or a list of text'}]},
		{path: 'broken.md', reasons: [{line: 2, message: 'frontmatter is not valid YAML'}]},
	]);
	assert.deepEqual(result.skipped, [{path: '02-wiki/link.md', reason: 'symlink'}]);
	assert.deepEqual([result.appended, journal(kb).length], [0, 0], 'nothing at all is appended while a page is invalid');
	assert.match(kb.run(['wiki', 'sync', '--format', 'human']).stdout, /^invalid\tbad\.md:3\ttags: must be text or a list of text$/m);
	rmSync(join(kb.root, '02-wiki', 'bad.md'));
	rmSync(join(kb.root, '02-wiki', 'broken.md'));
	assert.equal(sync(kb).counts.new, 1);
});

test('conflict quarantine: merge blocks outside closed fences, sync-conflict copies and duplicate ids are held, never edited, and cleared after repair', t => {
	const kb = makeKb(t);
	page(kb, 'fenced.md', ['---', 'id: wiki:fenced', '---', 'How a conflict looks:', '```', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch', '```']);
	page(kb, 'unfenced.md', ['---', 'id: wiki:unfenced', '---', 'parser notes', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch']);
	page(kb, 'unclosed.md', ['---', 'id: wiki:unclosed', '---', '```', '<<<<<<< HEAD', 'ours', '=======', 'theirs', '>>>>>>> branch']);
	page(kb, 'lonely.md', ['---', 'id: wiki:lonely', '---', '======= is a setext rule, and a lone <<<<<<< proves nothing', '<<<<<<< HEAD']);
	page(kb, 'notes.sync-conflict-20261201-ABCDEF.md', ['---', 'id: wiki:notes', '---', 'the other side']);
	page(kb, 'notes.md', ['---', 'id: wiki:notes', '---', 'parser notes, this side']);
	page(kb, 'a/one.md', ['---', 'id: wiki:twin', '---', 'parser twin one']);
	page(kb, 'b/two.md', ['---', 'node_id: wiki:twin', '---', 'parser twin two']);
	page(kb, 'old.md.orig', ['leftover of a merge tool']);
	const files = hashes(join(kb.root, '02-wiki'));

	const held = sync(kb);
	assert.equal(held.code, 2);
	assert.deepEqual(held.held.map((entry: {path: string; node_id: string | null; reason: string}) => [entry.path, entry.node_id, entry.reason]), [
		['a/one.md', 'wiki:twin', 'duplicate_id'],
		['b/two.md', 'wiki:twin', 'duplicate_id'],
		['notes.sync-conflict-20261201-ABCDEF.md', 'wiki:notes', 'conflict_path'],
		['old.md.orig', null, 'conflict_path'],
		['unclosed.md', 'wiki:unclosed', 'conflict_markers'],
		['unfenced.md', 'wiki:unfenced', 'conflict_markers'],
	]);
	assert.equal(held.held.find((entry: {path: string}) => entry.path === 'unfenced.md').detail, 'a merge conflict block at lines 5-9');
	assert.deepEqual(held.pages.map((entry: {node: string}) => entry.node).sort(), ['wiki:fenced', 'wiki:lonely', 'wiki:notes']);
	assert.deepEqual(hashes(join(kb.root, '02-wiki')), files, 'quarantine never edits a file');

	kb.ok(['index', 'rebuild']); // Held pages come from the files, not the journal: replaying it keeps them.
	const asked = kb.run(['query', '--q', 'wiki:unfenced', '--format', 'json']);
	assert.equal(asked.code, 2);
	assert.deepEqual([asked.json().state, asked.json().reasons.map((reason: {code: string}) => reason.code)], ['unavailable', ['quarantined_pages', 'source_conflict']]);
	const search = kb.ok(['query', '--q', 'parser', '--view', 'hits']);
	assert.equal(search.state, 'degraded', 'a search is partial while any page is held');
	assert.deepEqual(search.reasons[0], {code: 'quarantined_pages', detail: '6 wiki page(s) are held by conflict quarantine and were not searched (engi wiki sync lists them)', count: 6, subject: null});
	assert.deepEqual(search.hits.map((hit: {node_id: string}) => hit.node_id), [], 'the held id wiki:notes is left out with its conflict copy');

	// Repair: resolve the block, drop the copies, give the twins distinct ids.
	page(kb, 'unfenced.md', ['---', 'id: wiki:unfenced', '---', 'parser notes', 'theirs']);
	page(kb, 'unclosed.md', ['---', 'id: wiki:unclosed', '---', '```', 'code', '```']);
	page(kb, 'b/two.md', ['---', 'node_id: wiki:twin-two', '---', 'parser twin two']);
	rmSync(join(kb.root, '02-wiki', 'notes.sync-conflict-20261201-ABCDEF.md'));
	renameSync(join(kb.root, '02-wiki', 'old.md.orig'), join(kb.base, 'old.md.orig'));
	const repaired = sync(kb);
	assert.equal(repaired.code, 0, JSON.stringify(repaired.held));
	assert.deepEqual(repaired.cleared, ['a/one.md', 'b/two.md', 'notes.sync-conflict-20261201-ABCDEF.md', 'old.md.orig', 'unclosed.md', 'unfenced.md']);
	const after = kb.ok(['query', '--q', 'parser', '--view', 'hits']);
	assert.deepEqual([after.state, after.hits.map((hit: {node_id: string}) => hit.node_id).sort()], ['ok', ['wiki:notes', 'wiki:twin', 'wiki:twin-two', 'wiki:unfenced']]);
});

test('conflict quarantine: the sync-conflict patterns come from the knowledge base config', t => {
	const kb = makeKb(t);
	page(kb, 'draft~merged.md', ['plain text']);
	page(kb, 'x.sync-conflict-1.md', ['plain text']);
	kb.ok(['config', 'set', 'wiki.conflict_paths', '*~merged*']);
	assert.deepEqual(sync(kb).held.map((entry: {path: string}) => entry.path), ['draft~merged.md'], 'the configured patterns replace the defaults');
	assert.equal(kb.run(['config', 'set', 'wiki.conflict_paths', ' , ', '--format', 'json']).error().code, 'invalid_config_value');
});

test('conflict quarantine: a configured pattern far longer than any file name is matched as text, not compiled (a regular expression that long does not compile)', t => {
	const kb = makeKb(t);
	page(kb, 'draft~merged.md', ['plain text']);
	kb.ok(['config', 'set', 'wiki.conflict_paths', `${'(y*'.repeat(30_000)}*,*~merged*`]);
	const result = sync(kb);
	assert.deepEqual(result.held.map((entry: {path: string}) => entry.path), ['draft~merged.md']);
});
