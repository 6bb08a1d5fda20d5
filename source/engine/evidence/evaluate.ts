import type {Deps} from '../deps.js';
import {EngiError, type ExitCode} from '../../lib/errors.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {exactTokenCounter} from '../tokens.js';
import {loadContract, type Contract, type LoadedContract} from './contract.js';
import {createJudge, type Closure, type Judge} from './eligibility.js';
import type {Evaluation, EvaluationResolution, RejectedAlternative} from './evaluation-schema.js';
import {claimBoundary, entryLine, evidenceEntry, factEntry, fixedLines, packetLayout, pathEntry, renderPacket, type Packet} from './packet.js';
import {readSnapshot, type Snapshot} from './snapshot.js';
import {solvePacket, type SolverOption} from './solver.js';

export const costScope = 'o200k_base tokens of the whole packet as rendered (one entry per line, shared nodes once); packet_tokens is that exact count';

const sourceRequestAction = 'inspect current evidence, then update source pin only if accepted';

/** The parts of every answer to a contract that say what it read and how fresh that was. */
export function contractAnswerBase(loaded: LoadedContract, snapshot: Snapshot, rejections: ReadonlyArray<{reason: string; source: string | null}>, boundary = claimBoundary) {
	const requested = new Set(rejections.filter(rejection => rejection.source !== null && (rejection.reason === 'source_pin_missing' || rejection.reason === 'source_changed')).map(rejection => rejection.source!));
	return {
		contract_sha256: loaded.sha256,
		journal_sha256: snapshot.journalSha256,
		question: loaded.contract.question,
		claim_boundary: boundary,
		permissions: {reads: ['journal'], writes: []},
		freshness: {
			as_of: loaded.contract.as_of,
			min_observed_utc: loaded.contract.min_observed_utc,
			events_considered: snapshot.freshness.eventsConsidered,
			events_after_as_of: snapshot.freshness.eventsAfterAsOf,
			newest_observed_utc: snapshot.freshness.newestObservedUtc,
		},
		source_requests: [...requested].sort().map(node => ({node, action: sourceRequestAction})),
	};
}

export type Admitted = {readonly alternative: number; readonly roots: string[]; readonly closure: Closure};

/** Every alternative of every fact closed over its dependencies: admitted (per fact), or rejected with its reason. */
export function admitAlternatives(contract: Contract, judge: Judge): {rejected: RejectedAlternative[]; admitted: Admitted[][]} {
	const rejected: RejectedAlternative[] = [];
	const admitted = contract.facts.map(fact =>
		fact.alternatives.flatMap((ids, alternative) => {
			const roots = [...new Set(ids)];
			const result = judge.close(roots);
			if (result.rejection) {
				rejected.push({fact: fact.id, alternative, ...result.rejection});
				return [];
			}

			return [{alternative, roots, closure: result.closure}];
		}),
	);
	return {rejected, admitted};
}

/**
 * `engi query --q … --evidence-contract <file>`: the smallest packet of recorded facts that
 * covers the contract's question, or why there is none. Reads the journal once (strictly, as of
 * the contract's moment) and writes nothing anywhere.
 */
export async function evaluateContract(paths: KbPaths, input: {file: string; q: string}, deps: Deps): Promise<{output: Evaluation; exitCode: ExitCode}> {
	requireKnowledgeBase(paths);
	const loaded = loadContract(input.file, deps.cwd, input.q, 'evaluate');
	const {contract} = loaded;
	const snapshot = readSnapshot(paths, contract.as_of);
	const judge = createJudge(contract, snapshot);
	const {rejected, admitted} = admitAlternatives(contract, judge);
	const missing = contract.facts.filter((_, index) => admitted[index]!.length === 0).map(fact => fact.id);
	const answer = (resolution: EvaluationResolution, found?: {packet: Packet; tokens: number; chosen: number[]}, states = 0): {output: Evaluation; exitCode: ExitCode} => ({
		output: {
			scope: 'contract_evidence_closure',
			...contractAnswerBase(loaded, snapshot, rejected),
			resolution,
			missing_facts: missing,
			rejected_alternatives: rejected,
			chosen_alternatives: found ? contract.facts.map((fact, index) => ({fact: fact.id, alternative: found.chosen[index]!})) : [],
			packet: found?.packet ?? null,
			packet_tokens: found?.tokens ?? null,
			budget_tokens: contract.budget_tokens,
			cost_scope: costScope,
			search: {states, limit: contract.search_limit},
		},
		exitCode: resolution === 'covered' ? 0 : 2,
	});

	if (rejected.some(rejection => rejection.reason === 'unresolved_conflict')) {
		return answer('conflict');
	}

	if (missing.length > 0) {
		return answer('blocked');
	}

	const count = await exactTokenCounter();
	const problem = packetProblem(contract, snapshot, judge, admitted, count);
	const result = solvePacket(problem.input);
	if (result.status === 'search_limit') {
		return answer('search_limit_unknown', undefined, result.states);
	}

	if (result.status === 'over_budget') {
		return answer('budget_insufficient', undefined, result.states);
	}

	const packet = problem.packet(result.alternatives);
	// The solver added up line counts; the packet as rendered is counted again, whole.
	const tokens = count(renderPacket(packet));
	if (tokens !== result.tokens) {
		throw new EngiError('internal_error', `the packet counts ${tokens} tokens whole but ${result.tokens} by its lines`, {hint: 'this is a bug in engi; the evaluation was not used'});
	}

	return answer('covered', {packet, tokens, chosen: result.alternatives}, result.states);
}

/**
 * The solver's view of the admitted alternatives: every distinct node and dependency edge as an
 * item with the token cost of its line (plus the separator line that follows it), every fact's
 * alternative as an option with the cost of its fact line, and a builder for the packet of a
 * choice. Each line is counted once, however many alternatives share it.
 */
export function packetProblem(contract: Contract, snapshot: Snapshot, judge: Judge, admitted: Admitted[][], count: (text: string) => number) {
	const head = {question: contract.question, as_of: contract.as_of, scope_receipt: contract.scope_receipt, journal_sha256: snapshot.journalSha256};
	const lineCost = (line: string) => count(`${line}\n`);
	const separator = lineCost(packetLayout.separator);
	const itemIndex = new Map<string, number>();
	const itemCost: number[] = [];
	const itemIsEdge: boolean[] = [];
	const itemFor = (key: string, line: () => string, isEdge: boolean): number => {
		let index = itemIndex.get(key);
		if (index === undefined) {
			index = itemCost.length;
			itemIndex.set(key, index);
			itemCost.push(lineCost(line()) + separator);
			itemIsEdge.push(isEdge);
		}

		return index;
	};

	const facts: SolverOption[][] = admitted.map((options, factIndex) =>
		options.map(({alternative, roots, closure}) => {
			const items = new Set<number>();
			for (const id of closure.nodes) {
				items.add(itemFor(`node\u0000${id}`, () => entryLine(evidenceEntry(snapshot, id, judge.hashOf(id))), false));
			}

			for (const edge of closure.edges) {
				items.add(itemFor(`edge\u0000${edge.line}`, () => entryLine(pathEntry(edge)), true));
			}

			return {alternative, cost: lineCost(entryLine(factEntry(contract.facts[factIndex]!, roots))) + separator, items: [...items]};
		}),
	);

	// Facts and evidence are never empty, so each sheds the separator after its last entry.
	const base = fixedLines(head).reduce((sum, line) => sum + lineCost(line), 0) - 2 * separator;
	const packet = (chosen: number[]): Packet => {
		const picked = chosen.map((alternative, factIndex) => admitted[factIndex]!.find(option => option.alternative === alternative)!);
		const nodes = new Set(picked.flatMap(option => option.closure.nodes));
		const edges = new Map(picked.flatMap(option => option.closure.edges.map(edge => [edge.line, edge] as const)));
		return {
			...head,
			facts: picked.map((option, factIndex) => factEntry(contract.facts[factIndex]!, option.roots)),
			evidence: [...nodes].sort(compareText).map(id => evidenceEntry(snapshot, id, judge.hashOf(id))),
			dependency_paths: [...edges.values()].sort((a, b) => compareText(a.from, b.from) || compareText(a.to, b.to) || a.line - b.line).map(edge => pathEntry(edge)),
			claim_boundary: claimBoundary,
		};
	};

	return {input: {base, separator, itemCost, itemIsEdge, facts, budget: contract.budget_tokens, searchLimit: contract.search_limit}, packet};
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
