import assert from 'node:assert/strict';
import {appendFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import {asciiSeparated, countedPerUnit, scratchWords, tokenOf, unitMatchesOf} from '../source/engine/catalog/term-counts.js';
import {linesOfTermCountRowidSql, termCountRowid, textRowidSpan, unitOfTextRowidSql} from '../source/engine/catalog/text-rowid.js';
import {planQuery} from '../source/engine/search/query-plan.js';
import {segmentForIndex} from '../source/engine/search/segment.js';
import {vocabularyOf} from '../source/lib/sqlite.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {writeClaudeSession} from './helpers/stores.js';
import {tempDir} from './helpers/temp.js';

/** Words FTS5 folds (case, diacritics), splits (apostrophes, ²) or segments (Han), and plain ones. */
const words = ['quarantine', 'Quarantine', 'QUARANTINE', 'café', 'Cafe', 'ÉCOLE', 'naïve', "don't", 'x²', 'retry', 'flaky', 'budget', 'Straße', 'İstanbul', '隔离', '检查点', 'v2', '42', 'zeppelin'];
const queries = ['quarantine', 'cafe', 'café', 'ecole', 'naive', 'don', 'x', 'retry', 'budget', 'strasse', 'straße', 'istanbul', '隔离', 'v2', '42', 'zeppelin', 'the', 'nosuchword', 'retry budget', 'x²'];

function seeded(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
		return state / 2 ** 31;
	};
}

function sentence(random: () => number): string {
	const length = 1 + Math.floor(random() * 12);
	return Array.from({length}, () => words[Math.floor(random() * words.length)]).join(random() < 0.5 ? ' ' : ', ');
}

/** The straightforward count: every matching line of text_fts, grouped by unit. */
function linesPerUnit(db: Database.Database, match: string): Array<[number, number]> {
	return db.prepare(`SELECT rowid / ${textRowidSpan} AS unit, count(*) FROM text_fts WHERE text_fts MATCH ? GROUP BY unit ORDER BY unit`).raw().all(match) as Array<[number, number]>;
}

test('sessions --q: per-session word counts equal a count of matching lines, after growth too, and the search prints the same either way', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	buildFixtureHome(env);
	const projects = join(env['HOME']!, '.claude', 'projects');
	const random = seeded(19);
	const paths = Array.from({length: 24}, (_, index) =>
		writeClaudeSession(
			projects,
			`eeeeeeee-0000-4000-8000-${String(index).padStart(12, '0')}`,
			`/work/counts-${index % 3}`,
			Array.from({length: 1 + Math.floor(random() * 30)}, (_, turn) => ({user: sentence(random), assistant: random() < 0.8 ? sentence(random) : undefined, at: `2026-11-2${index % 9}T10:${String(turn % 60).padStart(2, '0')}:00.000Z`})),
		),
	);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	const catalog = join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite');
	const compare = (stage: string) => {
		const db = new Database(catalog, {readonly: true});
		try {
			let counted = 0;
			for (const q of queries) {
				const plan = planQuery(q, vocabularyOf(db, 'text_fts'));
				assert.ok(plan, q);
				const fast = countedPerUnit(db, plan);
				counted += fast === undefined ? 0 : 1;
				if (fast !== undefined) {
					const pairs = [...fast.linesOf].flatMap((lines, unit) => (lines > 0 ? [[unit, lines]] : []));
					assert.deepEqual(pairs, linesPerUnit(db, plan.match), `${stage}: ${q}`);
					assert.equal(fast.units, pairs.length, `${stage}: ${q}`);
				}
			}

			assert.ok(counted >= 12, `${stage}: ${counted} of the queries were answered by the counts`);
		} finally {
			db.close();
		}
	};

	assert.equal(run(['sessions', '--all-projects']).code, 0);
	compare('cold');
	// Grown sessions are read on from where they stopped: a second batch of counts per unit.
	for (const path of paths.slice(0, 8)) {
		appendFileSync(path, JSON.stringify({parentUuid: null, type: 'user', cwd: '/work/counts-0', sessionId: 'x', uuid: `late-${path.length}`, timestamp: '2026-11-30T09:00:00.000Z', message: {role: 'user', content: `${sentence(random)} quarantine Café`}}) + '\n');
	}

	assert.equal(run(['sessions', '--all-projects']).json().catalog.scanned, 8);
	compare('grown');

	// The same searches with the counts distrusted (as after a line indexed twice) print the same.
	const searches = queries.map(q => run(['sessions', '--all-projects', '--q', q, '--limit', '50']).json());
	const db = new Database(catalog);
	db.prepare('UPDATE text_units SET counted = 0 WHERE no = (SELECT min(no) FROM text_units)').run();
	db.close();
	for (const [index, q] of queries.entries()) {
		assert.deepEqual(run(['sessions', '--all-projects', '--q', q, '--limit', '50']).json(), searches[index], q);
	}

	assert.ok(searches[0]!.total > 0);
});

test('sessions --q: an ASCII word is taken as its own token exactly where FTS5 makes that one token of it', () => {
	const db = new Database(':memory:');
	const scratch = scratchWords(db);
	const asFts5 = (word: string) => {
		const tokens = scratch([{words: word, chars: ''}]);
		return tokens.length === 1 ? tokens[0]![0] : undefined;
	};

	const alphabet = 'abcxyzABCXYZ0189';
	const random = seeded(19);
	const generated = Array.from({length: 300}, () => Array.from({length: 1 + Math.floor(random() * 24)}, () => alphabet[Math.floor(random() * alphabet.length)]).join(''));
	for (const word of [...words, ...generated, 'Quarantine', 'ZEPPELIN', 'a1B2', '0', 'snake_case', 'kebab-case', 'dot.ted', 'ünïcode']) {
		assert.equal(tokenOf(db, word), asFts5(word), word);
	}

	db.close();
});

/** Counts as FTS5 alone makes them: every line through a full-text index like the scratch one. */
function countsByFts5(lines: ReadonlyArray<{words: string; chars: string}>): Map<string, number> {
	const db = new Database(':memory:');
	db.exec("CREATE VIRTUAL TABLE t USING fts5 (words, chars, content = '', detail = none, columnsize = 0); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')");
	const insert = db.prepare('INSERT INTO t (rowid, words, chars) VALUES (?, ?, ?)');
	for (const [index, line] of lines.entries()) {
		insert.run(index + 1, line.words, line.chars);
	}

	const counts = new Map(db.prepare('SELECT term, doc FROM v').raw().all() as Array<[string, number]>);
	db.close();
	return counts;
}

test('term counts: every character beyond ASCII that lines are counted with in JS is a separator to FTS5 itself', () => {
	const db = new Database(':memory:');
	db.exec("CREATE VIRTUAL TABLE t USING fts5 (words, content = '', detail = none, columnsize = 0); CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')");
	const insert = db.prepare('INSERT INTO t (rowid, words) VALUES (?, ?)');
	const separators: number[] = [];
	for (let code = 0x01; code <= 0xff_ff; code++) {
		const char = String.fromCharCode(code);
		if (!/[A-Za-z0-9]/.test(char) && asciiSeparated.test(char)) {
			assert.equal(char.toLowerCase(), char, `U+${code.toString(16)} changes when lowercased`);
			separators.push(code);
			insert.run(code, `qq${char}zz`);
		}
	}

	// Each line must hold exactly the two words around the character.
	const joined = db.prepare("SELECT DISTINCT doc FROM v WHERE term NOT IN ('qq', 'zz')").pluck().all() as number[];
	assert.deepEqual(
		joined.map(code => `U+${code.toString(16).toUpperCase()}`),
		[],
		'these characters are not separators to FTS5: take them out of asciiSeparated',
	);
	assert.equal(db.prepare('SELECT count(*) FROM v').pluck().get(), separators.length * 2);
	assert.ok(separators.length > 2000, `${separators.length} separators checked`);
	db.close();
});

test('term counts: lines counted in JS and lines through FTS5 add up to what FTS5 alone counts', () => {
	const pieces = [
		...'abcXYZ019',
		' ',
		', ',
		'_',
		'-',
		"'",
		'\n',
		'\t',
		'\0',
		'—',
		'→',
		'✓',
		'…',
		'“',
		'”',
		'│',
		'×',
		'²',
		'é',
		'ß',
		'İ',
		'K', // Kelvin sign: lowercases to an ASCII k
		'⏴',
		'🚀',
		'隔离',
		'\uD800',
		'Quarantine',
		'ZEPPELIN',
	];
	const db = new Database(':memory:');
	const counted = scratchWords(db);
	fc.assert(
		fc.property(
			fc.array(
				fc.oneof(
					fc.array(fc.constantFrom(...pieces), {maxLength: 24}).map(parts => parts.join('')),
					fc.constantFrom('a'.repeat(32_768), `${'b'.repeat(32_769)} c`, `x ${'Z'.repeat(40_000)}`),
				),
				{maxLength: 12},
			),
			texts => {
				const lines = texts.map(text => segmentForIndex(text));
				assert.deepEqual(new Map(counted(lines)), countsByFts5(lines));
			},
		),
		{numRuns: 300, seed: 19},
	);

	// Thousands of distinct words in one batch, so the count table grows more than once.
	const many = Array.from({length: 40}, (_, line) => Array.from({length: 200}, (_, word) => `w${(line * 97 + word * 13) % 5000} X${word % 7}`).join(' — '));
	const lines = many.map(text => segmentForIndex(text));
	assert.deepEqual(new Map(counted(lines)), countsByFts5(lines));
	assert.ok(countsByFts5(lines).size > 2000);
	db.close();
});

test('term counts: rowids split by SQLite add up per unit whatever order they come in, and a unit is counted once (property)', () => {
	const db = new Database(':memory:');
	const split = db.prepare(`SELECT json_group_array(${unitOfTextRowidSql('value')}), json_group_array(${linesOfTermCountRowidSql('value')}) FROM json_each(?)`).raw();
	fc.assert(
		fc.property(fc.array(fc.record({unit: fc.integer({min: 0, max: 3000}), batch: fc.integer({min: 0, max: 3}), lines: fc.integer({min: 1, max: 500})}), {maxLength: 200}), entries => {
			const rowids = entries.map(({unit, batch, lines}) => termCountRowid(unit, batch, lines));
			const expected = new Map<number, number>();
			for (const {unit, lines} of entries) {
				expected.set(unit, (expected.get(unit) ?? 0) + lines);
			}

			// As countedPerUnit has SQLite split them: the unit and the lines of each rowid.
			const [units, lines] = (split.get(JSON.stringify(rowids)) as [string, string]).map(json => JSON.parse(json) as number[]);
			const matches = unitMatchesOf(units!, lines!);
			assert.equal(matches.units, expected.size);
			assert.deepEqual(
				[...matches.linesOf].flatMap((lines, unit) => (lines > 0 ? [[unit, lines]] : [])),
				[...expected].sort(([x], [y]) => x - y),
			);
			// Unit numbers (one per matching line) count one line each.
			assert.deepEqual(unitMatchesOf(entries.map(({unit}) => unit)).units, new Set(entries.map(({unit}) => unit)).size);
		}),
		{numRuns: 300},
	);
	db.close();
});
