import {appendFileSync, existsSync, mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {loadContract} from '../../source/engine/evidence/contract.js';
import {createJudge} from '../../source/engine/evidence/eligibility.js';
import {admitAlternatives, packetProblem} from '../../source/engine/evidence/evaluate.js';
import {nodeSha256} from '../../source/engine/evidence/node-hash.js';
import {readSnapshot} from '../../source/engine/evidence/snapshot.js';
import {solvePacket} from '../../source/engine/evidence/solver.js';
import {prepareEvents, serializeEvent, type EventDraft} from '../../source/engine/journal/append.js';
import {kbPaths} from '../../source/engine/kb/paths.js';
import {exactTokenCounter} from '../../source/engine/tokens.js';
import {generateJournal} from '../generate-journal.js';
import {cli, measure, median, type Row} from '../lib/measure.js';
import {seededRandom, sentence} from '../lib/random.js';

const evidenceNodes = 600;
const asOf = '2026-12-01T00:00:00Z';

/**
 * A knowledge base for contracts: a generated journal of `events` events, then evidence an agent
 * would cite: decisions with provenance and bodies of 10–40 words, and DEPENDS_ON edges among
 * them (so alternatives bring in dependencies, and share them).
 */
function evidenceCorpus(corpus: string, events: number): string {
	const root = join(corpus, `kb-evidence-${events}`);
	if (!existsSync(join(root, '.engi', 'journal.jsonl'))) {
		mkdirSync(root, {recursive: true});
		generateJournal(root, events);
		const random = seededRandom(16);
		const drafts: EventDraft[] = [];
		for (let index = 0; index < evidenceNodes; index++) {
			drafts.push({op: 'node.upsert', payload: {id: `evidence:e${index}`, kind: 'Decision', label: sentence(random, 6), body: sentence(random, random.int(10, 40)), provenance: `conversation:bench:${index % 37}`}});
		}

		for (let index = 0; index < evidenceNodes / 2; index++) {
			drafts.push({op: 'edge.assert', payload: {from: `evidence:e${random.int(0, evidenceNodes - 1)}`, type: 'DEPENDS_ON', to: `evidence:e${random.int(0, evidenceNodes - 1)}`, provenance: 'bench'}});
		}

		appendFileSync(join(root, '.engi', 'journal.jsonl'), drafts.map(draft => serializeEvent(prepareEvents([draft], new Date('2026-11-01T00:00:00Z'))[0]!)).join(''));
	}

	return root;
}

/**
 * A contract of `facts` facts × `alternatives` alternatives of 1 to `ids` evidence ids, every one
 * pinned. `wholeScope` puts every evidence node in scope (an agent that scoped by hand); without
 * it the scope is what the alternatives name and what they depend on, as a query would find it.
 */
function writeContract(root: string, name: string, shape: {facts: number; alternatives: number; ids: number; wholeScope: boolean}): string {
	const random = seededRandom(shape.facts * 100 + shape.alternatives);
	const everything = Array.from({length: evidenceNodes}, (_, index) => `evidence:e${index}`);
	const snapshot = readSnapshot(kbPaths(root), asOf);
	const facts = Array.from({length: shape.facts}, (_, fact) => ({
		id: `fact-${fact}`,
		alternatives: Array.from({length: shape.alternatives}, () => Array.from({length: random.int(1, shape.ids)}, () => random.pick(everything))),
	}));
	const named = new Set(facts.flatMap(fact => fact.alternatives.flat()));
	for (const id of named) {
		for (const edge of snapshot.dependsOn.get(id) ?? []) {
			named.add(edge.to);
		}
	}

	const scope = shape.wholeScope ? everything : [...named];
	const contract = {
		version: 1,
		question: 'why?',
		scope_receipt: shape.wholeScope ? 'bench: every evidence node' : 'bench: the nodes the alternatives name and depend on',
		scope_nodes: scope,
		as_of: asOf,
		min_observed_utc: '2025-01-01T00:00:00Z',
		sources: Object.fromEntries(scope.map(id => [id, {node_sha256: nodeSha256(snapshot.nodes.get(id)!)}])),
		facts,
		budget_tokens: 1_000_000,
		max_hops: 4,
		search_limit: 100_000,
	};
	const file = join(root, `${name}.json`);
	writeFileSync(file, JSON.stringify(contract));
	return file;
}

function timed<T>(runs: number, work: () => T): {ms: number; result: T} {
	const times: number[] = [];
	let result: T | undefined;
	for (let run = 0; run < runs; run++) {
		const started = process.hrtime.bigint();
		result = work();
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
	}

	return {ms: median(times), result: result!};
}

/** Issue 16's figures: a 16 × 16 contract over a 100k-event journal (end to end, then its snapshot and its solver alone), and typical 4 × 4 contracts. */
export async function evidenceSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const rows: Row[] = [];
	const large = evidenceCorpus(corpus, 100_000);
	const wide = writeContract(large, 'contract-16x16', {facts: 16, alternatives: 16, ids: 8, wholeScope: true});
	const evaluate = (root: string, file: string) => ['node', cli, 'query', '--q', 'why?', '--evidence-contract', file, '--root', root, '--format', 'json'];
	rows.push(measure('evidence', 'contract 16 facts × 16 alternatives × ≤ 8 ids (100k events)', evaluate(large, wide), env, {runs: 5, target: '≤ 2 s, ≤ 256 MB'}));

	// In-process, the parts on their own (medians of 5).
	const paths = kbPaths(large);
	const snapshot = timed(5, () => readSnapshot(paths, asOf));
	rows.push({suite: 'evidence', name: 'journal snapshot alone (100k events, in process)', runs: 5, medianMs: snapshot.ms, baselineMs: Number.NaN, rssMb: 0, note: `${snapshot.result.freshness.eventsConsidered} events replayed`});
	const {contract} = loadContract(wide, large, 'why?', 'evaluate');
	const judge = createJudge(contract, snapshot.result);
	const {admitted} = admitAlternatives(contract, judge);
	const count = await exactTokenCounter();
	const problem = timed(1, () => packetProblem(contract, snapshot.result, judge, admitted, count));
	rows.push({suite: 'evidence', name: 'closure and line counts, 16 × 16 (in process, tokenizer warm)', runs: 1, medianMs: problem.ms, baselineMs: Number.NaN, rssMb: 0, note: `${problem.result.input.itemCost.length} distinct lines counted`});
	const solved = timed(5, () => solvePacket(problem.result.input));
	rows.push({suite: 'evidence', name: 'solver alone, 16 × 16 (in process)', runs: 5, medianMs: solved.ms, baselineMs: Number.NaN, rssMb: 0, note: `${solved.result.status}, ${solved.result.states} search states`});

	for (const events of [10_000, 100_000]) {
		const root = events === 100_000 ? large : evidenceCorpus(corpus, events);
		const typical = writeContract(root, 'contract-4x4', {facts: 4, alternatives: 4, ids: 3, wholeScope: false});
		rows.push(measure('evidence', `contract 4 facts × 4 alternatives (${events / 1000}k events)`, evaluate(root, typical), env, {target: events === 10_000 ? '≤ 3× node -e 0' : undefined}));
	}

	return rows;
}
