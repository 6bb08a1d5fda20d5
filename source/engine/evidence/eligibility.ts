import {isCanonicalUtc} from '../../lib/time.js';
import type {Contract} from './contract.js';
import {nodeSha256} from './node-hash.js';
import type {Snapshot, SnapshotEdge} from './snapshot.js';

/** Why a node cannot serve as evidence, in the order the checks run (eligibility, then closure). */
export const rejectionReasons = [
	'scope_or_source_unavailable',
	'source_pin_missing',
	'source_changed',
	'observation_time_unknown',
	'observation_outside_window',
	'source_provenance_missing',
	'unresolved_conflict',
	'dependency_provenance_missing',
	'hop_limit',
] as const;

export type RejectionReason = (typeof rejectionReasons)[number];

/** `source` is null when naming it would reveal a node outside the contract's scope. */
export type Rejection = {readonly reason: RejectionReason; readonly source: string | null};

export type Closure = {readonly nodes: readonly string[]; readonly edges: readonly SnapshotEdge[]};

export type Judge = {
	/** Whether one node may be cited, by the contract's rules in their order; null when it may. */
	eligibility(id: string): Rejection | null;
	/** The node's current hash (for nodes that exist). */
	hashOf(id: string): string;
	/** An alternative's roots with everything they depend on, or why it cannot be used. */
	close(roots: readonly string[]): {closure: Closure; rejection?: undefined} | {rejection: Rejection; closure?: undefined};
};

/**
 * The contract's view of a snapshot. A node is eligible when it is in scope, pinned, present,
 * unchanged since it was pinned, observed at a known time inside the window, and says where it
 * came from. Closure walks DEPENDS_ON breadth-first from an alternative's roots (every
 * dependency must be eligible, carry provenance and lie within max_hops); a live CONTRADICTS
 * edge touching any node of it is a conflict. Every live edge in a snapshot was built from one
 * journal line, so each carries its citation: no dependency can lack a trace here.
 */
export function createJudge(contract: Contract, snapshot: Snapshot): Judge {
	const scope = new Set(contract.scope_nodes);
	const verdicts = new Map<string, Rejection | null>();
	const hashes = new Map<string, string>();
	const hashOf = (id: string) => {
		let hash = hashes.get(id);
		if (hash === undefined) {
			hash = nodeSha256(snapshot.nodes.get(id)!);
			hashes.set(id, hash);
		}

		return hash;
	};

	const check = (id: string): Rejection | null => {
		if (!scope.has(id)) {
			return {reason: 'scope_or_source_unavailable', source: null};
		}

		const pin = Object.hasOwn(contract.sources, id) ? contract.sources[id]! : undefined;
		if (pin === undefined) {
			return {reason: 'source_pin_missing', source: id};
		}

		const node = snapshot.nodes.get(id);
		if (node === undefined) {
			return {reason: 'scope_or_source_unavailable', source: id};
		}

		if (hashOf(id) !== pin.node_sha256.toLowerCase()) {
			return {reason: 'source_changed', source: id};
		}

		const observed = node['observed_utc'];
		if (!isCanonicalUtc(observed)) {
			return {reason: 'observation_time_unknown', source: id};
		}

		if (observed < contract.min_observed_utc || observed > contract.as_of) {
			return {reason: 'observation_outside_window', source: id};
		}

		const provenance = node['provenance'];
		if (typeof provenance !== 'string' || provenance.trim() === '') {
			return {reason: 'source_provenance_missing', source: id};
		}

		return null;
	};

	const eligibility = (id: string) => {
		let verdict = verdicts.get(id);
		if (verdict === undefined) {
			verdict = check(id);
			verdicts.set(id, verdict);
		}

		return verdict;
	};

	return {
		eligibility,
		hashOf,
		close(roots) {
			const depth = new Map<string, number>();
			const queue: string[] = [];
			for (const root of roots) {
				if (depth.has(root)) {
					continue;
				}

				const rejection = eligibility(root);
				if (rejection) {
					return {rejection};
				}

				depth.set(root, 0);
				queue.push(root);
			}

			const edges: SnapshotEdge[] = [];
			for (let next = 0; next < queue.length; next++) {
				const id = queue[next]!;
				const conflicts = snapshot.contradicts.get(id) ?? [];
				if (conflicts.length > 0) {
					// A contradiction within scope is named; one with a node outside it is only reported as unavailable.
					const other = conflicts.map(edge => (edge.from === id ? edge.to : edge.from)).find(end => scope.has(end));
					return {rejection: other === undefined ? {reason: 'scope_or_source_unavailable', source: null} : {reason: 'unresolved_conflict', source: other}};
				}

				const reached = depth.get(id)! + 1;
				for (const edge of snapshot.dependsOn.get(id) ?? []) {
					const target = edge.to;
					const known = depth.has(target);
					const rejection = known ? null : eligibility(target);
					if (rejection) {
						return {rejection};
					}

					if (edge.provenance === null || edge.provenance.trim() === '') {
						return {rejection: {reason: 'dependency_provenance_missing', source: target}};
					}

					if (!known) {
						if (reached > contract.max_hops) {
							return {rejection: {reason: 'hop_limit', source: target}};
						}

						depth.set(target, reached);
						queue.push(target);
					}

					edges.push(edge);
				}
			}

			return {closure: {nodes: queue, edges}};
		},
	};
}
