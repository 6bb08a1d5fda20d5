/**
 * --prune leaves no copy of a pruned output behind, in any of the ten stores: each keeps a tool's
 * output more than once (Claude the numbered text and the raw file, Codex the framed text and
 * stdout, aggregated and formatted output, Gemini and Qwen the response and `resultDisplay`,
 * Copilot `content` and `detailedContent`, OpenCode `output` and `metadata.preview`, VS Code the
 * results metadata), and the model saw one of them. A redundant read must go from all of them;
 * the read kept is printed once; the native record stays retrievable with --lines.
 */
import assert from 'node:assert/strict';
import test from 'node:test';
import {sourceIds, type SourceId} from '../source/adapters/types.js';
import {runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';
import {readTwiceMarkers, readTwiceWriters, writeCodexShellSession} from './fixtures/read-twice.js';

type Page = {records: Array<{line: number; pruned?: true; prune_reason?: string; event: unknown}>; prune?: Record<string, number>};

const occurrences = (text: string, marker: string) => text.split(marker).length - 1;

function checkSource(t: test.TestContext, source: SourceId, write: (env: Record<string, string>) => {id: string}) {
	const env = sandboxEnv(tempDir(t));
	const {id} = write(env);
	const run = (args: string[]) => runCli([...args, '--format', 'json'], {env});
	const plain = run(['read', id, '--source', source, '--view', 'events', '--limit', '100']).json() as Page;
	const result = run(['read', id, '--source', source, '--view', 'events', '--limit', '100', '--prune']);
	assert.equal(result.code, 0, result.stderr);
	const pruned = result.json() as Page;
	const before = JSON.stringify(plain.records);
	const after = JSON.stringify(pruned.records);
	for (const marker of readTwiceMarkers) {
		assert.ok(occurrences(before, marker) >= 2, `${source}: the plain page holds both reads (${marker})`);
		if (source === 'antigravity') {
			// Antigravity's tool steps name no call: a result is never paired by guess, so nothing is pruned.
			assert.equal(occurrences(after, marker), occurrences(before, marker));
		} else {
			assert.equal(occurrences(after, marker), 1, `${source}: the file's text is on the pruned page once (${marker}): ${after}`);
		}
	}

	if (source === 'antigravity') {
		assert.deepEqual(pruned.records, plain.records);
		return;
	}

	assert.equal(pruned.prune!['duplicate_reads'], 1, `${source}: ${JSON.stringify(pruned.prune)}`);
	const reasons = pruned.records.flatMap(record => record.prune_reason ?? []).join('; ');
	assert.match(reasons, /read of '\/work\/app\/src\/config\.ts' redundant; re-read at line \d+/);
	// The newest four records (the talk) stay whole; a pruned record's native form is a --lines call away.
	assert.deepStrictEqual(pruned.records.slice(-4), plain.records.slice(-4));
	for (const record of pruned.records.filter(candidate => candidate.pruned)) {
		const native = run(['read', id, '--source', source, '--lines', String(record.line)]).json() as Page;
		assert.deepStrictEqual(native.records[0]!.event, plain.records.find(candidate => candidate.line === record.line)!.event);
	}
}

for (const source of sourceIds) {
	test(`${source}: a redundant read leaves no copy of its output on the pruned page`, t => {
		checkSource(t, source, readTwiceWriters[source]);
	});
}

test('codex (2025 shell tool, output as JSON text): a redundant read leaves no copy of its output on the pruned page', t => {
	checkSource(t, 'codex', writeCodexShellSession);
});
