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

/**
 * Splits each item's cost among the facts that could bring it in, so that the sum over facts of
 * each one's cheapest option (at its parts) is as large a lower bound as a few rounds find. It
 * starts from equal parts, then repeatedly moves part of each item towards the facts whose
 * cheapest option uses it (a fact that would not pick it owes it nothing); every split keeps an
 * item's parts adding up to its cost, so every one gives a valid bound, and the best is kept.
 */
function splitCosts(facts: ReadonlyArray<readonly SolverOption[]>, itemCost: readonly number[]): Float64Array[][] {
	// Per fact: its distinct items, each option's items as positions among them, and their parts.
	const shapes = facts.map(options => {
		const items = [...new Set(options.flatMap(option => option.items))];
		const position = new Map(items.map((item, index) => [item, index]));
		return {items, positions: options.map(option => Int32Array.from(option.items, item => position.get(item)!))};
	});
	const holders = new Int32Array(itemCost.length);
	for (const {items} of shapes) {
		for (const item of items) {
			holders[item]!++;
		}
	}

	const parts = shapes.map(({items}) => Float64Array.from(items, item => itemCost[item]! / holders[item]!));
	// Indexed loops and marks rather than iterators and sets: this runs 25 rounds at every depth
	// of the search, and adds up in exactly the same order either way.
	const cheapest = (fact: number): {option: number; value: number} => {
		const {positions} = shapes[fact]!;
		const options = facts[fact]!;
		const factParts = parts[fact]!;
		let option = 0;
		let value = Number.POSITIVE_INFINITY;
		for (let index = 0; index < positions.length; index++) {
			const list = positions[index]!;
			let sum = options[index]!.cost;
			for (let position = 0; position < list.length; position++) {
				sum += factParts[list[position]!]!;
			}

			if (sum < value) {
				option = index;
				value = sum;
			}
		}

		return {option, value};
	};

	let best = parts.map(list => list.slice());
	let bestBound = Number.NEGATIVE_INFINITY;
	const using = new Int32Array(itemCost.length);
	// Per fact, which of its items its cheapest option uses this round.
	const chosen = shapes.map(({items}) => new Uint8Array(items.length));
	for (let round = 0; round <= 24; round++) {
		const picks = facts.map((_, fact) => cheapest(fact));
		const bound = picks.reduce((sum, pick) => sum + pick.value, 0);
		if (bound > bestBound) {
			best = parts.map(list => list.slice());
			bestBound = bound;
		}

		using.fill(0);
		for (let fact = 0; fact < shapes.length; fact++) {
			const {items, positions} = shapes[fact]!;
			const marks = chosen[fact]!;
			marks.fill(0);
			for (const position of positions[picks[fact]!.option]!) {
				if (marks[position] === 0) {
					marks[position] = 1;
					using[items[position]!]!++;
				}
			}
		}

		for (let fact = 0; fact < shapes.length; fact++) {
			const {items} = shapes[fact]!;
			const factParts = parts[fact]!;
			const marks = chosen[fact]!;
			for (let position = 0; position < items.length; position++) {
				const item = items[position]!;
				// Items no cheapest option uses keep their split.
				const target = using[item] === 0 ? factParts[position]! : marks[position] === 1 ? itemCost[item]! / using[item]! : 0;
				factParts[position] = (factParts[position]! + target) / 2;
			}
		}
	}

	return shapes.map(({positions}, fact) => positions.map(list => Float64Array.from(list, position => best[fact]![position]!)));
}

export function solvePacket(input: SolverInput): SolverResult {
	const {itemCost, separator} = input;
	const factCount = input.facts.length;
	const options = input.facts.map(list => undominated(list));
	const cheapest = options.map(list => Math.min(...list.map(option => option.cost)));
	const alone = options.map(list => Math.min(...list.map(option => option.items.reduce((sum, item) => sum + itemCost[item]!, option.cost))));
	// Forced facts first, then the dearest: their choices move the cost most, so the bound bites early.
	const order = options.map((_, index) => index).sort((a, b) => Number(options[b]!.length === 1) - Number(options[a]!.length === 1) || alone[b]! - alone[a]! || a - b);

	// splitsAt(depth)[k][o][j]: the part of the cost of item j of option o of the k-th open fact
	// charged to that fact, at a depth (worked out when the search first gets there). The parts of
	// an item add up to its cost over the facts still open, so summing each open fact's cheapest
	// option at these parts never counts an item more than once: a lower bound on what the open
	// facts still add, whatever they choose.
	const splits: Float64Array[][][] = [];
	const splitsAt = (depth: number) => (splits[depth] ??= splitCosts(order.slice(depth).map(fact => options[fact]!), itemCost));
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
			const parts = splitsAt(depth)[next - depth]!;
			const list = options[order[next]!]!;
			for (let index = 0; index < list.length; index++) {
				const option = list[index]!;
				const optionParts = parts[index]!;
				let withShares = option.cost;
				let whole = option.cost;
				for (let position = 0; position < option.items.length; position++) {
					const item = option.items[position]!;
					if (used[item] === 0) {
						withShares += optionParts[position]!;
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

	const added = (option: SolverOption) => option.items.reduce((sum, item) => sum + (used[item] === 0 ? itemCost[item]! : 0), option.cost);
	const cheapestNow = (fact: number) => options[fact]!.reduce((best, option) => (added(option) < added(best) ? option : best));

	/**
	 * A good packet before the search: each fact's cheapest option given those before it, then
	 * each fact in turn switched to its cheapest option given all the others, until no switch
	 * helps. The search only has to beat it, so it prunes from the first state on.
	 */
	const localOptimum = () => {
		const picked = order.map(fact => {
			const option = cheapestNow(fact);
			take(option, 1);
			return option;
		});
		for (let changed = true, rounds = 0; changed && rounds < 100; rounds++) {
			changed = false;
			for (const [index, fact] of order.entries()) {
				take(picked[index]!, -1);
				const option = cheapestNow(fact);
				if (added(option) < added(picked[index]!)) {
					picked[index] = option;
					changed = true;
				}

				take(picked[index]!, 1);
			}
		}

		const exact = input.base + cost - (edgesUsed > 0 ? separator : 0);
		if (exact < best) {
			best = exact;
			bestChoice = [];
			for (const [index, fact] of order.entries()) {
				bestChoice[fact] = picked[index]!.alternative;
			}
		}

		for (const option of picked) {
			take(option, -1);
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
		const children = options[fact]!.map(option => ({option, add: added(option)})).sort(cheaperFirst);
		for (const {option} of children) {
			take(option, 1);
			chosen[fact] = option.alternative;
			visit(depth + 1);
			take(option, -1);
		}

		chosen[fact] = -1;
	};

	localOptimum();
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
