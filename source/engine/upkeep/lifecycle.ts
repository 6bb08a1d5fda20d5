import {decayFactor, type MemoryRule} from './memory-types.js';

/**
 * Where a memory is in its life, derived from the journal and the clock each time it is asked
 * (nothing is ever deleted, so moving the clock back brings a memory back): archived once it is
 * past its type's time to live and its rank has faded below the floor, or when dream's archive
 * mark covers it as it is; stale once past its time to live; validated once the journal confirms
 * it (recorded again, or linked to its evidence); active otherwise.
 */
export const lifecycles = ['active', 'validated', 'stale', 'archived'] as const;
export type Lifecycle = (typeof lifecycles)[number];

/** Below this rank an expired memory is archived (Inkstone's floor). */
export const archiveDecayFloor = 0.05;

export type LifecycleFacts = {
	readonly ageDays: number;
	readonly rule: MemoryRule;
	/** Distinct upserts of the node observed by the moment. */
	readonly upserts: number;
	/** Live edges to its evidence: DERIVED_FROM and DISCUSSED_IN from it, SUPPORTS to it. */
	readonly evidenceEdges: number;
	/** Dream's archive mark covers the node as it is at the moment (a later upsert revives it). */
	readonly marked: boolean;
};

export function lifecycleOf(facts: LifecycleFacts): Lifecycle {
	if (facts.marked) {
		return 'archived';
	}

	if (facts.rule.ttlDays !== null && facts.ageDays >= facts.rule.ttlDays) {
		return decayFactor(facts.ageDays, facts.rule.halfLifeDays) < archiveDecayFloor ? 'archived' : 'stale';
	}

	return facts.upserts > 1 || facts.evidenceEdges > 0 ? 'validated' : 'active';
}
