/**
 * The token bench's ceiling and composition of a pruned page (bench/lib/prune-anatomy.ts): the
 * ceiling drops every note, mark and the receipt and nothing else; the composition's parts add
 * up to the printed page and put each kind of string where it belongs.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {ceilingPage, composition, parts, sessionEvents} from '../bench/lib/prune-anatomy.js';
import {readConversation} from '../source/engine/conversation/read.js';
import type {Deps} from '../source/engine/deps.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';
import {claudeSessionPath, claudeToolLines, codexSessionPath, codexToolLines, innenShapedSteps, writeLines} from './fixtures/tool-sessions.js';

const notePattern = /\[omitted(?:: [^\n]*?)?; \d+ chars\]/;

test('the ceiling of a pruned page removes the notes, marks and receipt and keeps every record otherwise; the composition adds up to the page', async t => {
	const base = tempDir(t);
	const env = sandboxEnv(base);
	const deps: Deps = {env, cwd: base, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform};
	const claudeId = 'b0b0b0b0-0000-4000-8000-0000000000a1';
	const codexId = '0195a1c2-b0b0-7b00-8b00-0000000000a1';
	const steps = innenShapedSteps('/work/app');
	writeLines(claudeSessionPath(join(env['HOME']!, '.claude', 'projects'), claudeId, '/work/app'), claudeToolLines(claudeId, '/work/app', steps));
	writeLines(codexSessionPath(join(env['HOME']!, '.codex', 'sessions'), codexId), codexToolLines(codexId, '/work/app', steps));
	const count = await exactTokenCounter();
	for (const [source, id] of [['claude', claudeId], ['codex', codexId]] as const) {
		const input = {id, source: [source], view: 'events', offset: 0, limit: 100} as const;
		const plain = await readConversation(input, deps);
		const pruned = await readConversation({...input, prune: true}, deps);
		assert.equal(pruned.prune!.superseded_reads, 4, `${source}: each file read, then edited: ${JSON.stringify(pruned.prune)}`);
		const ceiling = ceilingPage(pruned as never);
		assert.equal('prune' in ceiling, false, 'no receipt');
		assert.doesNotMatch(JSON.stringify(ceiling), notePattern, 'no note is left');
		assert.equal(ceiling.records.length, plain.records.length);
		for (const [index, record] of ceiling.records.entries()) {
			const before = pruned.records[index] as Record<string, unknown>;
			assert.equal('pruned' in record || 'prune_reason' in record, false);
			if (!before['pruned']) {
				assert.deepStrictEqual(record, before, 'a record pruning left alone is untouched');
			}
		}

		const printed = JSON.stringify(pruned);
		const ceilingTokens = count(JSON.stringify(ceiling));
		assert.ok(ceilingTokens < count(printed), `${source}: the ceiling is below the pruned page`);
		const events = await sessionEvents(deps, source, id);
		const shares = composition(pruned as never, printed, count, line => events.get(line) ?? []);
		assert.equal(parts.reduce((sum, part) => sum + shares[part], 0), count(printed), `${source}: the parts add up to the page`);
		for (const part of ['native field values', 'keys and punctuation', 'kept tool outputs', 'tool calls', 'dialogue', 'notes and receipt', 'page envelope'] as const) {
			assert.ok(shares[part] > 0, `${source}: ${part} ${JSON.stringify(shares)}`);
		}

		// The failing test run is kept whole, and counted as kept output; the notes are what pruning added.
		assert.ok(shares['kept tool outputs'] >= count('expected 250, got 100'), JSON.stringify(shares));
		const noteTokens = (printed.match(new RegExp(notePattern.source, 'g')) ?? []).reduce((sum, note) => sum + count(note), 0);
		assert.ok(shares['notes and receipt'] >= noteTokens, `${source}: every note is counted as a note`);
	}
});
