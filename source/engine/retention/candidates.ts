import {storeFor} from '../../adapters/stores.js';
import type {DiscoveredUnit, Retirement, SourceId, SourceStore} from '../../adapters/types.js';
import {listUnitFiles, type NarrowRow, type UnitFiles} from '../catalog/list.js';
import type {CatalogView} from '../catalog/view.js';
import {sessionKey} from './journal.js';
import {isInside} from './targets.js';

/** One catalogued session unit with what retention needs of it. */
export type SessionUnit = NarrowRow & UnitFiles;

/**
 * A session retention may retire: one unit, the units nested inside its own directories (a
 * Claude session's subagents), and the sessions that are its children but live apart (a Codex
 * child thread), which must go first.
 */
export type RetentionCandidate = {
	readonly unit: SessionUnit;
	readonly adapter: SourceStore;
	/** Undefined when the session cannot be separated from its store. */
	readonly retirement: Retirement | undefined;
	readonly nested: SessionUnit[];
	readonly children: RetentionCandidate[];
	/** 0 for a session without a parent in the catalog; children are retired before their parents. */
	readonly depth: number;
};

/** Children deeper than this are treated as their own roots (a cycle of parent ids cannot loop). */
const maxDepth = 64;

/** The unit as discovery gave it, enough for an adapter's retirement and for walking its rows. */
export function unitOf(unit: SessionUnit): DiscoveredUnit {
	return {
		key: unit.key,
		path: unit.path,
		paths: unit.paths,
		size: unit.size,
		fingerprint: '',
		mtimeMs: unit.mtime_ms,
		idHint: unit.session_id,
		// Absent hints as undefined, not left out with conditional spreads: one shape for every
		// session, built without V8's slow path (this runs for each session of a plan).
		parentIdHint: unit.parent_id ?? undefined,
		projectHint: unit.project ?? undefined,
		variant: unit.variant ?? undefined,
	};
}

/**
 * Every session in the view's stores (all projects, subagents included), arranged for retention:
 * a unit inside a parent's own directory is part of the parent; any other unit with a parent in
 * the catalog is a child candidate of it.
 */
export function loadCandidates(view: CatalogView): RetentionCandidate[] {
	const units: SessionUnit[] = listUnitFiles(view.db, {scope: view.filter.scope, includeSubagents: true});
	const byId = new Map(units.map(unit => [sessionKey(unit.source, unit.session_id), unit]));
	const retirementOf = new Map<string, Retirement | undefined>();
	const retirement = (unit: SessionUnit, adapter: SourceStore) => {
		if (!retirementOf.has(unit.key)) {
			retirementOf.set(unit.key, adapter.retirement?.(unitOf(unit), unit.root, unit.session_id));
		}

		return retirementOf.get(unit.key);
	};

	const parentOf = new Map<string, SessionUnit>();
	const nestedIn = new Map<string, SessionUnit[]>();
	for (const unit of units) {
		const parent = unit.parent_id === null ? undefined : byId.get(sessionKey(unit.source, unit.parent_id));
		if (!parent || parent === unit) {
			continue;
		}

		const adapter = storeFor(parent.source as SourceId)!;
		if (retirement(parent, adapter)?.directories.some(directory => isInside(unit.path, directory))) {
			const siblings = nestedIn.get(parent.key);
			if (siblings) {
				siblings.push(unit);
			} else {
				nestedIn.set(parent.key, [unit]);
			}
		} else {
			parentOf.set(unit.key, parent);
		}
	}

	const nested = new Set([...nestedIn.values()].flat().map(unit => unit.key));
	const candidates = new Map<string, RetentionCandidate>();
	const depthOf = (unit: SessionUnit): number => {
		let depth = 0;
		for (let parent = parentOf.get(unit.key); parent && depth < maxDepth; parent = parentOf.get(parent.key)) {
			depth++;
		}

		return depth;
	};

	for (const unit of units) {
		if (!nested.has(unit.key)) {
			const adapter = storeFor(unit.source as SourceId)!;
			candidates.set(unit.key, {unit, adapter, retirement: retirement(unit, adapter), nested: nestedIn.get(unit.key) ?? [], children: [], depth: depthOf(unit)});
		}
	}

	for (const candidate of [...candidates.values()].sort(retirementOrder)) {
		const parent = parentOf.get(candidate.unit.key);
		const parentCandidate = parent === undefined || candidate.depth === 0 ? undefined : candidates.get(parent.key);
		parentCandidate?.children.push(candidate);
	}

	return [...candidates.values()];
}

/** Children before parents, then by source and id: the order a sweep retires sessions in. */
export function retirementOrder(a: RetentionCandidate, b: RetentionCandidate): number {
	return b.depth - a.depth || (a.unit.source < b.unit.source ? -1 : a.unit.source > b.unit.source ? 1 : 0) || (a.unit.session_id < b.unit.session_id ? -1 : a.unit.session_id > b.unit.session_id ? 1 : 0);
}
