import assert from 'node:assert/strict';
import {cpSync, mkdirSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {parseNote, loadYamlParser} from '../source/engine/candidates/note.js';
import {tooDeepYaml, yamlNesting, yamlNestingLimit} from '../source/lib/yaml-nesting.js';
import {repoRoot} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';

test('yaml nesting: flow brackets outside quoted scalars and comments, and block indentation with compact indicators', () => {
	assert.equal(yamlNesting('id: task:x\nlinks:\n  - {type: BELONGS_TO, to: project:shop}\n'), 4);
	assert.equal(yamlNesting(`id: ${'['.repeat(500)}`), 500);
	assert.equal(yamlNesting('a: "[[[["\nb: \'{{{{\'\nc: 1'), 0, 'brackets in quoted scalars are text');
	assert.equal(yamlNesting('a: 1 # [[[[[[\nb: 2'), 0, 'a comment is text');
	assert.equal(yamlNesting("title: don't [[\nlinks: [[[x]]]"), 5, 'an apostrophe in a plain scalar opens no quote: the brackets after it still count');
	assert.equal(yamlNesting('- - - - x'), 8);
	assert.equal(yamlNesting(''), 0);
	assert.ok(!tooDeepYaml('id: task:x\nkind: Task\nblockers: [review, [a, {b: [c]}]]'));
	assert.ok(tooDeepYaml(`id: ${'{a: '.repeat(yamlNestingLimit + 1)}`));
	assert.ok(tooDeepYaml(`links:\n${'- '.repeat(yamlNestingLimit)}x`));
});

test('a candidate note whose frontmatter nests too deep is a problem named with its line, never handed to the parser', async () => {
	const parsed = parseNote(`---\nsource: claude\nnative_id: ${'['.repeat(5000)}\n---\nbody\n`, await loadYamlParser());
	assert.deepEqual(parsed, {problem: {line: 2, message: `the frontmatter nests deeper than ${yamlNestingLimit} levels`}});
});

test('fuzz finding: staged notes nested thousands deep crashed harvest outright (V8 aborts compiling a pattern at the stack\'s end); each is now invalid, with its line', t => {
	const kb = makeKb(t);
	const inbox = join(kb.root, '00-inbox', 'harvest');
	rmSync(inbox, {recursive: true, force: true});
	// The eight notes the fuzzer's counterexample held (mutations of a staged task note), as found.
	cpSync(join(repoRoot, 'test', 'fixtures', 'fuzz', 'harvest-deep-nesting'), inbox, {recursive: true});
	mkdirSync(join(kb.root, '02-wiki'), {recursive: true});
	writeFileSync(join(kb.root, '02-wiki', 'deep.md'), `---\ntitle: ${'['.repeat(20_000)}\n---\nA page.\n`);
	const harvest = kb.run(['harvest', '--format', 'json']);
	assert.equal(harvest.code, 2, harvest.stderr);
	const files = harvest.json().files as Array<{path: string; status: string; reasons: Array<{line: number | null; message: string}>}>;
	assert.equal(files.length, 8);
	assert.deepEqual(
		files.filter(file => file.reasons.some(reason => reason.message === `frontmatter nests deeper than ${yamlNestingLimit} levels`)).map(file => [file.path, file.reasons[0]!.line]),
		[
			['00-inbox/harvest/note-1.md', 2],
			['00-inbox/harvest/note-4.md', 2],
		],
	);
	const sync = kb.run(['wiki', 'sync', '--format', 'json']);
	assert.ok(sync.code === 0 || sync.code === 2, sync.stderr);
	assert.doesNotMatch(sync.stderr, /internal_error|\n\s+at /);
	assert.match(sync.stdout, /nests deeper than 64 levels/);
});
