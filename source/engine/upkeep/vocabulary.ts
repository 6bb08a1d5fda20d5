/**
 * The names wiki sync and dream write into the graph: their node kinds and edge types (custom ones, so each
 * event carries a provenance) and the provenances that mark what each owns. The index and the
 * query engine read some of them, so they live apart from the code that writes.
 */
export const wikiKind = 'Wiki';
/** Something a wiki page cites that is not a node: a URL or a file, by `source:<sha256(ref)>`. */
export const sourceKind = 'Source';
export const relatedEdge = 'RELATED_TO';
/** What every event wiki sync appends carries; the edges it owns are the ones whose provenance starts with it. */
export const wikiProvenance = 'engi wiki sync';

/** A name `[[linked]]` in a node's text (dream step 3), by `entity:<slug>`. */
export const entityKind = 'Entity';
/** A record that dream archived a node (step 6), by `archive:<node id>`: the node itself is never touched. */
export const archiveMarkKind = 'ArchiveMark';
export const mentionsEdge = 'MENTIONS';
export const coOccursEdge = 'CO_OCCURS_WITH';
export const dreamProvenance = 'engi dream';

/** Kinds engi keeps for its own bookkeeping: no searchable text, never a result. */
export const bookkeepingKinds: ReadonlySet<string> = new Set([archiveMarkKind]);

export function archiveMarkId(nodeId: string): string {
	return `archive:${nodeId}`;
}
