import assert from 'node:assert/strict';
import test from 'node:test';
import {parse as parseYaml} from 'yaml';
import {harvestedNote, needsYamlParser, parseNote, readNoteSummary, renderNote, type CandidateNote} from '../source/engine/candidates/note.js';
import {noteStem} from '../source/engine/candidates/queue.js';

/** Strings that trip naive YAML: markers, quotes, escapes, control and line-separator characters, non-BMP text. */
const tricky = ['plain', '', '---', '...', '# not a comment', 'key: value', '- item', '[a, b]', '{a: b}', '"quoted"', '\'single\'', 'back\\slash', 'tab\there', 'new\nline', 'cr\rlf', 'nul\u0000', 'del\u007f', 'c1\u0085\u0090', 'line\u2028sep', 'bom\ufeff', 'noncharacter\uffff', '日本語', '😀 emoji', 'lone \ud800 surrogate', '@at', '&anchor', '*alias', '!tag', '%directive', '|', '>', 'yes', 'null', '0x1F', '1e3', '~'];

function note(text: string): CandidateNote {
	return harvestedNote(
		{
			source: 'claude',
			native_id: 'c0ffee00-0000-4000-8000-000000000001',
			source_path: `/home/u/.claude/projects/x/${text}.jsonl`,
			source_root: '/home/u/.claude/projects',
			source_sha256: 'a'.repeat(64),
			source_bytes: 1234,
			source_digest: 'file',
			source_fingerprint: '1234:1:2',
			project: text,
			started: null,
			ended: '2026-11-24T09:00:00.000Z',
			turns: 3,
			skipped_lines: 0,
			private_spans: 0,
			first_request: {turn: 1, line: 1, text},
			files: [{path: text, turn: 2}],
			files_total: 1,
			commands: [{command: text, status: 'ok', exit_code: 0, turn: 3}],
			command_counts: {ok: 1, failed: 0, no_result: 0},
		},
		'2026-11-26T12:00:00.000Z',
	);
}

test('a note\'s frontmatter reads back the same through engi\'s own reader and through a YAML parser, whatever the text holds', () => {
	for (const text of tricky) {
		const written = note(text);
		const rendered = renderNote(written, 'my own notes');
		const read = parseNote(rendered);
		assert.equal(needsYamlParser(read), false, JSON.stringify(text));
		assert.ok('note' in read, `${JSON.stringify(text)}: ${JSON.stringify(read)}`);
		const expected = JSON.parse(JSON.stringify(written)) as CandidateNote;
		assert.deepEqual(read.note, expected, JSON.stringify(text));
		assert.equal(read.reviewNotes, 'my own notes');
		const summary = {source: 'claude', native_id: written.native_id, status: 'pending', harvested_at: written.harvested_at, ended: written.ended, source_sha256: written.source_sha256, source_bytes: 1234, source_fingerprint: '1234:1:2'};
		assert.deepEqual(readNoteSummary(rendered, {whole: true}), summary, 'the queue reads the summary without a parser');
		assert.deepEqual(readNoteSummary(rendered.slice(0, 700), {whole: false}), summary, 'from the first lines alone');
		const yaml = parseYaml(rendered.split('\n---\n')[0]!.slice('---\n'.length)) as CandidateNote;
		assert.deepEqual(yaml, expected, `${JSON.stringify(text)}: YAML reads another value`);
	}
});

test('a note\'s file name spells any session id safely, and the same id always gives the same name', () => {
	assert.equal(noteStem('claude', 'c0ffee00-0000-4000-8000-000000000001'), 'claude-c0ffee00-0000-4000-8000-000000000001');
	assert.equal(noteStem('codex', 'a:b/c'), 'codex-a%3Ab%2Fc');
	assert.equal(noteStem('opencode', 'ses_x', '0123456789ab'), 'opencode-ses_x+0123456789ab');
});
