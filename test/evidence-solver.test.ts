/**
 * The solver's packet is the smallest there is: on hundreds of random small contracts (seeded;
 * fast-check is not a dependency, so the generator is bench/lib/random.ts's mulberry32), the
 * packet it returns counts exactly as many o200k tokens as the smallest packet found by trying
 * every choice of one admitted alternative per fact, each rendered whole and counted by
 * js-tiktoken's own encoder.
 */
import assert from 'node:assert/strict';
import {join} from 'node:path';
import test from 'node:test';
import {seededRandom, sentence, chineseSentence} from '../bench/lib/random.js';
import {createJudge} from '../source/engine/evidence/eligibility.js';
import {admitAlternatives, evaluateContract, packetProblem} from '../source/engine/evidence/evaluate.js';
import {loadContract} from '../source/engine/evidence/contract.js';
import {renderPacket} from '../source/engine/evidence/packet.js';
import {solvePacket, type SolverOption} from '../source/engine/evidence/solver.js';
import {readSnapshot} from '../source/engine/evidence/snapshot.js';
import {exactTokenCounter} from '../source/engine/tokens.js';
import {contract, edge, node, pinsOf, referenceTokens, testDeps, writeJson, writeKb, type TimedEvent} from './helpers/evidence.js';
import {tempDir} from './helpers/temp.js';

type Random = ReturnType<typeof seededRandom>;

function text(random: Random): string {
	const roll = random.next();
	if (roll < 0.15) {
		return chineseSentence(random, random.int(1, 6));
	}

	if (roll < 0.25) {
		return `${sentence(random, 2)} ${'z'.repeat(random.int(100, 160))}`; // A run past the 128-character cut.
	}

	return sentence(random, random.int(0, 14));
}

/** A small graph: nodes with texts of varied make-up, some updated twice, and DEPENDS_ON edges (cycles allowed). */
function randomJournal(random: Random, count: number): {events: TimedEvent[]; ids: string[]} {
	const ids = Array.from({length: count}, (_, index) => `n:${index}`);
	const events: TimedEvent[] = ids.map(id => node(id, '2026-02-01T00:00:00Z', {label: text(random), ...(random.next() < 0.4 ? {body: text(random)} : {})}));
	for (const id of ids) {
		if (random.next() < 0.2) {
			events.push(node(id, '2026-03-01T00:00:00Z', {status: text(random)}));
		}
	}

	for (let index = random.int(0, count); index > 0; index--) {
		events.push(edge(random.pick(ids), 'DEPENDS_ON', random.pick(ids), '2026-03-02T00:00:00Z'));
	}

	return {events, ids};
}

test('on hundreds of random contracts the packet\'s tokens equal the brute-force minimum over every choice', {timeout: 600_000}, async t => {
	const count = await exactTokenCounter();
	const random = seededRandom(2026);
	const base = tempDir(t);
	let covered = 0;
	let overBudget = 0;
	let shared = 0;
	for (let round = 0; round < 300; round++) {
		const root = join(base, `kb-${round}`);
		const {events, ids} = randomJournal(random, random.int(3, 8));
		const paths = writeKb(root, events);
		const asOf = '2026-06-01T00:00:00Z';
		const facts = Array.from({length: random.int(1, 4)}, (_, index) => ({
			id: `f${index}`,
			...(random.next() < 0.3 ? {description: text(random)} : {}),
			alternatives: Array.from({length: random.int(1, 3)}, () => Array.from({length: random.int(1, 3)}, () => random.pick(ids))),
		}));
		const fields = {scope_nodes: ids, sources: pinsOf(paths, asOf, ids), facts, as_of: asOf, max_hops: 8, budget_tokens: random.next() < 0.2 ? random.int(200, 900) : 100_000};
		const file = writeJson(join(root, 'contract.json'), contract(fields));
		const {output} = await evaluateContract(paths, {file, q: 'why?'}, testDeps(root));

		// The oracle: every choice of admitted alternatives, each packet rendered whole and counted by js-tiktoken.
		const {contract: parsed} = loadContract(file, root, 'why?', 'evaluate');
		const snapshot = readSnapshot(paths, asOf);
		const judge = createJudge(parsed, snapshot);
		const {admitted} = admitAlternatives(parsed, judge);
		const problem = packetProblem(parsed, snapshot, judge, admitted, count);
		let minimum = Number.POSITIVE_INFINITY;
		const choose = (index: number, chosen: number[]) => {
			if (index === admitted.length) {
				minimum = Math.min(minimum, referenceTokens(renderPacket(problem.packet(chosen))));
				return;
			}

			for (const option of admitted[index]!) {
				choose(index + 1, [...chosen, option.alternative]);
			}
		};

		choose(0, []);
		const label = `round ${round}: ${JSON.stringify(facts)}`;
		if (minimum <= fields.budget_tokens) {
			assert.equal(output.resolution, 'covered', label);
			assert.equal(output.packet_tokens, minimum, label);
			assert.equal(referenceTokens(renderPacket(output.packet!)), minimum, `${label}: the packet as returned counts the minimum`);
			covered++;
			const roots = output.packet!.facts.flatMap(fact => fact.roots);
			shared += new Set(roots).size < roots.length || output.packet!.dependency_paths.length > 0 ? 1 : 0;
		} else {
			assert.equal(output.resolution, 'budget_insufficient', `${label}: the minimum ${minimum} is over the budget ${fields.budget_tokens}`);
			assert.equal(output.packet, null);
			overBudget++;
		}
	}

	// The generator must exercise what it is for: covered packets, sharing, and budgets too small.
	assert.ok(covered >= 200, `${covered} covered`);
	assert.ok(shared >= 50, `${shared} packets with shared nodes or dependencies`);
	assert.ok(overBudget >= 10, `${overBudget} over budget`);
});

test('the branch and bound finds the brute-force minimum on thousands of random covering problems with heavy sharing', () => {
	const random = seededRandom(7);
	let pruned = 0;
	for (let round = 0; round < 4000; round++) {
		const items = random.int(2, 12);
		const itemCost = Array.from({length: items}, () => random.int(3, 40));
		const itemIsEdge = Array.from({length: items}, () => random.next() < 0.3);
		const facts = Array.from({length: random.int(1, 6)}, () =>
			Array.from({length: random.int(1, 4)}, (_, alternative) => ({alternative, cost: random.int(2, 9), items: [...new Set(Array.from({length: random.int(1, 4)}, () => random.int(0, items - 1)))]})),
		);
		const input = {base: 50, separator: 2, itemCost, itemIsEdge, facts, budget: random.next() < 0.2 ? random.int(60, 120) : 10_000, searchLimit: 100_000};
		let minimum = Number.POSITIVE_INFINITY;
		const choose = (index: number, chosen: SolverOption[]) => {
			if (index === facts.length) {
				const used = new Set(chosen.flatMap(option => option.items));
				const edges = [...used].some(item => itemIsEdge[item]);
				minimum = Math.min(minimum, input.base + chosen.reduce((sum, option) => sum + option.cost, 0) + [...used].reduce((sum, item) => sum + itemCost[item]!, 0) - (edges ? input.separator : 0));
				return;
			}

			for (const option of facts[index]!) {
				choose(index + 1, [...chosen, option]);
			}
		};

		choose(0, []);
		const result = solvePacket(input);
		const label = `round ${round}: ${JSON.stringify(input)}`;
		if (minimum <= input.budget) {
			assert.equal(result.status, 'optimal', label);
			assert.equal(result.status === 'optimal' && result.tokens, minimum, label);
			const picked = result.status === 'optimal' ? result.alternatives.map((alternative, index) => facts[index]!.find(option => option.alternative === alternative)!) : [];
			const used = new Set(picked.flatMap(option => option.items));
			assert.equal(input.base + picked.reduce((sum, option) => sum + option.cost, 0) + [...used].reduce((sum, item) => sum + itemCost[item]!, 0) - ([...used].some(item => itemIsEdge[item]) ? input.separator : 0), minimum, `${label}: the choice costs what it claims`);
			pruned += result.status === 'optimal' && result.states < facts.reduce((product, options) => product * options.length, 1) ? 1 : 0;
		} else {
			assert.equal(result.status, 'over_budget', label);
		}
	}

	assert.ok(pruned > 1000, `the bound pruned in only ${pruned} rounds`);
});

test('the search stops at search_limit states and says so', () => {
	const facts = Array.from({length: 6}, () => [0, 1].map(alternative => ({alternative, cost: 5, items: [alternative]})));
	const input = {base: 10, separator: 1, itemCost: [7, 7], itemIsEdge: [false, false], facts, budget: 10_000, searchLimit: 5};
	assert.deepEqual(solvePacket(input), {status: 'search_limit', states: 5});
	assert.equal(solvePacket({...input, searchLimit: 100}).status, 'optimal');
});
