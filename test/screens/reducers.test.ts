import assert from 'node:assert/strict';
import test from 'node:test';
import type {Candidate} from '../../source/engine/continuity/unfinished.js';
import {draftOf, formReducer, initialForm} from '../../source/screens/checkpoints/form-state.js';
import {initialList, listActionFor, listReducer, scrollTo} from '../../source/screens/hooks/use-list-state.js';
import {helpLines} from '../../source/screens/components/help-overlay.js';
import {bindings, commandFor, fieldBindings, hintsFor, keypressesOf, typedText} from '../../source/screens/keys.js';
import {ageOf, fitParts} from '../../source/screens/theme.js';
import {initialUnfinished, unfinishedReducer, visibleCandidates, type UnfinishedState} from '../../source/screens/unfinished/state.js';
import {initialReview, reviewReducer} from '../../source/screens/review/state.js';
import {rowParts} from '../../source/screens/review/view.js';
import type {CandidateRow} from '../../source/engine/candidates/queue.js';
import {buildFilterIndex} from '../../source/screens/unfinished/filter-index.js';
import type {Evaluation} from '../../source/engine/evidence/evaluation-schema.js';
import {initialQuery, paneOf, queryReducer, type ContextResult, type EvidenceCandidate} from '../../source/screens/query/state.js';
import {openDetail} from '../../source/screens/query/view.js';
import type {AssessmentEntry} from '../../source/engine/retention/plan.js';
import type {SweepItem, SweepOutput} from '../../source/engine/retention/sweep.js';
import {countConfirmed, initialRetention, retentionReducer, visibleSessions, type RetentionAction, type RetentionState} from '../../source/screens/retention/state.js';

function candidate(id: string, extra: Partial<Candidate> = {}): Candidate {
	return {id, source: 'claude', project: '/p', modified: '2026-11-20T00:00:00Z', title: id, classification: 'candidate', confidence: 'low', reasons: [], active_now: false, path: `/x/${id}`, subagents: 0, ...extra};
}

test('the list model: moving, paging and jumping keep the cursor in range and in view, and each list key maps to one move', () => {
	let state = initialList(3);
	state = listReducer(state, {type: 'move', by: 1, count: 10});
	assert.deepEqual([state.cursor, state.top], [1, 0]);
	state = listReducer(state, {type: 'move', by: 5, count: 10});
	assert.deepEqual([state.cursor, state.top], [6, 4]);
	state = listReducer(state, {type: 'jump', to: 'end', count: 10});
	assert.deepEqual([state.cursor, state.top], [9, 7]);
	state = listReducer(state, {type: 'move', by: 100, count: 10});
	assert.equal(state.cursor, 9);
	state = listReducer(state, {type: 'jump', to: 'start', count: 10});
	assert.deepEqual([state.cursor, state.top], [0, 0]);
	state = listReducer(state, {type: 'move', by: -1, count: 0});
	assert.equal(state.cursor, 0, 'an empty list has nowhere to go');
	state = listReducer({...state, cursor: 8, top: 6}, {type: 'resize', height: 2});
	assert.deepEqual([state.height, state.top], [2, 7]);
	assert.deepEqual(listReducer({cursor: 0, top: 40, height: 5}, {type: 'select', index: 2, count: 50}), {cursor: 2, top: 2, height: 5}, 'a selected row is brought into view');
	assert.deepEqual(listReducer({cursor: 0, top: 0, height: 5}, {type: 'select', index: -1, count: 0}), {cursor: 0, top: 0, height: 5});
	assert.deepEqual(listReducer({cursor: 7, top: 5, height: 5}, {type: 'reset'}), {cursor: 0, top: 0, height: 5});
	const list = {cursor: 4, top: 2, height: 5};
	const moves = ['down', 'up', 'page-down', 'page-up', 'home', 'end', 'filter', undefined].map(command => listActionFor(command, list, 20));
	assert.deepEqual(moves, [
		{type: 'move', by: 1, count: 20},
		{type: 'move', by: -1, count: 20},
		{type: 'move', by: 5, count: 20},
		{type: 'move', by: -5, count: 20},
		{type: 'jump', to: 'start', count: 20},
		{type: 'jump', to: 'end', count: 20},
		undefined,
		undefined,
	]);
	// Every key the help lists under Lists moves a list: the two tables cannot drift apart.
	for (const binding of bindings.filter(each => each.scope === 'list')) {
		assert.ok(listActionFor(binding.command, list, 20), `${binding.keys} (${binding.command}) moves the list`);
	}

	assert.deepEqual([scrollTo(0, 5, 3), scrollTo(9, 0, 3), scrollTo(4, 3, 3)], [0, 7, 3]);
});

test('unfinished: the list resets to the top when the rows change (sort, source, filter) and keeps its place when a filter is kept', () => {
	let state = initialUnfinished(3);
	state = unfinishedReducer(state, {type: 'list', action: {type: 'move', by: 5, count: 10}});
	assert.deepEqual([state.list.cursor, state.list.top], [5, 3]);
	assert.deepEqual(unfinishedReducer(state, {type: 'cycle-sort'}).list, {cursor: 0, top: 0, height: 3});
	assert.deepEqual(unfinishedReducer(state, {type: 'cycle-source', sources: ['codex']}).list, {cursor: 0, top: 0, height: 3});
	const filtering = unfinishedReducer(state, {type: 'start-filter'});
	assert.deepEqual(filtering.list, state.list, 'starting to type moves nothing yet');
	assert.deepEqual(unfinishedReducer(filtering, {type: 'type', text: 'x'}).list.cursor, 0);
	assert.deepEqual(unfinishedReducer(filtering, {type: 'end-filter', keep: true}).list, state.list);
	assert.deepEqual(unfinishedReducer(filtering, {type: 'end-filter', keep: false}).list.cursor, 0);
});

test('unfinished: sort, source and text filters', () => {
	const rows = [
		candidate('a', {modified: '2026-11-20T00:00:00Z', project: '/b', confidence: 'low', source: 'codex', title: 'streaming parser'}),
		candidate('b', {modified: '2026-11-22T00:00:00Z', project: '/a', confidence: 'high', title: 'retry backoff', reasons: [{code: 'pending_tool_call', detail: 'Bash has no result', line: 3}]}),
		candidate('c', {modified: '2026-11-21T00:00:00Z', project: '/a', confidence: 'medium', title: 'csv export'}),
	];
	let state: UnfinishedState = initialUnfinished(10);
	assert.deepEqual(visibleCandidates(rows, state, null).map(row => row.id), ['b', 'c', 'a'], 'newest first');
	state = unfinishedReducer(state, {type: 'cycle-sort'});
	assert.equal(state.sort, 'project');
	assert.deepEqual(visibleCandidates(rows, state, null).map(row => row.id), ['b', 'c', 'a']);
	state = unfinishedReducer(state, {type: 'cycle-sort'});
	assert.deepEqual(visibleCandidates(rows, state, null).map(row => row.id), ['b', 'c', 'a']);
	assert.equal(state.sort, 'confidence');
	state = unfinishedReducer(state, {type: 'cycle-sort'});
	assert.equal(state.sort, 'age', 'the cycle wraps');
	state = unfinishedReducer(state, {type: 'cycle-source', sources: ['claude', 'codex']});
	assert.deepEqual(visibleCandidates(rows, state, null).map(row => row.id), ['b', 'c']);
	state = unfinishedReducer(state, {type: 'cycle-source', sources: ['claude', 'codex']});
	state = unfinishedReducer(state, {type: 'cycle-source', sources: ['claude', 'codex']});
	assert.equal(state.source, null);
	const search = buildFilterIndex(rows);
	assert.deepEqual(visibleCandidates(rows, state, search('stream')).map(row => row.id), ['a'], 'prefix');
	assert.deepEqual(visibleCandidates(rows, state, search('backof')).map(row => row.id), ['b']);
	assert.deepEqual(visibleCandidates(rows, state, search('pending tool')).map(row => row.id), ['b'], 'reasons are searchable');
	assert.deepEqual(visibleCandidates(rows, state, search('codex')).map(row => row.id), ['a'], 'and sources');
	state = unfinishedReducer(state, {type: 'start-filter'});
	state = unfinishedReducer(unfinishedReducer(state, {type: 'type', text: 'c'}), {type: 'type', text: 's'});
	assert.equal(state.filter, 'cs');
	state = unfinishedReducer(state, {type: 'erase'});
	assert.equal(state.filter, 'c');
	assert.deepEqual(unfinishedReducer(state, {type: 'end-filter', keep: false}).filter, '');
	assert.equal(unfinishedReducer(state, {type: 'end-filter', keep: true}).filter, 'c');
	state = unfinishedReducer(state, {type: 'ask', confirm: {id: 'b', source: 'claude', status: 'completed'}});
	assert.equal(state.confirm?.status, 'completed');
	assert.equal(unfinishedReducer(state, {type: 'answered', message: 'done'}).confirm, null);
});

test('checkpoint form: typing, fields, status cycle, and the same validation as the CLI', () => {
	let form = initialForm('s1', 'claude');
	assert.deepEqual(draftOf(form), {error: 'objective: the first checkpoint of a session needs an objective'});
	for (const char of 'ship it') {
		form = formReducer(form, {type: 'type', text: char});
	}

	assert.equal(form.values.objective, 'ship it');
	form = formReducer(form, {type: 'erase'});
	assert.equal(form.values.objective, 'ship i');
	form = formReducer(form, {type: 'next'});
	form = formReducer(form, {type: 'type', text: 'x'});
	assert.equal(form.status, 'active', 'typing into the status field does nothing');
	form = formReducer(form, {type: 'cycle-status', by: 1});
	assert.equal(form.status, 'blocked');
	assert.deepEqual(draftOf(form), {error: 'blockers: a blocked checkpoint needs at least one blocker'});
	form = formReducer(formReducer(form, {type: 'next'}), {type: 'next'});
	for (const char of 'waiting, review') {
		form = formReducer(form, {type: 'type', text: char});
	}

	const checked = draftOf(form);
	assert.ok('draft' in checked);
	assert.deepEqual(checked.draft, {session: 's1', source: 'claude', status: 'blocked', objective: 'ship i', blockers: ['waiting', 'review']});
	form = formReducer(form, {type: 'previous'});
	assert.equal(form.focus, 2);
	assert.equal(formReducer(form, {type: 'failed', error: 'nope'}).error, 'nope');
	const inherited = initialForm('s2', 'codex', {objective: 'old', status: 'active', next_action: 'go', blockers: ['a'], verification: null});
	assert.deepEqual(inherited.values, {objective: 'old', next_action: 'go', blockers: 'a', verification: ''});
	const cleared = formReducer(formReducer(formReducer(inherited, {type: 'erase'}), {type: 'erase'}), {type: 'erase'});
	assert.deepEqual(draftOf(cleared), {draft: {session: 's2', source: 'codex', status: 'active', next_action: 'go', blockers: ['a']}}, 'a later checkpoint may leave the objective empty to inherit it');
});

test('checkpoint form: the engine\'s checkpoint rules decide, as for engi checkpoint record', () => {
	const blocked = {objective: 'ship', status: 'blocked' as const, next_action: null, blockers: ['review'], verification: null};
	const erase = (form: ReturnType<typeof initialForm>, count: number) => {
		let state = form;
		for (let index = 0; index < count; index++) {
			state = formReducer(state, {type: 'erase'});
		}

		return state;
	};

	const onBlockers = (form: ReturnType<typeof initialForm>) => formReducer(formReducer(formReducer(form, {type: 'next'}), {type: 'next'}), {type: 'next'});
	const cleared = erase(onBlockers(initialForm('s3', 'claude', blocked)), 'review'.length);
	assert.equal(cleared.values.blockers, '');
	assert.deepEqual(draftOf(cleared), {draft: {session: 's3', source: 'claude', status: 'blocked', objective: 'ship'}}, 'a still-blocked checkpoint inherits its blockers');
	const moved = formReducer(formReducer(initialForm('s4', 'claude', {...blocked, status: 'active', blockers: []}), {type: 'next'}), {type: 'cycle-status', by: 1});
	assert.equal(moved.status, 'blocked');
	assert.deepEqual(draftOf(moved), {error: 'blockers: a blocked checkpoint needs at least one blocker'}, 'blocked anew needs a blocker');
});

test('keys: one table drives matching, footer hints and the help overlay', () => {
	assert.equal(commandFor(['unfinished', 'list'], 'j', {}), 'down');
	assert.equal(commandFor(['unfinished', 'list'], '', {downArrow: true}), 'down');
	assert.equal(commandFor(['unfinished', 'list'], '/', {}), 'filter');
	assert.equal(commandFor(['global'], '3', {}), 'go-screen');
	assert.equal(commandFor(['global'], '9', {}), 'go-screen', 'every digit opens a tab, as many as there are');
	assert.equal(commandFor(['global'], '0', {}), undefined);
	assert.deepEqual(['v', 'f', '/', 'x'].map(input => commandFor(['retention'], input, {})), ['cycle-view', 'blocker-filter', 'filter', 'execute']);
	assert.equal(commandFor(['global'], '', {tab: true, shift: true}), 'previous-screen');
	assert.equal(commandFor(['global'], 'q', {ctrl: true}), undefined);
	assert.match(hintsFor('unfinished', 200), /^enter open · \/ filter · s sort/);
	const scopes = [...new Set(bindings.map(binding => binding.scope))];
	for (const width of [40, 60, 80, 120]) {
		for (const scope of scopes) {
			const footer = hintsFor(scope, width);
			assert.ok(footer.length <= width, `${scope} at ${width}: ${footer}`);
			assert.ok(footer.endsWith('? help · q quit'), `${scope} at ${width}: help and quit always show: ${footer}`);
			assert.doesNotMatch(footer, /…/, 'a hint is left out whole, never cut');
		}
	}
	const help = helpLines('unfinished');
	assert.equal(help[0]!.text, 'Unfinished');
	assert.equal(help.filter(line => !line.header).length, bindings.length, 'every binding is listed');
	for (const binding of fieldBindings) {
		assert.ok(!help.some(line => line.text.includes(binding.description)), `${binding.command} is a key of a field, which the field itself names`);
	}
});

test('keys: a form and a text field answer through the table too: the form\'s keys before the field\'s, shift+tab back', () => {
	const form = (input: string, key: Parameters<typeof commandFor>[2]) => commandFor(['form', 'field'], input, key);
	assert.deepEqual(
		[form('', {return: true}), form('', {escape: true}), form('', {tab: true}), form('', {downArrow: true}), form('', {tab: true, shift: true}), form('', {upArrow: true}), form('', {leftArrow: true}), form('', {rightArrow: true}), form('', {backspace: true}), form('x', {})],
		['submit', 'cancel', 'next-field', 'next-field', 'previous-field', 'previous-field', 'status-back', 'status-forward', 'erase', undefined],
	);
	const field = (input: string, key: Parameters<typeof commandFor>[2]) => commandFor(['field'], input, key);
	assert.deepEqual([field('', {return: true}), field('', {escape: true}), field('', {delete: true}), field('q', {})], ['accept', 'dismiss', 'erase', undefined]);
	assert.deepEqual([typedText('q', {}), typedText('c', {ctrl: true}), typedText('x', {meta: true}), typedText('', {})], ['q', undefined, undefined, undefined]);
});

test('keys: a chunk of plain characters is one keypress each; escape sequences stay whole', () => {
	const none = {upArrow: false, downArrow: false, return: false, escape: false, tab: false, shift: false, backspace: false, delete: false, ctrl: false, meta: false};
	assert.deepEqual(keypressesOf('j', none), [['j', none]], 'a single key is passed through as Ink described it');
	assert.deepEqual(keypressesOf('\u001B[B', {...none, downArrow: true}), [['\u001B[B', {...none, downArrow: true}]]);
	assert.deepEqual(keypressesOf('jj', none).map(([input]) => input), ['j', 'j']);
	const erased = keypressesOf('\u007F\u007F', none);
	assert.deepEqual(erased.map(([input, key]) => [input, key.delete]), [['', true], ['', true]], 'two backspaces (DEL) are two erases');
	const mixed = keypressesOf('aB\r\t\b\u0003 ', none);
	assert.deepEqual(mixed.map(([input]) => input), ['a', 'B', '\r', '', '', 'c', ' ']);
	assert.deepEqual(mixed.map(([, key]) => [key.shift, key.return, key.tab, key.backspace, key.ctrl]), [
		[false, false, false, false, false],
		[true, false, false, false, false],
		[false, true, false, false, false],
		[false, false, true, false, false],
		[false, false, false, true, false],
		[false, false, false, false, true],
		[false, false, false, false, false],
	]);
	assert.deepEqual(keypressesOf('流式', none).map(([input]) => input), ['流', '式'], 'split by code point, not by UTF-16 unit');
});

test('ages fit four characters at every magnitude, so the age column never shifts', () => {
	const now = new Date('2026-11-29T12:00:00Z');
	const ago = (minutes: number) => new Date(now.getTime() - minutes * 60_000).toISOString();
	const seen = [0, 59, 61, 47 * 60, 49 * 60, 364 * 1440, 999 * 1440, 1000 * 1440, 9999 * 1440, 400 * 365 * 1440, 5000 * 365 * 1440].map(minutes => ageOf(ago(minutes), now));
	assert.deepEqual(seen, ['0m', '59m', '1h', '47h', '2d', '364d', '2y', '2y', '27y', '400y', '999y']);
	assert.ok(seen.every(age => age.length <= 4));
	assert.equal(ageOf(null, now), '?');
	assert.equal(ageOf(new Date(now.getTime() + 3_600_000).toISOString(), now), '0m', 'a clock ahead of the file is not a negative age');
});

test('a summary line is cut between its parts, never inside one', () => {
	const line = 'since 2026-11-01 · 22 unfinished · 12 projects · checkpoints: 10 active, 2 blocked';
	assert.equal(fitParts(line, 200), line);
	assert.equal(fitParts(line, line.length), line);
	assert.equal(fitParts(line, 60), 'since 2026-11-01 · 22 unfinished · 12 projects · …');
	assert.equal(fitParts(line, 20), 'since 2026-11-01 · …');
	assert.equal(fitParts(line, 10), 'since 202…', 'a first part too long for the line is cut with an ellipsis');
});

test('review: a question, its answer or its cancelling, the cited turns and their scrolling, each a pure step', () => {
	let state = initialReview(5);
	state = reviewReducer(state, {type: 'list', action: {type: 'move', by: 2, count: 10}});
	assert.equal(state.list.cursor, 2);
	state = reviewReducer(state, {type: 'ask', confirm: {action: 'promote', ref: 'codex-a'}});
	assert.deepEqual(state.confirm, {action: 'promote', ref: 'codex-a'});
	const cancelled = reviewReducer(state, {type: 'cancel'});
	assert.deepEqual([cancelled.confirm, cancelled.busy, cancelled.message, cancelled.list.cursor], [null, false, 'nothing was changed', 2], 'cancelling keeps the place');
	state = reviewReducer(state, {type: 'writing'});
	assert.deepEqual([state.confirm, state.busy], [null, true]);
	state = reviewReducer(state, {type: 'done', message: 'promoted codex-a'});
	assert.deepEqual([state.busy, state.message], [false, 'promoted codex-a']);
	state = reviewReducer(state, {type: 'show-evidence', evidence: {ref: 'codex-a', turns: [3, 7], maxTurns: 12}});
	assert.deepEqual([state.evidence?.turns, state.offset, state.message], [[3, 7], 0, null]);
	state = reviewReducer(state, {type: 'scroll', by: 4, lines: 10, height: 8});
	assert.equal(state.offset, 2, 'scrolling stops where the last line is at the bottom');
	state = reviewReducer(state, {type: 'scroll', by: -10, lines: 10, height: 8});
	assert.equal(state.offset, 0);
	assert.equal(reviewReducer(state, {type: 'scroll', by: 3, lines: 4, height: 8}).offset, 0, 'turns that fit do not scroll');
	state = reviewReducer(reviewReducer(state, {type: 'scroll', by: 1, lines: 10, height: 8}), {type: 'close-evidence'});
	assert.deepEqual([state.evidence, state.offset, state.list.cursor], [null, 0, 2], 'esc returns to the queue where it was');
});

test('review: a queue row keeps its columns whatever the names, and an unreadable note says why', () => {
	const row = (extra: Partial<CandidateRow>): CandidateRow => ({ref: 'r', path: '00-inbox/candidates/r.md', source: 'claude', native_id: 'x', project: '/work/app', status: 'pending', tier: 'harvest', unreadable: false, problem: null, turns: 12, commands: {ok: 3, failed: 1, no_result: 0}, files: 2, first_request: 'Fix it', started: null, ended: null, harvested_at: null, model: null, ...extra});
	const short = rowParts(row({}));
	const long = rowParts(row({source: 'antigravity', project: '/home/dev/a-very-long-project-directory-name', turns: 1234, tier: 'distilled', commands: {ok: 12, failed: 10, no_result: 0}}));
	assert.equal(short.columns.length, long.columns.length);
	assert.match(short.columns, /^claude +app +12 turns +3 ok +1 failed {3}$/);
	assert.match(long.columns, /^antigravity a-very-long-p… 1234 turns 12 ok 10 failed ◆ $/);
	assert.deepEqual(rowParts(row({unreadable: true, problem: 'line 4: not YAML', project: null})), {columns: `${'claude'.padEnd(11)} ${'?'.padEnd(14)} `, text: 'unreadable: line 4: not YAML'});
});

test('query: typing edits the search, e opens the selected result\'s evidence over the results, esc closes it and then the contract\'s answer', () => {
	const row = (id: string) => ({node_id: id, kind: 'Task', label: id, status: null, score: 1, why: 'all_terms_match', linked_projects: [], decisions: [], authority_gaps: []});
	const result = {view: 'context', q: 'csv', as_of: '2026-11-29T12:00:00Z', include_expired: false, offset: 0, limit: 50, truncated: false, state: 'ok', reasons: [], total: 3, next_offset: null, warnings: [], rows: ['a', 'b', 'c'].map(id => row(id)), expand: [], unindexed_local_candidates: null} as unknown as ContextResult;
	const candidate = {id: 'b', score: 1, why: 'all_terms_match', node: {id: 'b'}, node_sha256: 'ab'.repeat(32), history: []} satisfies EvidenceCandidate;
	const answer = {question: 'why?'} as unknown as Evaluation;
	let state = initialQuery('', {list: 2, detail: 5});
	assert.equal(state.editing, true, 'an empty search box starts with the keys');
	for (const text of ['c', 's', 'v', 'x']) {
		state = queryReducer(state, {type: 'type', text});
	}

	state = queryReducer(queryReducer(state, {type: 'erase'}), {type: 'end-edit'});
	assert.deepEqual([state.text, state.editing], ['csv', false]);
	state = queryReducer(state, {type: 'contract', answer});
	state = queryReducer(state, {type: 'detail', action: {type: 'move', by: 3, count: 10}});
	state = queryReducer(state, {type: 'loaded', result});
	assert.equal(paneOf(state), 'contract', 'search results arriving after the contract\'s answer leave it open');
	assert.equal(state.detail.cursor, 3);
	state = queryReducer(state, {type: 'back'});
	assert.equal(paneOf(state), 'results');
	assert.equal(state.detail.cursor, 0, 'a closed view starts at its top when opened again');
	state = queryReducer(state, {type: 'list', action: {type: 'move', by: 2, count: 3}});
	assert.deepEqual([state.list.cursor, state.list.top], [2, 1]);
	state = queryReducer(state, {type: 'evidence', candidate});
	assert.equal(paneOf(state), 'evidence');
	assert.deepEqual(openDetail(state)!.lines.slice(0, 1), [{text: `node_sha256 ${'ab'.repeat(32)}`, tone: 'cyan'}]);
	state = queryReducer(state, {type: 'loaded', result});
	assert.equal(paneOf(state), 'results', 'new results close the evidence of the old ones');
	assert.equal(state.list.cursor, 0);
	state = queryReducer(queryReducer(state, {type: 'evidence', candidate}), {type: 'contract', answer});
	state = queryReducer(state, {type: 'back'});
	assert.equal(paneOf(state), 'contract', 'esc closes the evidence first');
	state = queryReducer(queryReducer(state, {type: 'back'}), {type: 'back'});
	assert.equal(paneOf(state), 'results');
	assert.equal(queryReducer(state, {type: 'back'}), state, 'esc over the results changes nothing (the app goes back)');
	assert.equal(commandFor(['query'], 'e', {}), 'evidence');
});

function assessed(id: string, source: string, codes: Array<AssessmentEntry['blockers'][number]['code']>, extra: Partial<AssessmentEntry> = {}): AssessmentEntry {
	return {session_id: id, source, project: '/work/shop', title: `title of ${id}`, path: `/x/${id}.jsonl`, modified: null, status: codes.length === 0 ? 'eligible' : 'blocked', bytes: 10, blockers: codes.map(code => ({code, detail: code})), children: [], nested: 0, receipt_id: null, targets: null, ...extra};
}

test('retention: views cycle (receipts only after a sweep), filters narrow the sessions and reset the list, the typed count gates execution', () => {
	const run = (state: RetentionState, ...actions: RetentionAction[]) => actions.reduce(retentionReducer, state);
	let state = initialRetention(3);
	const views = [state.view];
	for (let step = 0; step < 4; step++) {
		state = run(state, {type: 'cycle-view'});
		views.push(state.view);
	}

	assert.deepEqual(views, ['summary', 'blockers', 'sessions', 'summary', 'blockers'], 'no receipts view before a sweep');
	state = run(state, {type: 'list', action: {type: 'move', by: 2, count: 5}}, {type: 'show-code', code: 'unfinished_candidate'});
	assert.deepEqual([state.view, state.blocker, state.list.cursor], ['sessions', 'unfinished_candidate', 0], 'enter on a code lists its sessions from the top');
	const sessions = [assessed('a', 'claude', ['unfinished_candidate', 'attestation_missing']), assessed('b', 'codex', ['attestation_missing']), assessed('c', 'codex', []), assessed('d', 'gemini', ['source_not_separable', 'unfinished_candidate'])];
	assert.deepEqual(visibleSessions(sessions, state).map(session => session.session_id), ['a', 'd']);
	state = run(state, {type: 'cycle-blocker', codes: ['unfinished_candidate', 'source_not_separable']});
	assert.equal(state.blocker, 'source_not_separable');
	state = run(state, {type: 'cycle-blocker', codes: ['unfinished_candidate', 'source_not_separable']});
	assert.equal(state.blocker, null, 'f comes round to all blockers');
	assert.deepEqual(visibleSessions(sessions, state).map(session => session.session_id), ['a', 'b', 'c', 'd']);
	state = run(initialRetention(3), {type: 'start-filter'});
	assert.deepEqual([state.view, state.filtering], ['sessions', true], '/ from another view filters the sessions');
	state = run(state, {type: 'type', text: 'CODEX'}, {type: 'type', text: ' attestation'});
	assert.deepEqual(visibleSessions(sessions, state).map(session => session.session_id), ['b'], 'every word must match, case aside');
	state = run(state, {type: 'erase'});
	assert.equal(state.filter, 'CODEX attestatio');
	assert.equal(run(state, {type: 'end-filter', keep: false}).filter, '');
	assert.equal(run(state, {type: 'end-filter', keep: true}).filter, 'CODEX attestatio');

	// The count of sessions to delete must be typed exactly; anything else starts nothing.
	state = run(initialRetention(3), {type: 'ask-count'}, {type: 'type-count', text: '1'}, {type: 'type-count', text: 'x'}, {type: 'type-count', text: '2'});
	assert.deepEqual(state.execution, {phase: 'confirm', typed: '12', error: null}, 'only digits are typed');
	assert.equal(countConfirmed(state.execution, 12), true);
	assert.equal(countConfirmed(state.execution, 13), false);
	assert.equal(countConfirmed({phase: 'confirm', typed: '0', error: null}, 0), false, 'an empty plan is never executed');
	assert.equal(countConfirmed(state.execution, 12) && countConfirmed({phase: 'idle'}, 12), false);
	state = run(state, {type: 'count-mismatch', planned: 13});
	assert.deepEqual(state.execution, {phase: 'confirm', typed: '', error: 'typed 12; the plan deletes 13: type that number to go ahead'});
	assert.deepEqual(run(state, {type: 'cancel-count'}).execution, {phase: 'idle'});
	const item = {session_id: 'b', source: 'codex', action: 'compact', status: 'compacted'} as SweepItem;
	state = run(state, {type: 'start', total: 2}, {type: 'progress', done: 1, total: 2, item});
	assert.deepEqual(state.execution, {phase: 'running', done: 1, total: 2, last: item});
	assert.deepEqual(run(state, {type: 'ask-count'}).execution, state.execution, 'no second execution while one runs');
	const output = {items: [item], removed: 1} as SweepOutput;
	state = run(state, {type: 'finished', output});
	assert.deepEqual([state.view, state.execution.phase, state.generation], ['receipts', 'done', 1], 'the receipts show, and the plan is loaded again');
	assert.deepEqual([run(state, {type: 'cycle-view'}).view, run(state, {type: 'cycle-view'}, {type: 'cycle-view'}, {type: 'cycle-view'}, {type: 'cycle-view'}).view], ['summary', 'receipts']);
	assert.deepEqual(run(initialRetention(3), {type: 'start', total: 2}, {type: 'failed', error: 'plan changed'}).execution, {phase: 'failed', error: 'plan changed'});
});
