import assert from 'node:assert/strict';
import test from 'node:test';
import fc from 'fast-check';
import {recordedProjects, type SessionFilter} from '../source/engine/catalog/list.js';
import {catalogMigrations} from '../source/engine/catalog/schema.js';
import type {CatalogRow} from '../source/engine/catalog/scan.js';
import {catalogStore, ensureListingIndexes} from '../source/engine/catalog/store.js';
import type {SessionSummary} from '../source/engine/catalog/summarize.js';
import {confidenceOf, reasonsFor} from '../source/engine/continuity/reasons.js';
import type {TailState} from '../source/engine/continuity/tail.js';
import {candidatesPerProject, checkpointFiles, checkpointLookup, collectCandidates} from '../source/engine/continuity/unfinished.js';
import {migrate, openDatabase, type Database} from '../source/lib/sqlite.js';
import {tempDir} from './helpers/temp.js';

const line = fc.nat({max: 10_000});
const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, {nil: null});
const tailArbitrary: fc.Arbitrary<TailState> = fc.record({
	bounded: fc.boolean(),
	last_line: line,
	last_activity: maybe(fc.constant('2026-11-20T09:00:00.000Z')),
	last_human: maybe(fc.record({line, text: fc.string(), timestamp: maybe(fc.constant('2026-11-20T09:00:00.000Z'))})),
	last_assistant: maybe(fc.record({line, timestamp: maybe(fc.constant('2026-11-20T09:00:00.000Z'))})),
	unanswered: maybe(fc.record({line})),
	pending: fc.array(fc.record({line, name: fc.string(), call_id: maybe(fc.string())}), {maxLength: 7}),
	failure: maybe(fc.record({line, name: maybe(fc.string()), exit_code: maybe(fc.integer({min: -1, max: 255})), preview: fc.string()})),
	interruption: maybe(fc.record({line, detail: fc.string()})),
	ends_with_reply: fc.boolean(),
});

const now = new Date('2026-11-20T10:00:00.000Z');
const root = '/stores/claude';
const filter: SessionFilter = {scope: [{source: 'claude', root}], since: '2026-11-01T00:00:00.000Z', includeSubagents: true};

function newCatalog(): Database {
	const db = openDatabase(':memory:');
	migrate(db, catalogMigrations);
	// What a refresh makes once it has written its rows.
	ensureListingIndexes(db);
	return db;
}

type Session = {id: string; parent: number | null; project: string | null; modified: string | null; mtimeMs: number; tail: TailState; archived?: boolean};

/** A catalog row as a scan saves it, with only what the judgement reads filled in. */
function rowOf(session: Session, sessions: readonly Session[]): CatalogRow {
	const parent = session.parent === null ? null : (sessions[session.parent]?.id ?? null);
	const summary = {id: session.id, parent_id: parent === session.id ? null : parent, project: session.project, started: session.modified, modified: session.modified, title: `request ${session.id}`, conversational: true} as SessionSummary;
	return {
		key: `${root}/${session.id}.jsonl`,
		source: 'claude',
		root,
		path: `${root}/${session.id}.jsonl`,
		paths: [`${root}/${session.id}.jsonl`],
		variant: null,
		format: 'jsonl',
		fingerprint: 'f',
		size: 1,
		mtime_ms: session.mtimeMs,
		archived: session.archived ?? false,
		summary,
		tail: session.tail,
		records: 1,
		skipped: 0,
		scanned_bytes: 1,
		next_line: 2,
		check_hash: null,
		error: null,
	};
}

test('the catalog stores with each tail the judgement reasonsFor and confidenceOf give the tail it stores (no checkpoint, not written right now)', () => {
	const db = newCatalog();
	const store = catalogStore(db);
	const stored = db.prepare('SELECT tail, tail_open, tail_confidence FROM units WHERE key = ?').raw();
	const seen = new Set<string>();
	fc.assert(
		fc.property(tailArbitrary, tail => {
			const row = rowOf({id: 'a', parent: null, project: '/p', modified: '2026-11-20T09:00:00.000Z', mtimeMs: 0, tail}, []);
			store.save(row, []);
			const [json, open, confidence] = stored.get(row.key) as [string, number, string];
			const reasons = reasonsFor(JSON.parse(json) as TailState, undefined, false);
			seen.add(confidence);
			assert.equal(confidence, confidenceOf(reasons));
			assert.equal(open, reasons.length > 0 ? 1 : 0);
		}),
		{seed: 19, numRuns: 2000},
	);
	db.close();
	assert.deepEqual([...seen].sort(), ['high', 'low', 'medium'], 'the runs reach every confidence');
});

const minute = 60_000;
const sessionArbitrary = fc.record({
	parent: maybe(fc.nat({max: 9})),
	project: fc.constantFrom('/p/a', '/p/b', null),
	// ISO times near now (some written right now), other spellings Date.parse reads or not, none.
	modified: fc.oneof(
		fc.integer({min: -10, max: 3}).map(minutes => new Date(now.getTime() + minutes * minute).toISOString()),
		fc.constantFrom('2026-11-20 09:59:30', '2026-11-20T09:59:30+00:00', '2026-11-19', 'zz', '', null),
	),
	mtimeOffset: fc.integer({min: -10 * minute, max: minute}),
	tail: tailArbitrary,
	// Put away in its tool now and then: never a candidate, whatever its tail or time.
	archived: fc.boolean(),
});

test('SQL picks the candidates and counts the high ones as judging every session in JS does', t => {
	const cwd = tempDir(t);
	let judgedRightNow = 0;
	fc.assert(
		fc.property(fc.array(sessionArbitrary, {minLength: 1, maxLength: 10}), drawn => {
			const sessions: Session[] = drawn.map((session, index) => ({id: `s${index}`, parent: session.parent, project: session.project, modified: session.modified, mtimeMs: now.getTime() + session.mtimeOffset, tail: session.tail, archived: session.archived}));
			const db = newCatalog();
			const store = catalogStore(db);
			for (const session of sessions) {
				store.save(rowOf(session, sessions), []);
			}

			const inJs = collectCandidates(db, filter, now, checkpointLookup(cwd)).candidates;
			judgedRightNow += inJs.filter(candidate => candidate.active_now).length;
			const archived = new Set(sessions.filter(session => session.archived).map(session => session.id));
			assert.ok(inJs.every(candidate => !archived.has(candidate.id)), 'no archived session is a candidate');
			const bySql = candidatesPerProject(db, filter, now, cwd, {latestIn: checkpointFiles(), recorded: recordedProjects(db)}, null);
			assert.deepEqual(
				bySql.newest.map(entry => entry.id),
				inJs.map(candidate => candidate.id),
				'the same candidates, in the same order',
			);
			const counts = new Map<string, {total: number; high: number}>();
			for (const candidate of inJs) {
				const count = counts.get(candidate.project) ?? {total: 0, high: 0};
				counts.set(candidate.project, {total: count.total + 1, high: count.high + (candidate.confidence === 'high' ? 1 : 0)});
			}

			assert.deepEqual(new Map(bySql.projects.map(count => [count.project ?? 'unknown', {total: count.total, high: count.high}])), counts);
			db.close();
		}),
		{seed: 19, numRuns: 400},
	);
	assert.ok(judgedRightNow > 0, 'the runs reach sessions written right now');
});
