import {EngiError} from '../../lib/errors.js';
import {
	canonicalEdgeKind,
	canonicalNodeKind,
	coreNodeKinds,
	isAllowedCoreEdge,
	isLocation,
	locationEdges,
	locationSources,
	type CoreEdgeKind,
	type CoreNodeKind,
} from './kinds.js';

/** A custom node kind must say where it came from. Returns the canonical kind. */
export function validateNodeKind(kind: string, provenance: string | undefined): string {
	const canonical = canonicalNodeKind(kind);
	if (!canonical.core && !provenance?.trim()) {
		throw new EngiError('custom_kind_needs_provenance', `custom node kind "${canonical.kind}" requires a non-empty --provenance`, {
			hint: `core kinds need none: ${coreNodeKinds.join(', ')}`,
		});
	}

	return canonical.kind;
}

export type RelationInput = {
	readonly from: string;
	readonly type: string;
	readonly to: string;
	readonly provenance: string | undefined;
	readonly allowDangling: boolean;
};

/** Kind of a node in the graph, or undefined when it does not exist. */
export type KindLookup = (id: string) => string | null | undefined;

/**
 * Checks an edge before it is written: endpoints exist (unless dangling is allowed), locations
 * only under LOCATED_AT/ORIGINATED_AT, custom edges and custom endpoints carry provenance, and
 * core triples follow the adjacency table. Returns the canonical edge type.
 */
export function validateRelation(input: RelationInput, kindOf: KindLookup): string {
	const {type, core: coreEdge} = canonicalEdgeKind(input.type);
	const hasProvenance = Boolean(input.provenance?.trim());
	const targetIsLocation = isLocation(input.to);
	const fromKind = kindOf(input.from);
	const toKind = targetIsLocation ? undefined : kindOf(input.to);
	const missing = [fromKind === undefined ? `--from ${input.from}` : undefined, !targetIsLocation && toKind === undefined ? `--to ${input.to}` : undefined].filter(Boolean);
	if (missing.length > 0 && !input.allowDangling) {
		throw new EngiError('missing_endpoint', `missing graph endpoint: ${missing.join(', ')}`, {
			hint: 'create the node first with engi graph node, or pass --allow-dangling',
		});
	}

	const fromCanonical = typeof fromKind === 'string' ? canonicalNodeKind(fromKind) : undefined;
	const toCanonical = typeof toKind === 'string' ? canonicalNodeKind(toKind) : undefined;
	const customParty = !coreEdge || (fromCanonical !== undefined && !fromCanonical.core) || (toCanonical !== undefined && !toCanonical.core);
	if (customParty && !hasProvenance) {
		throw new EngiError('custom_edge_needs_provenance', `edge ${input.from} -${type}-> ${input.to} involves a custom kind and needs a non-empty --provenance`);
	}

	if (targetIsLocation) {
		if (!locationEdges.has(type)) {
			throw new EngiError('location_target_not_allowed', `a path or URI target is only allowed under LOCATED_AT or ORIGINATED_AT, not ${type}`);
		}

		if (fromCanonical && fromCanonical.core && !locationSources.has(fromCanonical.kind)) {
			throw new EngiError('edge_not_allowed', `${fromCanonical.kind} cannot be ${type} a location; only Dataset, Model and Artifact can`);
		}

		return type;
	}

	if (customParty || !fromCanonical || !toCanonical) {
		return type; // Provenance-carrying custom parties and dangling endpoints bypass the table.
	}

	if (!isAllowedCoreEdge(type as CoreEdgeKind, fromCanonical.kind as CoreNodeKind, toCanonical.kind as CoreNodeKind)) {
		throw new EngiError('edge_not_allowed', `${fromCanonical.kind} -${type}-> ${toCanonical.kind} is not an allowed relation`, {
			hint: 'see the adjacency table in the README, or use a custom edge type with --provenance',
		});
	}

	return type;
}
