import type {Database} from '../../lib/sqlite.js';
import {allNodes, saveUpkeep} from '../index/upkeep-state.js';
import {upkeepFacts} from '../index/upkeep-facts.js';
import {edgesTouching, type Moment} from '../index/store.js';
import type {EventDraft} from '../journal/append.js';
import {lifecycleOf, type Lifecycle} from './lifecycle.js';
import {daysBetween, decayFactor, type MemoryRules} from './memory-types.js';
import {archiveMarkId, archiveMarkKind, bookkeepingKinds, coOccursEdge, dreamProvenance, entityKind, mentionsEdge} from './vocabulary.js';

/*
 * Dream's deterministic steps (Inkstone's 1–7 but wiki sync, which has its own module). Each
 * reads the index as of the run's moment and either saves derived state (decay, lifecycle,
 * trivia, in node_upkeep) or returns the events that become truth (entities, archive marks,
 * co-occurrence edges), with provenance `engi dream`; the caller appends them.
 */

export type StepCounts = Record<string, number>;

type Node = ReturnType<typeof allNodes>[number];

/** Nodes dream looks at: not its own bookkeeping, not a page that is gone. */
function memories(db: Database): Node[] {
	return allNodes(db).filter(node => !(node.kind !== null && bookkeepingKinds.has(node.kind)) && node.payload['missing'] !== true);
}

/** Step 1: each node's decay as of the moment. */
export function recalculateDecay(db: Database, moment: Moment, rules: MemoryRules, save: boolean): StepCounts {
	const rows = memories(db).map(node => ({id: node.id, memory_type: node.memory_type, as_of: moment.asOf, decay: decayFactor(daysBetween(node.observed_utc, moment.asOf), rules[node.memory_type].halfLifeDays)}));
	if (save) {
		saveUpkeep(db, rows);
	}

	return {nodes: rows.length, faded_below_half: rows.filter(row => row.decay < 0.5).length};
}

function lifecycles(db: Database, moment: Moment, rules: MemoryRules): Array<{node: Node; lifecycle: Lifecycle}> {
	const nodes = memories(db);
	const facts = upkeepFacts(db, nodes.map(node => node.id), moment);
	return nodes.map(node => {
		const fact = facts.get(node.id)!;
		return {node, lifecycle: lifecycleOf({ageDays: daysBetween(node.observed_utc, moment.asOf), rule: rules[node.memory_type], upserts: fact.upserts, evidenceEdges: fact.evidenceEdges, marked: fact.marked})};
	});
}

/** Step 2: each node's lifecycle as of the moment, counted by stage. */
export function transitionLifecycles(db: Database, moment: Moment, rules: MemoryRules, save: boolean): StepCounts {
	const rows = lifecycles(db, moment, rules);
	if (save) {
		saveUpkeep(db, rows.map(({node, lifecycle}) => ({id: node.id, memory_type: node.memory_type, as_of: moment.asOf, lifecycle})));
	}

	const counts: StepCounts = {active: 0, validated: 0, stale: 0, archived: 0};
	for (const {lifecycle} of rows) {
		counts[lifecycle]!++;
	}

	return counts;
}

/** The text of a node its steps read: label, title and body. */
export const textOf = (payload: Record<string, unknown>) => ['label', 'title', 'body'].map(key => payload[key]).filter((value): value is string => typeof value === 'string').join('\n');

/** A `[[name]]` as an entity id: lowercased, runs of anything but letters and digits (any script) made one `-`. */
export function entityId(name: string): string {
	return `entity:${name.normalize('NFKC').toLowerCase().replaceAll(/[^\p{L}\p{N}]+/gu, '-').replaceAll(/^-|-$/g, '')}`;
}

function linkedNames(text: string): string[] {
	return [...new Set([...text.matchAll(/\[\[([^\]|#\n]+)(?:[#|][^\]\n]*)?\]\]/g)].map(match => match[1]!.trim()).filter(name => entityId(name) !== 'entity:'))];
}

/** Step 3: every `[[name]]` in a node's text becomes an Entity node the node MENTIONS. */
export function extractEntities(db: Database): {counts: StepCounts; drafts: EventDraft[]} {
	const entities = new Map<string, string>();
	const drafts: EventDraft[] = [];
	for (const node of memories(db)) {
		if (node.kind === entityKind) {
			continue;
		}

		for (const name of linkedNames(textOf(node.payload))) {
			const id = entityId(name);
			if (!entities.has(id)) {
				entities.set(id, name);
			}

			drafts.push({op: 'edge.assert', payload: {from: node.id, type: mentionsEdge, to: id, provenance: dreamProvenance}});
		}
	}

	const nodes: EventDraft[] = [...entities].map(([id, label]) => ({op: 'node.upsert', payload: {id, kind: entityKind, label, provenance: dreamProvenance}}));
	return {counts: {entities: entities.size, mentions: drafts.length}, drafts: [...nodes, ...drafts]};
}

/** Words that say nothing on their own: a note made only of them is trivia. */
const trivialWords = new Set(['ok', 'okay', 'thanks', 'thank', 'you', 'yes', 'no', 'done', 'noted', 'lgtm', 'sure', 'fine', 'good', 'great', 'test', 'todo', 'tbd', 'wip', 'misc', 'note']);

/** Trivia: a memory whose text has fewer than three meaningful words (Han text: fewer than four characters). */
export function isTrivia(text: string): boolean {
	const han = text.match(/\p{Script=Han}/gu)?.length ?? 0;
	const words = (text.match(/[\p{L}\p{N}]{2,}/gu) ?? []).filter(word => !/\p{Script=Han}/u.test(word) && !trivialWords.has(word.toLowerCase()));
	return han < 4 && words.length < 3;
}

/** Step 4: flags trivia among memories (records such as projects and tasks are never trivia). */
export function flagTrivia(db: Database, moment: Moment, save: boolean): StepCounts {
	const rows = memories(db).map(node => ({id: node.id, memory_type: node.memory_type, as_of: moment.asOf, trivia: node.memory_type !== 'record' && isTrivia(textOf(node.payload))}));
	if (save) {
		saveUpkeep(db, rows);
	}

	return {nodes: rows.length, trivia: rows.filter(row => row.trivia).length};
}

/** Step 6: a mark for each node that has expired and faded below the floor and has none yet. */
export function archiveExpired(db: Database, moment: Moment, rules: MemoryRules): {counts: StepCounts; drafts: EventDraft[]} {
	const drafts: EventDraft[] = [];
	for (const {node, lifecycle} of lifecycles(db, moment, rules)) {
		if (lifecycle !== 'archived' || node.kind === archiveMarkKind) {
			continue;
		}

		drafts.push({op: 'node.upsert', payload: {id: archiveMarkId(node.id), kind: archiveMarkKind, target: node.id, target_observed_utc: node.observed_utc, memory_type: 'record', reason: 'past its time to live and faded below 0.05', provenance: dreamProvenance}});
	}

	return {counts: {archived: drafts.length}, drafts};
}

/** Step 7: entities mentioned by one node together are joined by CO_OCCURS_WITH (once per pair, the lesser id first). */
export function coOccurrenceEdges(db: Database, moment: Moment): {counts: StepCounts; drafts: EventDraft[]} {
	const pairs = new Set<string>();
	for (const node of memories(db)) {
		const mentioned = [...new Set(edgesTouching(db, node.id, moment).filter(edge => edge.from_id === node.id && edge.type === mentionsEdge).map(edge => edge.to_id))].sort();
		for (let first = 0; first < mentioned.length; first++) {
			for (let second = first + 1; second < mentioned.length; second++) {
				pairs.add(`${mentioned[first]}\u0000${mentioned[second]}`);
			}
		}
	}

	const drafts: EventDraft[] = [...pairs].sort().map(pair => {
		const [from, to] = pair.split('\u0000') as [string, string];
		return {op: 'edge.assert', payload: {from, type: coOccursEdge, to, provenance: dreamProvenance}};
	});
	return {counts: {pairs: drafts.length}, drafts};
}
