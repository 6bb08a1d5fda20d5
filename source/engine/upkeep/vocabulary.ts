/**
 * The names wiki sync writes into the graph: its node kinds and edge type (custom ones, so each
 * event carries a provenance) and the provenance that marks what sync owns. The index and the
 * query engine read some of them, so they live apart from the code that writes.
 */
export const wikiKind = 'Wiki';
/** Something a wiki page cites that is not a node: a URL or a file, by `source:<sha256(ref)>`. */
export const sourceKind = 'Source';
export const relatedEdge = 'RELATED_TO';
/** What every event wiki sync appends carries; the edges it owns are the ones whose provenance starts with it. */
export const wikiProvenance = 'engi wiki sync';
