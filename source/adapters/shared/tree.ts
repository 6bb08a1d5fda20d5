import type {SessionEvent} from '../events.js';

/**
 * Stores that keep a conversation as a tree (Claude Code, Qwen Code: `uuid`/`parentUuid`) fork
 * it at any record, including records that show nothing (bookkeeping, a title, a turn's
 * duration), and the live chain runs through those. Such a record keeps its place in the tree
 * with a `meta` event that holds only its `uuid` and `parent`.
 */
export type TreePlace = {readonly uuid: string | undefined; readonly parent: string | null | undefined; readonly sidechain?: boolean; readonly messageId?: string};

/**
 * The place of a record of a reply that shows nothing (a thinking block alone) keeps the reply's
 * message id: the branch tree knows it for a record of the agent's response, never a branch.
 */
export function withTreePlace(events: SessionEvent[], place: TreePlace, line: number): SessionEvent[] {
	if (place.uuid === undefined || events.some(event => event.uuid !== undefined)) {
		return events;
	}

	return [...events, {line, kind: 'meta', uuid: place.uuid, ...(place.parent !== undefined ? {parent: place.parent} : {}), ...(place.sidechain ? {sidechain: true} : {}), ...(place.messageId ? {message_id: place.messageId} : {})}];
}

/**
 * Records that are skipped (a type the adapter does not know) leave no place in the tree; their
 * children are linked to the skipped record's own parent instead, so the chain stays whole.
 * Plain JSON, so it can live in a JSONL normaliser's line state.
 */
export type TreeBridges = Record<string, string | null>;

export function bridgeSkipped(bridges: TreeBridges, place: TreePlace): void {
	if (place.uuid !== undefined && !place.sidechain) {
		bridges[place.uuid] = resolveParent(bridges, place.parent) ?? null;
	}
}

/** The nearest ancestor that was not skipped. */
export function resolveParent(bridges: TreeBridges | undefined, parent: string | null | undefined): string | null | undefined {
	let resolved = parent;
	for (let hops = 0; bridges && typeof resolved === 'string' && Object.hasOwn(bridges, resolved) && hops < 1000; hops++) {
		resolved = bridges[resolved];
	}

	return resolved;
}
