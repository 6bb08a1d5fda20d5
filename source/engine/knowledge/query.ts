import type {Deps} from '../deps.js';
import type {ExitCode} from '../../lib/errors.js';
import {edgesTouching, getNode, momentOf, nodesAt, type Moment, type NodeRow} from '../index/store.js';
import {countHeldPages, heldNodeIds, heldPageOf} from '../index/held-pages.js';
import {upkeepFacts} from '../index/upkeep-facts.js';
import {matchNodes} from '../index/node-text.js';
import {withIndex, type IndexHandle} from '../index/open.js';
import {nodeSha256} from '../evidence/node-hash.js';
import {nextOffset} from '../../lib/words.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {planQuery} from '../search/query-plan.js';
import {vocabularyOf} from '../../lib/sqlite.js';
import {isLocation} from '../graph/kinds.js';
import {resultState, stateReason} from '../search/result-state.js';
import {indexReasons} from './index-reasons.js';
import {lifecycleOf} from '../upkeep/lifecycle.js';
import {daysBetween, type MemoryRules} from '../upkeep/memory-types.js';
import {explainFactors, rankFactors, type RankFactors} from '../upkeep/ranking.js';
import {upkeepSettings} from '../upkeep/settings.js';
import {bookkeepingKinds} from '../upkeep/vocabulary.js';
import {nodeHistory} from './history.js';
import {scanLocalFiles} from './local-scan.js';
import {queryLimitMax, queryPageSize, type Hit, type QueryOutput} from './query-schema.js';


export type QueryInput = {
	readonly q: string;
	readonly view?: 'context' | 'hits' | 'evidence';
	readonly asOf?: string;
	readonly includeExpired?: boolean;
	/** Keep archived nodes (faded past their time to live, or marked by dream: they drop out of answers otherwise). */
	readonly includeArchived?: boolean;
	readonly limit?: number;
	readonly offset?: number;
	readonly localScan?: boolean;
};

const candidateCap = 500;
const rerankCap = 50;

/** A candidate by text alone: how well it matched (best 1) and how. */
type Matched = {id: string; relevance: number; match: string};
type Ranked = {id: string; score: number; why: string; factors: RankFactors};
/** One call's reads of nodes as of its moment (nodesAt). */
type NodeAt = (id: string) => NodeRow | undefined;

/** Prefix candidates re-ranked in memory with MiniSearch's fuzzy and prefix scoring (a small set by construction). */
async function rerank(db: IndexHandle['db'], q: string, ids: string[]): Promise<Matched[]> {
	const {default: MiniSearch} = await import('minisearch');
	const documents = ids.slice(0, rerankCap).map(id => {
		const node = getNode(db, id)!;
		return {id, label: node.label ?? '', text: JSON.stringify(node.payload)};
	});
	const search = new MiniSearch({fields: ['id', 'label', 'text'], storeFields: ['id']});
	search.addAll(documents);
	const results = search.search(q, {prefix: true, fuzzy: 0.2, combineWith: 'AND', boost: {label: 2, id: 2}});
	const top = results[0]?.score ?? 1;
	return results.map(result => ({id: String(result.id), relevance: result.score / top, match: 'prefix_or_fuzzy_match'}));
}

/** bm25 is negative-better: the best row is relevance 1, the others in proportion. */
function matchedFromFts(rows: Array<{id: string; rank: number}>): Matched[] {
	const best = rows[0]?.rank ?? -1;
	return rows.map(row => ({id: row.id, relevance: best === 0 ? 1 : row.rank / best, match: 'all_terms_match'}));
}

const rounded = (value: number) => Math.round(value * 1000) / 1000;

/**
 * Orders text matches by the fused score (upkeep/ranking.ts), as of the moment: the best scores
 * 0.95, so a literal id match (1.0, always first) stays apart. Archived nodes are counted and
 * left out unless asked for.
 */
function rankMatches(db: IndexHandle['db'], nodeAt: NodeAt, matched: readonly Matched[], moment: Moment, rules: MemoryRules, includeArchived: boolean): {ranked: Ranked[]; archived: number} {
	const facts = upkeepFacts(db, matched.map(item => item.id), moment, nodeAt);
	let archived = 0;
	const scored = matched.flatMap(item => {
		const node = nodeAt(item.id)!;
		const fact = facts.get(item.id)!;
		const ageDays = daysBetween(node.observed_utc, moment.asOf);
		const lifecycle = lifecycleOf({ageDays, rule: rules[node.memory_type], upserts: fact.upserts, evidenceEdges: fact.evidenceEdges, marked: fact.marked});
		if (lifecycle === 'archived' && !includeArchived) {
			archived++;
			return [];
		}

		const {factors, fused} = rankFactors({relevance: item.relevance, memoryType: node.memory_type, ageDays, liveEdges: fact.liveEdges, superseded: fact.superseded, lifecycle}, rules);
		return [{item, factors, fused}];
	});
	const literal = scored.filter(entry => entry.item.match === 'literal_match');
	const rest = scored.filter(entry => entry.item.match !== 'literal_match').sort((x, y) => y.fused - x.fused || (x.item.id < y.item.id ? -1 : 1));
	const best = rest[0]?.fused || 1;
	const ranked = [
		...literal.map(entry => ({id: entry.item.id, score: 1, why: explainFactors(entry.item.match, entry.factors), factors: entry.factors})),
		...rest.map(entry => ({id: entry.item.id, score: rounded((0.95 * entry.fused) / best), why: explainFactors(entry.item.match, entry.factors), factors: entry.factors})),
	];
	return {ranked, archived};
}

/** A node that can be a result at the moment: it exists then and is not engi's bookkeeping. */
function existsAt(nodeAt: NodeAt, id: string): boolean {
	const node = nodeAt(id);
	return node !== undefined && !(node.kind !== null && bookkeepingKinds.has(node.kind));
}

function contextRow(db: IndexHandle['db'], nodeAt: NodeAt, ranked: Ranked, moment: Moment) {
	const node = nodeAt(ranked.id)!;
	const edges = edgesTouching(db, ranked.id, moment);
	const kindOf = nodeAt;
	const projects = node.kind === 'Project'
		? [{id: node.id, label: node.label}]
		: edges.filter(edge => edge.from_id === node.id && edge.type === 'BELONGS_TO').flatMap(edge => {
				const project = kindOf(edge.to_id);
				return project?.kind === 'Project' ? [{id: project.id, label: project.label}] : [];
			});
	const decisions = edges.flatMap(edge => {
		const other = edge.from_id === node.id ? edge.to_id : edge.from_id;
		const otherNode = other === node.id ? undefined : kindOf(other);
		return otherNode?.kind === 'Decision' ? [{id: otherNode.id, label: otherNode.label, edge: edge.type}] : [];
	});
	const gaps: Array<{kind: 'no_project' | 'ambiguous_project' | 'dangling_link'; detail: string}> = [];
	if (node.kind !== 'Project' && projects.length === 0) {
		gaps.push({kind: 'no_project', detail: 'no live BELONGS_TO link to a project'});
	}

	const uniqueProjects = [...new Map(projects.map(project => [project.id, project])).values()];
	if (uniqueProjects.length > 1) {
		gaps.push({kind: 'ambiguous_project', detail: `linked to ${uniqueProjects.length} projects: ${uniqueProjects.map(project => project.id).join(', ')}`});
	}

	for (const edge of edges) {
		const other = edge.from_id === node.id ? edge.to_id : edge.from_id;
		if (!isLocation(other) && !kindOf(other)) {
			gaps.push({kind: 'dangling_link', detail: `${edge.from_id} -${edge.type}-> ${edge.to_id}: ${other} does not exist`});
		}
	}

	return {node_id: node.id, kind: node.kind, label: node.label, status: node.status, score: ranked.score, why: ranked.why, linked_projects: uniqueProjects, decisions, authority_gaps: gaps};
}

/**
 * `engi query`: finds nodes by id or by text (every meaningful word must match; Chinese works
 * without loading a segmenter), as of a moment, and shows them as hits, as context (projects,
 * decisions, authority gaps) or as evidence (node, hash, journal history), ranked by the fused
 * score of upkeep/ranking.ts. The answer carries a typed state so "nothing found" is never
 * confused with "could not look": while wiki sync holds a page in conflict quarantine, the node
 * it claims is left out and the answer is degraded; asking for that node by id is
 * `source_conflict` (unavailable, exit 2, when nothing else matches).
 */
export async function queryKnowledge(paths: KbPaths, given: QueryInput, deps: Deps): Promise<{output: QueryOutput; exitCode: ExitCode}> {
	const requested = given.limit ?? queryPageSize;
	const input = {
		q: given.q,
		view: given.view ?? 'context',
		asOf: given.asOf,
		includeExpired: Boolean(given.includeExpired),
		limit: Math.min(requested, queryLimitMax),
		truncated: requested > queryLimitMax,
		offset: given.offset ?? 0,
		localScan: Boolean(given.localScan),
		includeArchived: Boolean(given.includeArchived),
	};
	requireKnowledgeBase(paths);
	const {rules} = upkeepSettings(paths);
	const moment = momentOf(deps, input.asOf, input.includeExpired);
	const base = {q: input.q, as_of: moment.asOf, include_expired: input.includeExpired, include_archived: input.includeArchived, offset: input.offset, limit: input.limit, truncated: input.truncated};
	// Only an index that cannot be opened makes the answer "unavailable"; a failure past that is an error.
	let opened = false;
	try {
		return await withIndex(paths, deps, async index => {
			opened = true;
			const db = index.db;
			const nodeAt = nodesAt(db, moment);
			const reasons = indexReasons(paths, index);
			const held = heldNodeIds(db);
			const pages = countHeldPages(db);
			if (pages > 0) {
				reasons.push(stateReason('quarantined_pages', `${pages} wiki page(s) are held by conflict quarantine and were not searched (engi wiki sync lists them)`, {count: pages}));
			}

			const matched: Matched[] = [];
			const literal = input.q.trim();
			const conflicted = literal ? heldPageOf(db, literal) : undefined;
			if (conflicted) {
				reasons.push(stateReason('source_conflict', `${conflicted.path} is held by conflict quarantine (${conflicted.reason}: ${conflicted.detail}); repair it and run engi wiki sync`, {subject: literal}));
			} else if (literal && existsAt(nodeAt, literal)) {
				matched.push({id: literal, relevance: 1, match: 'literal_match'});
			}

			const plan = planQuery(input.q, vocabularyOf(db, 'node_fts'));
			if (plan) {
				let matches = matchedFromFts(matchNodes(db, plan.match, candidateCap));
				if (matches.length === 0 && matched.length === 0) {
					const prefixed = matchNodes(db, plan.prefixMatch, candidateCap).map(row => row.id);
					matches = prefixed.length > 0 ? await rerank(db, input.q, prefixed) : [];
				}

				for (const match of matches) {
					if (match.id !== literal && !held.has(match.id) && existsAt(nodeAt, match.id)) {
						matched.push(match);
					}
				}
			}

			const {ranked, archived} = rankMatches(db, nodeAt, matched, moment, rules, input.includeArchived);
			const page = ranked.slice(input.offset, input.offset + input.limit);
			const state = resultState(ranked.length, reasons, conflicted !== undefined && ranked.length === 0);
			const exitCode = state === 'unavailable' ? 2 : 0;
			const common = {...base, state, reasons, total: ranked.length, archived_hidden: archived, next_offset: nextOffset(input.offset, page.length, ranked.length), warnings: index.warnings} as const;
			const local = ranked.length === 0 && input.localScan && input.view !== 'evidence' ? scanLocalFiles(plan?.terms.map(term => term.text) ?? [], deps) : null;
			if (input.view === 'hits') {
				const hits: Hit[] = page.map(item => {
					const node = nodeAt(item.id)!;
					return {node_id: item.id, kind: node.kind, score: item.score, why: item.why, label: node.label, factors: item.factors};
				});
				return {output: {view: 'hits', ...common, hits, unindexed_local_candidates: local}, exitCode};
			}

			if (input.view === 'evidence') {
				const candidates = page.map(item => {
					const node = nodeAt(item.id)!;
					return {id: item.id, score: item.score, why: item.why, node: node.payload, node_sha256: nodeSha256(node.payload), history: nodeHistory(db, item.id, moment.isNow ? undefined : moment.asOf)};
				});
				return {output: {view: 'evidence', ...common, candidates}, exitCode};
			}

			const expand = ['engi', 'query', '--q', input.q, '--view', 'evidence', '--as-of', moment.asOf, '--offset', String(input.offset), '--limit', String(input.limit), ...(input.includeExpired ? ['--include-expired'] : []), ...(input.includeArchived ? ['--include-archived'] : [])];
			return {output: {view: 'context', ...common, rows: page.map(item => contextRow(db, nodeAt, item, moment)), expand, unindexed_local_candidates: local}, exitCode};
		});
	} catch (error) {
		if (opened) {
			throw error;
		}

		const reason = stateReason('index_unavailable', `the index could not be opened: ${error instanceof Error ? error.message : 'error'}`);
		const empty = {...base, state: 'unavailable' as const, reasons: [reason], total: 0, archived_hidden: 0, next_offset: null, warnings: []};
		const output: QueryOutput = input.view === 'evidence' ? {view: 'evidence', ...empty, candidates: []} : input.view === 'hits' ? {view: 'hits', ...empty, hits: [], unindexed_local_candidates: null} : {view: 'context', ...empty, rows: [], expand: [], unindexed_local_candidates: null};
		return {output, exitCode: 2};
	}
}
