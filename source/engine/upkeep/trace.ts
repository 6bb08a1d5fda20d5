import type {Deps} from '../deps.js';
import type {ExitCode} from '../../lib/errors.js';
import {EngiError} from '../../lib/errors.js';
import {vocabularyOf} from '../../lib/sqlite.js';
import {viewReasons} from '../catalog/sessions.js';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import {countHeldPages, heldNodeIds} from '../index/held-pages.js';
import {matchNodes} from '../index/node-text.js';
import {withIndex, type IndexHandle} from '../index/open.js';
import {getNode, momentOf, type Moment} from '../index/store.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {indexReasons} from '../knowledge/index-reasons.js';
import {planQuery} from '../search/query-plan.js';
import {resultState, stateReason, type StateReason} from '../search/result-state.js';
import {TraceBudget, traceDefaults, type TraceBounds} from './trace-budget.js';
import type {TraceOutput} from './trace-schema.js';
import {searchReached} from './trace-transcripts.js';
import {walkProvenance} from './trace-walk.js';
import {bookkeepingKinds} from './vocabulary.js';

export type TraceInput = StoreSelection &
	Partial<TraceBounds> & {
		readonly q: string;
		/** Start from this node alone instead of the nodes the clue matches (the clue is still what the transcripts are searched for). */
		readonly seed?: string;
		readonly asOf?: string;
	};

/** A node the clue can start from at the moment: it exists then, is not held by conflict quarantine and is not engi's bookkeeping. */
function seedable(db: IndexHandle['db'], id: string, moment: Moment, held: ReadonlySet<string>): boolean {
	const node = getNode(db, id, moment);
	return node !== undefined && !held.has(id) && !(node.kind !== null && bookkeepingKinds.has(node.kind));
}

/** Seeds a clue can have at most; visiting each is charged to --max-nodes. */
const seedCap = 50;

/** The clue's seeds, best first: a node whose id it is, then nodes whose text matches every meaningful word (as `engi query` matches them). */
function seedsOf(db: IndexHandle['db'], q: string, moment: Moment, held: ReadonlySet<string>, cap: number): string[] {
	const literal = q.trim();
	const seeds = literal !== '' && seedable(db, literal, moment, held) ? [literal] : [];
	const plan = planQuery(q, vocabularyOf(db, 'node_fts'));
	for (const row of plan ? matchNodes(db, plan.match, cap) : []) {
		if (row.id !== literal && seedable(db, row.id, moment, held)) {
			seeds.push(row.id);
		}
	}

	return seeds.slice(0, cap);
}

const outputBounds = (bounds: TraceBounds) => ({sources: bounds.maxSources, bytes: bounds.maxBytes, records: bounds.maxRecords, nodes: bounds.maxNodes, depth: bounds.maxDepth});

/**
 * `engi trace --q <clue>`: from the knowledge the clue matches, along typed provenance hops
 * (`DERIVED_FROM`, `DISCUSSED_IN`, `DELIVERED` reversed, and the session ids evidence files name
 * as `METADATA_SESSION_REF`), to the transcripts that knowledge came from, and then the clue in
 * those transcripts only. Every step is charged to the bounds before it runs; a bound that
 * stops the trace short makes the answer degraded (`bound_reached`), as a held page or an
 * unreadable store does. An index that cannot open makes it unavailable (exit 2).
 */
export async function traceClue(paths: KbPaths, input: TraceInput, deps: Deps): Promise<{output: TraceOutput; exitCode: ExitCode}> {
	requireKnowledgeBase(paths);
	const bounds: TraceBounds = {
		maxSources: input.maxSources ?? traceDefaults.maxSources,
		maxBytes: input.maxBytes ?? traceDefaults.maxBytes,
		maxRecords: input.maxRecords ?? traceDefaults.maxRecords,
		maxNodes: input.maxNodes ?? traceDefaults.maxNodes,
		maxDepth: input.maxDepth ?? traceDefaults.maxDepth,
	};
	const moment = momentOf(deps, input.asOf);
	const budget = new TraceBudget(bounds);
	const base = {q: input.q, as_of: moment.asOf, bounds: outputBounds(bounds)};
	let opened = false;
	try {
		return await withIndex(paths, deps, async index => {
			opened = true;
			const reasons: StateReason[] = indexReasons(paths, index);
			const pages = countHeldPages(index.db);
			if (pages > 0) {
				reasons.push(stateReason('quarantined_pages', `${pages} wiki page(s) are held by conflict quarantine and were not searched (engi wiki sync lists them)`, {count: pages}));
			}

			const held = heldNodeIds(index.db);
			if (input.seed !== undefined && !seedable(index.db, input.seed, moment, held)) {
				throw new EngiError('seed_not_found', `no node ${input.seed} to start from as of ${moment.asOf}${held.has(input.seed) ? ' (its page is held by conflict quarantine)' : ''}`, {hint: 'engi query --q <words> --view hits lists node ids'});
			}

			const seeds = input.seed === undefined ? seedsOf(index.db, input.q, moment, held, seedCap) : [input.seed];
			const targets = walkProvenance(index.db, paths, seeds, moment, budget);
			const seedRows = seeds.map(id => {
				const node = getNode(index.db, id, moment)!;
				return {node_id: id, kind: node.kind, label: node.label};
			});
			let found: Awaited<ReturnType<typeof searchReached>> = {transcripts: [], results: [], reasons: []};
			if (targets.length > 0) {
				try {
					found = await withCatalogView({source: input.source, sourceRoot: input.sourceRoot, allProjects: true, includeSubagents: true}, deps, async view => {
						const searched = await searchReached(view, input.q, targets, budget);
						return {...searched, reasons: [...viewReasons(view, {searching: false}), ...searched.reasons]};
					});
				} catch (error) {
					if (error instanceof EngiError) {
						throw error;
					}

					reasons.push(stateReason('catalog_unavailable', `the session catalog could not be opened (${error instanceof Error ? error.message : 'error'}): ${targets.length} reached transcript(s) were not searched`, {count: targets.length}));
				}
			}

			const allReasons = [...reasons, ...found.reasons, ...budget.reasons];
			const output: TraceOutput = {
				...base,
				state: resultState(found.results.length, allReasons),
				reasons: allReasons,
				spent: {...budget.spent},
				seeds: seedRows,
				transcripts: found.transcripts,
				results: found.results,
				warnings: index.warnings,
			};
			return {output, exitCode: 0};
		});
	} catch (error) {
		if (opened) {
			throw error;
		}

		const reason = stateReason('index_unavailable', `the index could not be opened: ${error instanceof Error ? error.message : 'error'}`);
		return {output: {...base, state: 'unavailable', reasons: [reason], spent: {...budget.spent}, seeds: [], transcripts: [], results: [], warnings: []}, exitCode: 2};
	}
}
