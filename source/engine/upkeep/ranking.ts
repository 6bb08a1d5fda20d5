import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {plural} from '../../lib/words.js';
import {lifecycles, type Lifecycle} from './lifecycle.js';
import {decayFactor, memoryTypes, type MemoryRules, type MemoryType} from './memory-types.js';

/**
 * The fused score `engi query` ranks by: text relevance (BM25, best match 1) × the memory
 * type's weight × 0.5^(age / half-life) × a graph boost (+5% per live edge, at most +30%) × a
 * penalty of 0.1 for a node something live SUPERSEDES. Every factor is relative to the moment
 * asked about, and each is kept so `--view hits` can say why a node ranks where it does.
 */
export const graphBoostPerEdge = 0.05;
export const graphBoostMax = 0.3;
export const supersededPenalty = 0.1;

export const rankFactorsSchema = lazySchema(() =>
	z.object({
		relevance: z.number(),
		memory_type: z.enum(memoryTypes),
		type_weight: z.number(),
		age_days: z.number(),
		half_life_days: z.nullable(z.number()),
		decay: z.number(),
		live_edges: z.number(),
		graph_boost: z.number(),
		superseded: z.boolean(),
		superseded_penalty: z.number(),
		lifecycle: z.enum(lifecycles),
	}),
);

export type RankFactors = z.infer<typeof rankFactorsSchema>;

export type RankInput = {
	readonly relevance: number;
	readonly memoryType: MemoryType;
	readonly ageDays: number;
	readonly liveEdges: number;
	readonly superseded: boolean;
	readonly lifecycle: Lifecycle;
};

const rounded = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

/** The factors of one node's rank and their product. */
export function rankFactors(input: RankInput, rules: MemoryRules): {factors: RankFactors; fused: number} {
	const rule = rules[input.memoryType];
	const decay = decayFactor(input.ageDays, rule.halfLifeDays);
	const boost = 1 + Math.min(graphBoostMax, graphBoostPerEdge * input.liveEdges);
	const penalty = input.superseded ? supersededPenalty : 1;
	const fused = input.relevance * rule.weight * decay * boost * penalty;
	return {
		fused,
		factors: {
			relevance: rounded(input.relevance),
			memory_type: input.memoryType,
			type_weight: rule.weight,
			age_days: rounded(input.ageDays, 2),
			half_life_days: rule.halfLifeDays,
			decay: rounded(decay),
			live_edges: input.liveEdges,
			graph_boost: rounded(boost),
			superseded: input.superseded,
			superseded_penalty: penalty,
			lifecycle: input.lifecycle,
		},
	};
}

/** The factors in one line, for `why`: `all_terms_match: relevance 0.8 × correction 3 × decay 0.998 (7d, half-life 3650d) × graph 1.1 (2 live edges) × superseded 1; validated`. */
export function explainFactors(match: string, factors: RankFactors): string {
	const age = factors.half_life_days === null ? `${factors.age_days}d, no half-life` : `${factors.age_days}d, half-life ${factors.half_life_days}d`;
	return `${match}: relevance ${factors.relevance} × ${factors.memory_type} ${factors.type_weight} × decay ${factors.decay} (${age}) × graph ${factors.graph_boost} (${plural(factors.live_edges, 'live edge')}) × superseded ${factors.superseded_penalty}; ${factors.lifecycle}`;
}
