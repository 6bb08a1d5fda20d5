// A file saved by a Windows editor or PowerShell opens with a UTF-8 byte-order mark. Buffer's
// decoder keeps it and JSON.parse refuses it, so the first record of such a transcript was
// skipped as "not JSON": the session lost its first request and its title.
import assert from 'node:assert/strict';
import {readFileSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import test from 'node:test';
import {claudeAdapter} from '../../source/adapters/claude/index.js';
import {codexAdapter} from '../../source/adapters/codex/index.js';
import {adapters} from '../../source/adapters/index.js';
import type {DocumentAdapter} from '../../source/adapters/types.js';
import type {SourceAdapter} from '../../source/adapters/types.js';
import {decodeLine, forEachLine} from '../../source/lib/lines.js';
import {looseUnit, readUnit} from '../helpers/adapters.js';
import {tempDir} from '../helpers/temp.js';

const vscodeAdapter = adapters.vscode as DocumentAdapter;

const byteOrderMark = Buffer.from([0xef, 0xbb, 0xbf]);
const cases = fileURLToPath(new URL('../fixtures/format-cases', import.meta.url));

/** The fixture as read, and the same bytes behind a byte-order mark. */
function bothWays(t: Parameters<typeof tempDir>[0], adapter: SourceAdapter, fixture: string) {
	const marked = join(tempDir(t), fixture.split('/').at(-1)!);
	writeFileSync(marked, Buffer.concat([byteOrderMark, readFileSync(join(cases, fixture))]));
	const idHint = fixture.split('/').at(-1)!.replace(/\.jsonl?$/, '');
	return {plain: readUnit(adapter, looseUnit(join(cases, fixture), {idHint})), marked: readUnit(adapter, looseUnit(marked, {idHint}))};
}

test('a byte-order mark opens a line-based file as nothing: its first line is read, later lines keep theirs', t => {
	const path = join(tempDir(t), 'marked.jsonl');
	writeFileSync(path, Buffer.concat([byteOrderMark, Buffer.from('{"a":1}\r\n'), byteOrderMark, Buffer.from('{"b":2}\n')]));
	const seen: string[] = [];
	forEachLine(path, raw => {
		seen.push(decodeLine(raw));
	});
	assert.deepEqual(seen, ['{"a":1}', '\ufeff{"b":2}']);
});

for (const [adapter, fixture] of [
	[claudeAdapter, 'claude/queued-then-delivered.jsonl'],
	[codexAdapter, 'codex/rollout-2025-11-18T10-10-00-0195b7d4-2b00-7b00-8b00-0000000000a2.jsonl'],
	[vscodeAdapter, 'vscode/v2-computed-title.json'],
] as const) {
	test(`${adapter.id}: a transcript behind a byte-order mark reads as without one`, t => {
		const {plain, marked} = bothWays(t, adapter, fixture);
		assert.equal(marked.loaded.skipped, 0, 'no record skipped');
		assert.ok(plain.summary.title, 'the fixture has a title');
		assert.equal(marked.summary.title, plain.summary.title);
		assert.deepEqual(marked.events.map(event => [event.line, event.kind, event.text ?? null]), plain.events.map(event => [event.line, event.kind, event.text ?? null]));
	});
}
