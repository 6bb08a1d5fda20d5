/**
 * The packet solver: one admitted alternative per fact, so that the whole packet's token count
 * is the smallest there is. The count of a packet is
 *
 *   base + Σ over facts of its option's cost + Σ over the distinct items (nodes, dependency
 *   edges) of the chosen options of the item's cost − separator if any edge is in the packet
 *
 * (packet.ts renders every entry on its own line, which makes each line's count independent of
 * its neighbours; an option's and an item's cost include the separator line after it). Shared
 * items count once, which is what makes this a covering problem rather than one minimum per
 * fact. It is solved exactly by depth-first branch and bound: options are tried cheapest first,
 * and a partial choice is abandoned as soon as a lower bound on every completion of it cannot
 * beat the best packet found (or the budget).
 */
export type SolverOption = {
	/** Index of the alternative in the contract's fact. */
	readonly alternative: number;
	/** The fact's own line with its separator. */
	readonly cost: number;
	/** Items the alternative brings in (indexes into `itemCost`), without repeats. */
	readonly items: readonly number[];
};

export type SolverInput = {
	readonly base: number;
	readonly separator: number;
	readonly itemCost: readonly number[];
	readonly itemIsEdge: readonly boolean[];
	/** Per fact (in contract order), its admitted alternatives. */
	readonly facts: ReadonlyArray<readonly SolverOption[]>;
	readonly budget: number;
	readonly searchLimit: number;
};

export type SolverResult =
	| {readonly status: 'optimal'; readonly tokens: number; readonly alternatives: number[]; readonly states: number}
	| {readonly status: 'over_budget'; readonly states: number}
	| {readonly status: 'search_limit'; readonly states: number};

class SearchLimit extends Error {}

const cheaperFirst = (a: {add: number; option: SolverOption}, b: {add: number; option: SolverOption}) => a.add - b.add || a.option.alternative - b.option.alternative;

/**
 * Drops options another option of the same fact beats outright (no dearer, and its items a
 * subset): swapping one in never makes a packet larger, so the minimum is among the rest.
 */
function undominated(options: readonly SolverOption[]): SolverOption[] {
	const sets = options.map(option => new Set(option.items));
	return options.filter((option, index) =>
		!options.some((other, otherIndex) => {
			if (otherIndex === index || other.cost > option.cost || other.items.length > option.items.length || !other.items.every(item => sets[index]!.has(item))) {
				return false;
			}

			// Equal options: the first one stays.
			return other.cost < option.cost || other.items.length < option.items.length || otherIndex < index;
		}),
	);
}

export function solvePacket(input: SolverInput): SolverResult {
	const {itemCost, separator} = input;
	const factCount = input.facts.length;
	const options = input.facts.map(list => undominated(list));
	const cheapest = options.map(list => Math.min(...list.map(option => option.cost)));
	const alone = options.map(list => Math.min(...list.map(option => option.items.reduce((sum, item) => sum + itemCost[item]!, option.cost))));
	// Forced and narrow facts first, then the dearest: the incumbent is good early and the bound bites.
	const order = options.map((_, index) => index).sort((a, b) => options[a]!.length - options[b]!.length || alone[b]! - alone[a]! || a - b);

	// share[depth][item]: the item's cost split among the facts still open at that depth that could
	// bring it in. Summing, per open fact, its cheapest option at these shares never counts an item
	// more than once in total, so the sum is a lower bound on what the open facts still add.
	const share: Float64Array[] = Array.from({length: factCount});
	const holders = new Int32Array(itemCost.length);
	for (let depth = factCount - 1; depth >= 0; depth--) {
		for (const item of new Set(options[order[depth]!]!.flatMap(option => option.items))) {
			holders[item] = holders[item]! + 1;
		}

		share[depth] = Float64Array.from(itemCost, (cost, item) => (holders[item]! > 0 ? cost / holders[item]! : 0));
	}

	const cheapestFrom = new Float64Array(factCount + 1);
	for (let depth = factCount - 1; depth >= 0; depth--) {
		cheapestFrom[depth] = cheapestFrom[depth + 1]! + cheapest[order[depth]!]!;
	}

	const used = new Int32Array(itemCost.length);
	const chosen: number[] = Array.from({length: factCount}, () => -1);
	let cost = 0;
	let edgesUsed = 0;
	let best = input.budget + 1;
	let bestChoice: number[] | undefined;
	let states = 0;

	/** A lower bound on what the facts from `depth` on still add (their lines and new items). */
	const rest = (depth: number): number => {
		let shared = 0;
		let heaviest = 0;
		for (let next = depth; next < factCount; next++) {
			let sharedMin = Number.POSITIVE_INFINITY;
			let fullMin = Number.POSITIVE_INFINITY;
			for (const option of options[order[next]!]!) {
				let withShares = option.cost;
				let whole = option.cost;
				for (const item of option.items) {
					if (used[item] === 0) {
						withShares += share[depth]![item]!;
						whole += itemCost[item]!;
					}
				}

				sharedMin = Math.min(sharedMin, withShares);
				fullMin = Math.min(fullMin, whole);
			}

			shared += sharedMin;
			heaviest = Math.max(heaviest, fullMin - cheapest[order[next]!]!);
		}

		// Or: one open fact pays for all of its new items, the others at least their own lines.
		return Math.max(shared, heaviest + cheapestFrom[depth]!);
	};

	const take = (option: SolverOption, sign: 1 | -1) => {
		cost += sign * option.cost;
		for (const item of option.items) {
			const holding = used[item]! + sign;
			used[item] = holding;
			// The item enters the packet with its first holder and leaves with its last.
			if (holding === (sign === 1 ? 1 : 0)) {
				cost += sign * itemCost[item]!;
				if (input.itemIsEdge[item]) {
					edgesUsed += sign;
				}
			}
		}
	};

	const visit = (depth: number): void => {
		if (++states > input.searchLimit) {
			throw new SearchLimit();
		}

		if (depth === factCount) {
			const exact = input.base + cost - (edgesUsed > 0 ? separator : 0);
			if (exact < best) {
				best = exact;
				bestChoice = [...chosen];
			}

			return;
		}

		// The separator after the last edge may not be there: the bound leaves it out either way.
		const bound = input.base - separator + cost + rest(depth);
		// Counts are whole tokens: a packet beats `best` only at best - 1 or less.
		if (Math.ceil(bound - 1e-6) >= best) {
			return;
		}

		const fact = order[depth]!;
		const children = options[fact]!.map(option => ({option, add: option.items.reduce((sum, item) => sum + (used[item] === 0 ? itemCost[item]! : 0), option.cost)})).sort(cheaperFirst);
		for (const {option} of children) {
			take(option, 1);
			chosen[fact] = option.alternative;
			visit(depth + 1);
			take(option, -1);
		}

		chosen[fact] = -1;
	};

	try {
		visit(0);
	} catch (error) {
		if (error instanceof SearchLimit) {
			return {status: 'search_limit', states: input.searchLimit};
		}

		throw error;
	}

	return bestChoice ? {status: 'optimal', tokens: best, alternatives: bestChoice, states} : {status: 'over_budget', states};
}
