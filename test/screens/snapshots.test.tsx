/** @jsxRuntime automatic */
/** @jsxImportSource react */
import test from 'node:test';
import assert from 'node:assert/strict';
import {renderToString} from 'ink';
import type {ProjectBrief} from '../../source/engine/knowledge/project.js';
import {CheckpointFormView, CheckpointsView} from '../../source/screens/checkpoints/view.js';
import {formReducer, initialForm} from '../../source/screens/checkpoints/form-state.js';
import {Frame} from '../../source/screens/components/frame.js';
import {HelpOverlay} from '../../source/screens/components/help-overlay.js';
import {DegradedNote, EmptyState, ErrorState, Loading} from '../../source/screens/components/states.js';
import {hintsFor} from '../../source/screens/keys.js';
import {PickupView} from '../../source/screens/pickup/view.js';
import {ProjectView} from '../../source/screens/project/view.js';
import {noKnowledgeBase} from '../../source/screens/project/index.js';
import {detailRows, openDetail, QueryView, resultRows} from '../../source/screens/query/view.js';
import {initialQuery, paneOf, queryReducer} from '../../source/screens/query/state.js';
import {queueHeight} from '../../source/screens/review/index.js';
import {initialReview, reviewReducer} from '../../source/screens/review/state.js';
import {CitedTurnsView, ReviewView} from '../../source/screens/review/view.js';
import {StandupView, standupCounts, standupRows} from '../../source/screens/standup/view.js';
import {initialList} from '../../source/screens/hooks/use-list-state.js';
import {initialUnfinished, unfinishedReducer, visibleCandidates} from '../../source/screens/unfinished/state.js';
import {buildFilterIndex} from '../../source/screens/unfinished/filter-index.js';
import {UnfinishedView} from '../../source/screens/unfinished/view.js';
import {initialRetention, retentionReducer, visibleSessions, type RetentionAction, type RetentionState} from '../../source/screens/retention/state.js';
import {listHeight, RetentionView} from '../../source/screens/retention/view.js';
import {join} from 'node:path';
import type {ReactElement} from 'react';
import {assertGolden} from '../helpers/golden.js';
import {contractWorld, distilledCandidate, fillReviewQueue, fixedNow, retentionNow, retentionWorld, screenWorld} from '../helpers/screens.js';
import {hostileSessionId, writeHostileSession} from '../helpers/hostile-session.js';

const width = 80;
const height = 24;

/** One frame at 80 columns without colour, compared with snapshots/screens/<name>.txt. */
function frame(name: string, element: ReactElement): void {
	const text = renderToString(element, {columns: width});
	assert.doesNotMatch(text, /\u001B\[/, 'no ANSI escapes with FORCE_COLOR=0');
	for (const line of text.split('\n')) {
		assert.ok(line.length <= width, `${name}: a line is wider than ${width} columns: ${JSON.stringify(line)}`);
	}

	// A brief's token count covers its transcript path, which holds the random temp directory's
	// name (the estimate depends on its letters' case), so the count is the one unstable number.
	assertGolden(`screens/${name}.txt`, text.replaceAll(/\b\d+ (of \d+ )?tokens/g, '<n> $1tokens') + '\n');
}

test('frames of every screen in each of its states, at 80 columns', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	const body = height - 3;
	const standup = await world.client.standup();
	const rows = standupRows(standup);
	frame('standup', (
		<Frame screen="standup" width={width} height={height} counts={standupCounts(standup)} hints={hintsFor('standup', width)}>
			<StandupView rows={rows} list={{...initialList(body), cursor: 1}} width={width} now={fixedNow} />
		</Frame>
	));
	frame('standup-empty', <StandupView rows={[]} list={initialList(body)} width={width} now={fixedNow} />);

	const unfinished = await world.client.unfinished();
	let state = initialUnfinished(body - 2);
	const all = visibleCandidates(unfinished.candidates, state, null);
	state = unfinishedReducer(state, {type: 'list', action: {type: 'move', by: 2, count: all.length}});
	// The Unfinished screen's golden frames keep the names they had as the triage screen.
	frame('triage', (
		<Frame screen="unfinished" width={width} height={height} counts={`${unfinished.total} unfinished`} hints={hintsFor('unfinished', width)}>
			<UnfinishedView rows={all} total={unfinished.total} state={state} width={width} now={fixedNow} />
		</Frame>
	));
	const filtering = unfinishedReducer(unfinishedReducer(unfinishedReducer(initialUnfinished(body - 2), {type: 'start-filter'}), {type: 'type', text: 'check'}), {type: 'type', text: 'out'});
	const filtered = visibleCandidates(unfinished.candidates, filtering, buildFilterIndex(unfinished.candidates)(filtering.filter));
	assert.ok(filtered.length > 0 && filtered.length < all.length);
	frame('triage-filtered', <UnfinishedView rows={filtered} total={unfinished.total} state={filtering} width={width} now={fixedNow} />);
	const confirming = unfinishedReducer(state, {type: 'ask', confirm: {id: all[2]!.id, source: all[2]!.source, status: 'completed'}});
	frame('triage-confirm', <UnfinishedView rows={all} total={unfinished.total} state={confirming} width={width} now={fixedNow} />);
	frame('triage-empty', <UnfinishedView rows={[]} total={0} state={initialUnfinished(body - 2)} width={width} now={fixedNow} />);

	const brief = await world.client.brief('11111111-1111-4111-8111-111111111111', 'claude');
	frame('pickup', (
		<Frame screen="pickup" width={width} height={height} counts={`pickup · ${brief.tokens} tokens`} hints={hintsFor('pickup', width)}>
			<PickupView brief={brief} width={width} height={body} offset={0} />
		</Frame>
	));
	frame('pickup-scrolled', <PickupView brief={brief} width={width} height={body} offset={12} />);

	await world.client.recordCheckpoint({session: '11111111-1111-4111-8111-111111111111', source: 'claude', objective: 'stream the parser', status: 'blocked', blockers: ['CRLF fixture missing'], next_action: 'add a CRLF fixture'});
	const checkpoints = await world.client.checkpoints();
	frame('checkpoints', <CheckpointsView checkpoints={checkpoints.checkpoints} project="/repo" projects={1} list={initialList(body - 2)} width={width} now={fixedNow} message={null} />);
	frame('checkpoints-empty', <CheckpointsView checkpoints={[]} project="/repo" projects={1} list={initialList(body - 2)} width={width} now={fixedNow} message={null} />);
	frame('checkpoints-all-projects', <CheckpointsView checkpoints={checkpoints.checkpoints} project={null} projects={checkpoints.files.length} list={initialList(body - 2)} width={width} now={fixedNow} message={null} />);
	let form = initialForm('11111111-1111-4111-8111-111111111111', 'claude', checkpoints.checkpoints[0]);
	frame('checkpoint-form', <CheckpointFormView form={form} width={width} />);
	form = formReducer(formReducer(initialForm('22222222-2222-4222-8222-222222222222', 'claude'), {type: 'next'}), {type: 'cycle-status', by: 1});
	frame('checkpoint-form-error', <CheckpointFormView form={formReducer(form, {type: 'failed', error: 'blockers: a blocked checkpoint needs at least one blocker'})} width={width} />);

	const project = (await world.client.project({offset: 0, limit: 10})) as ProjectBrief;
	frame('project', <ProjectView brief={project} width={width} height={body} />);
	frame('project-no-knowledge-base', <EmptyState title={noKnowledgeBase.title} hint={noKnowledgeBase.hint} />);
	const result = await world.client.query('checkout');
	assert.equal(result.view, 'context');
	const resultList = initialList(resultRows(body));
	frame('query', <QueryView text="checkout" editing={false} pane="results" result={result.view === 'context' ? result : null} list={resultList} detail={null} width={width} />);
	frame('query-typing', <QueryView text="flak" editing pane="results" result={null} list={resultList} detail={null} width={width} />);
	frame('state-loading', <Loading label="unfinished sessions" />);
	frame('state-error', <ErrorState message="cannot read /home/dev/.codex/sessions (EACCES)" hint="check the directory's permissions" />);
	frame('state-degraded', <DegradedNote reasons={['catalog_unwritable: /home/dev/.cache/engi/catalog.sqlite could not be used (EROFS); this call read every session from scratch']} width={width} />);
	frame('help', <HelpOverlay width={width} height={body} offset={0} scope="unfinished" />);
	frame('help-scrolled', <HelpOverlay width={width} height={body} offset={20} scope="unfinished" />);

	// Last, so no other frame counts it: a transcript full of terminal escapes and fence breakers.
	writeHostileSession(world.env['HOME']!, '/work/hostile', fixedNow);
	frame('pickup-hostile', <PickupView brief={await world.client.brief(hostileSessionId, 'claude')} width={width} height={body} offset={0} />);
});

test('frames of the Review screen: the queue with a distilled candidate\'s claims, a harvested one, the question, the cited turns, an empty queue', {timeout: 120_000}, async t => {
	const world = await screenWorld(t);
	fillReviewQueue(world.env, world.kb, world.project);
	const body = height - 3;
	const queue = await world.client.candidates();
	const rows = queue.candidates;
	const at = rows.findIndex(row => row.ref === distilledCandidate);
	assert.ok(at > 0, 'the distilled candidate is in the pending queue, not first');
	const listHeight = queueHeight(body);
	const state = reviewReducer(initialReview(listHeight), {type: 'list', action: {type: 'select', index: at, count: rows.length}});
	const detail = await world.client.candidate(distilledCandidate);
	frame('review', (
		<Frame screen="review" width={width} height={height} counts={`${queue.counts.pending} pending · ${queue.counts.promoted} promoted · ${queue.counts.rejected} rejected`} hints={hintsFor('review', width)}>
			<ReviewView rows={rows} counts={queue.counts} state={state} detail={detail} width={width} height={body} />
		</Frame>
	));
	frame('review-harvested', <ReviewView rows={rows} counts={queue.counts} state={initialReview(listHeight)} detail={await world.client.candidate(rows[0]!.ref)} width={width} height={body} />);
	frame('review-confirm', <ReviewView rows={rows} counts={queue.counts} state={reviewReducer(state, {type: 'ask', confirm: {action: 'promote', ref: distilledCandidate}})} detail={detail} width={width} height={body} />);
	assert.ok(detail.cited_turns.length > 0);
	const turns = await world.client.citedTurns(distilledCandidate, detail.cited_turns, detail.note!.max_turns!);
	frame('review-turns', <CitedTurnsView evidence={turns} offset={0} width={width} height={body - 1} />);
	frame('review-empty', <ReviewView rows={[]} counts={{unreadable: 0}} state={initialReview(listHeight)} detail={null} width={width} height={body} />);
});

test('frames of the Query screen\'s evidence view and of an evidence contract\'s answer, at 80 columns', {timeout: 60_000}, async t => {
	const world = await contractWorld(t);
	const body = height - 3;
	const result = await world.client.query('stream');
	assert.equal(result.view, 'context');
	const context = result.view === 'context' ? result : undefined;
	const evidence = await world.client.queryEvidence('stream', context!.as_of);
	const candidate = evidence.view === 'evidence' ? evidence.candidates.find(entry => entry.id === 'decision:stream') : undefined;
	assert.ok(candidate, 'the evidence view has the result');
	let state = queryReducer(initialQuery('stream', {list: resultRows(body), detail: detailRows(body)}), {type: 'loaded', result: context!});
	state = queryReducer(state, {type: 'evidence', candidate});
	const view = (name: string, shown: typeof state) => frame(name, <QueryView text={shown.text} editing={false} pane={paneOf(shown)} result={shown.result} list={shown.list} detail={{...openDetail(shown)!, list: shown.detail}} width={width} />);
	view('query-evidence', state);
	state = queryReducer(queryReducer(state, {type: 'back'}), {type: 'contract', answer: await world.client.evaluateContract(world.contract, world.question)});
	view('query-contract', state);
});

test('frames of the Retention screen: summary, blockers, sessions filtered, the typed count, a sweep running and its receipts', {timeout: 120_000}, async t => {
	const world = await retentionWorld(t);
	const body = height - 3;
	// The temp directory's name is the one unstable text (a warning and the compact copies name it).
	const stable = <T,>(value: T): T => JSON.parse(JSON.stringify(value).replaceAll(join(world.kb, '..'), '/tmp/world')) as T;
	const plan = stable(await world.client.retentionPlan());
	const sweep = stable(await world.client.retentionSweep());
	const view = (state: RetentionState, output = sweep) => <RetentionView plan={plan} sweep={output} state={state} rows={visibleSessions(plan.sessions ?? [], state)} width={width} now={retentionNow} />;
	const step = (state: RetentionState, ...actions: RetentionAction[]) => actions.reduce(retentionReducer, state);
	const start = initialRetention(listHeight(body));
	frame('retention', (
		<Frame screen="retention" width={width} height={height} counts={`${plan.total} sessions · ${plan.eligible} eligible`} hints={hintsFor('retention', width)}>
			{view(start)}
		</Frame>
	));
	frame('retention-blockers', view(step(start, {type: 'cycle-view'}, {type: 'list', action: {type: 'move', by: 1, count: 5}})));
	const filtered = step(start, {type: 'show-code', code: 'unfinished_candidate'}, {type: 'start-filter'}, {type: 'type', text: 'claude'});
	assert.ok(visibleSessions(plan.sessions!, filtered).length > 0);
	frame('retention-sessions-filtered', view(filtered));
	frame('retention-count', view(step(start, {type: 'ask-count'}, {type: 'type-count', text: '3'}, {type: 'count-mismatch', planned: sweep.planned}, {type: 'type-count', text: '2'})));
	const executed = stable(await world.client.retentionSweep({plan: sweep.plan_sha256, onProgress: async () => undefined}));
	assert.equal(executed.removed, sweep.planned);
	frame('retention-running', view(step(start, {type: 'start', total: executed.items!.length}, {type: 'progress', done: 11, total: executed.items!.length, item: executed.items![10]!})));
	frame('retention-receipts', view(step(start, {type: 'start', total: executed.items!.length}, {type: 'finished', output: executed}, {type: 'list', action: {type: 'move', by: 1, count: 30}})));
});
