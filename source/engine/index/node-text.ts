import {parseStored, type Database} from '../../lib/sqlite.js';
import {segmentForIndex} from '../search/segment.js';
import {bookkeepingKinds} from '../upkeep/vocabulary.js';

/**
 * The index's full text of nodes: a contentless FTS5 table (node_fts) of pre-segmented text,
 * keyed by node_docs.rowid, kept in step with the nodes table and searched with a MATCH
 * expression (search/query-plan.ts).
 */

/** Every string a person might search a node by: label, body, id, path, status, next action, blockers, and any other text field. */
export function nodeSearchText(payload: Record<string, unknown>): string {
	const parts: string[] = [];
	for (const [key, value] of Object.entries(payload)) {
		if (key === 'observed_utc' || key === 'reassert_of') {
			continue;
		}

		if (typeof value === 'string') {
			parts.push(value);
		} else if (Array.isArray(value)) {
			parts.push(...value.filter((item): item is string => typeof item === 'string'));
		}
	}

	return parts.join('\n');
}

/**
 * Keeps the node full-text index in step with the nodes table for the given ids: each node's
 * old row is deleted and its current text inserted, so a rebuild and a chain of incremental
 * refreshes leave the same index. Bookkeeping nodes (archive marks) have no text to find.
 */
export function reindexNodes(db: Database, ids: Iterable<string>): void {
	const docId = db.prepare('SELECT rowid FROM node_docs WHERE node_id = ?').pluck();
	const insertDoc = db.prepare('INSERT INTO node_docs (node_id) VALUES (?)');
	const deleteText = db.prepare('DELETE FROM node_fts WHERE rowid = ?');
	const insertText = db.prepare('INSERT INTO node_fts (rowid, words, chars) VALUES (?, ?, ?)');
	const nodeOf = db.prepare('SELECT kind, payload FROM nodes WHERE id = ?');
	for (const id of ids) {
		const node = nodeOf.get(id) as {kind: string | null; payload: string} | undefined;
		if (node === undefined || (node.kind !== null && bookkeepingKinds.has(node.kind))) {
			continue;
		}

		const {payload} = node;

		let rowid = docId.get(id) as number | undefined;
		if (rowid === undefined) {
			rowid = Number(insertDoc.run(id).lastInsertRowid);
		} else {
			deleteText.run(rowid);
		}

		const {words, chars} = segmentForIndex(nodeSearchText(parseStored<Record<string, unknown>>(payload, 'index')));
		insertText.run(rowid, words, chars);
	}
}

/** Nodes the full text matches, best first: ranked by bm25 inside FTS5 (at most `limit`), then joined to their ids. */
export function matchNodes(db: Database, match: string, limit: number): Array<{id: string; rank: number}> {
	return db
		.prepare(
			`SELECT d.node_id AS id, s.rank AS rank FROM
			 (SELECT rowid, bm25(node_fts) AS rank FROM node_fts WHERE node_fts MATCH ? ORDER BY rank LIMIT ${limit}) s
			 JOIN node_docs d ON d.rowid = s.rowid ORDER BY s.rank, d.node_id`,
		)
		.all(match) as Array<{id: string; rank: number}>;
}
