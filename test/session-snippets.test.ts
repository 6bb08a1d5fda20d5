import assert from 'node:assert/strict';
import {writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import Database from 'better-sqlite3';
import {adapterFor} from '../source/adapters/index.js';
import {readAllRows} from '../source/adapters/rows.js';
import type {RowPlace, SourceAdapter} from '../source/adapters/types.js';
import {catalogStore} from '../source/engine/catalog/store.js';
import {lineOfTextRowid, textRowidRange} from '../source/engine/catalog/text-rowid.js';
import {unitOfRow} from '../source/engine/catalog/unit-of-row.js';
import {readRowsAt, readRowsOnLines} from '../source/engine/conversation/rows.js';
import {searchableText} from '../source/engine/search/session-text.js';
import type {SessionRow} from '../source/adapters/events.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {buildFixtureHome} from './fixtures/home.js';
import {tempDir} from './helpers/temp.js';

/** The searchable text of each line, rows sharing a line joined as the index joins them. */
function textByLine(rows: readonly SessionRow[]): Map<number, string> {
	const byLine = new Map<number, string[]>();
	for (const row of rows) {
		const text = searchableText(row.events);
		if (text.trim() !== '') {
			byLine.set(row.line, [...(byLine.get(row.line) ?? []), text]);
		}
	}

	return new Map([...byLine].map(([line, texts]) => [line, texts.join('\n')]));
}

/**
 * A Gemini chat whose user message is restored from a `$set` checkpoint (its line cannot be read
 * back alone) and whose model reply is streamed: first written with draft text, then rewritten
 * with the final text further down, which is the version a snippet must show.
 */
function writeRewrittenGeminiChat(home: string): void {
	const path = join(home, '.gemini', 'tmp', 'webapp', 'chats', 'session-2026-11-21T10-00-6c7d8e9f.jsonl');
	const records = [
		{sessionId: '6c7d8e9f-0000-4000-8000-000000000001', projectHash: 'webapp', startTime: '2026-11-21T10:00:00.000Z', kind: 'main'},
		{id: 'u1', timestamp: '2026-11-21T10:00:01.000Z', type: 'user', content: [{text: 'Why does the nightly export stall?'}]},
		{$set: {messages: [{id: 'u1', timestamp: '2026-11-21T10:00:01.000Z', type: 'user', content: [{text: 'Why does the nightly export stall?'}]}]}},
		{id: 'g1', timestamp: '2026-11-21T10:00:02.000Z', type: 'gemini', content: 'Draft: looking'},
		{$set: {lastUpdated: '2026-11-21T10:00:03.000Z'}},
		{id: 'g1', timestamp: '2026-11-21T10:00:02.000Z', type: 'gemini', content: 'The export stalls on a lock held by the vacuum job.'},
		{id: 'g2', timestamp: '2026-11-21T10:00:05.000Z', type: 'gemini', content: 'Moved the vacuum job to 04:00.'},
	];
	writeFileSync(path, records.map(record => JSON.stringify(record)).join('\n') + '\n');
}

test('sessions index: every line read back from its recorded offset has the text a whole load gives, for every source', t => {
	const env = sandboxEnv(tempDir(t));
	buildFixtureHome(env);
	writeRewrittenGeminiChat(env['HOME']!);
	const listed = runCli(['sessions', '--all-projects', '--format', 'json'], {env});
	assert.equal(listed.code, 0, listed.stderr);

	const db = new Database(join(env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'), {readonly: true});
	t.after(() => db.close());
	const store = catalogStore(db);
	const linesOf = db.prepare('SELECT rowid, offset FROM text_lines WHERE rowid BETWEEN ? AND ?');
	const readBack = new Map<string, number>();
	const indexedLines = new Map<string, number>();
	const normalisedAlone = new Map<string, number>();
	for (const {no, key} of db.prepare('SELECT no, key FROM text_units').all() as Array<{no: number; key: string}>) {
		const row = store.row(key);
		assert.ok(row, `text of ${key} belongs to a catalogued unit`);
		const adapter = adapterFor(row.source as SourceAdapter['id'])!;
		const unit = unitOfRow(row);
		const lines = linesOf.all(...textRowidRange(no)) as Array<{rowid: number; offset: number | null}>;
		const whole = textByLine(readAllRows(adapter, unit).rows);
		indexedLines.set(row.source, (indexedLines.get(row.source) ?? 0) + lines.length);
		assert.deepEqual(
			lines.map(line => lineOfTextRowid(line.rowid)),
			[...whole.keys()].sort((a, b) => a - b),
			`${row.source} ${key}: one document per line that has text`,
		);
		const places: RowPlace[] = lines.flatMap(line => (line.offset === null ? [] : [{line: lineOfTextRowid(line.rowid), offset: line.offset}]));
		const unplaced = new Set(lines.flatMap(line => (line.offset === null ? [lineOfTextRowid(line.rowid)] : [])));
		const alone = unplaced.size === 0 ? undefined : readRowsOnLines(adapter, unit, unplaced);
		if (alone) {
			const partial = textByLine(alone);
			for (const line of unplaced) {
				assert.equal(partial.get(line), whole.get(line), `${row.source} ${key}:${line}, normalised alone`);
			}

			normalisedAlone.set(row.source, (normalisedAlone.get(row.source) ?? 0) + unplaced.size);
		}

		if (places.length === 0) {
			continue;
		}

		const rows = readRowsAt(adapter, unit, places);
		assert.ok(rows, `${row.source} ${key}: lines with an offset can be read back`);
		const partial = textByLine(rows);
		for (const place of places) {
			assert.equal(partial.get(place.line), whole.get(place.line), `${row.source} ${key}:${place.line}`);
		}

		readBack.set(row.source, (readBack.get(row.source) ?? 0) + places.length);
	}

	// Every append-only source, the JSONL documents whose lines stand alone, and OpenCode's
	// database are read back place by place; VS Code's documents are read whole, and only the
	// lines asked for normalised.
	for (const source of ['claude', 'codex', 'copilot', 'cursor', 'antigravity', 'grok', 'gemini', 'qwen', 'opencode']) {
		assert.ok((readBack.get(source) ?? 0) > 0, `${source}: some lines are read back from their offsets (${JSON.stringify([...readBack])})`);
	}

	for (const source of ['vscode']) {
		assert.ok((indexedLines.get(source) ?? 0) > 0, `${source} text is indexed`);
		assert.equal(readBack.get(source), undefined, `${source} has no line to read back from`);
		assert.equal(normalisedAlone.get(source), indexedLines.get(source), `${source}: every indexed line is normalised alone`);
	}

	// Through the CLI: the streamed reply's snippet is its final text, at the line it began on.
	const found = runCli(['sessions', '--all-projects', '--source', 'gemini', '--q', 'vacuum lock', '--format', 'json'], {env}).json();
	assert.deepEqual(
		found.sessions.map((session: {id: string; matches: unknown}) => [session.id, session.matches]),
		[['6c7d8e9f-0000-4000-8000-000000000001', [{line: 4, snippet: 'The export stalls on a lock held by the vacuum job.'}]]],
	);
});
