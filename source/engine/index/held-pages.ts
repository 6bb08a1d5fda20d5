import type {Database} from '../../lib/sqlite.js';

/**
 * The index's held_pages table: wiki pages conflict quarantine holds (upkeep/wiki-sync.ts
 * decides which). While a page is held, `query` leaves out the node it claims and says so.
 */
export type HeldPage = {
	/** The page's path under the wiki folder. */
	readonly path: string;
	/** The node id the page claims, when that could be read without parsing it. */
	readonly node_id: string | null;
	readonly reason: 'conflict_markers' | 'conflict_path' | 'duplicate_id';
	readonly detail: string;
	readonly sha256: string;
	readonly held_utc: string;
};

export function heldPages(db: Database): HeldPage[] {
	return db.prepare('SELECT path, node_id, reason, detail, sha256, held_utc FROM held_pages ORDER BY path').all() as HeldPage[];
}

export function countHeldPages(db: Database): number {
	return db.prepare('SELECT count(*) FROM held_pages').pluck().get() as number;
}

/** The held page claiming this node id, if any. */
export function heldPageOf(db: Database, nodeId: string): HeldPage | undefined {
	return db.prepare('SELECT path, node_id, reason, detail, sha256, held_utc FROM held_pages WHERE node_id = ? ORDER BY path LIMIT 1').get(nodeId) as HeldPage | undefined;
}

/** Node ids held pages claim: their contribution is left out. */
export function heldNodeIds(db: Database): Set<string> {
	return new Set(db.prepare('SELECT DISTINCT node_id FROM held_pages WHERE node_id IS NOT NULL').pluck().all() as string[]);
}

/** When each page was first held, for pages held before. */
export function heldSince(db: Database): Map<string, string> {
	return new Map((db.prepare('SELECT path, held_utc FROM held_pages').all() as Array<{path: string; held_utc: string}>).map(row => [row.path, row.held_utc]));
}

/**
 * Replaces what is held with what a sync found. Its own write transaction: called inside a
 * read transaction, the write could not wait for another process's and would fail at once.
 */
export function replaceHeldPages(db: Database, pages: readonly HeldPage[]): void {
	const insert = db.prepare('INSERT INTO held_pages (path, node_id, reason, detail, sha256, held_utc) VALUES (?, ?, ?, ?, ?, ?)');
	db.transaction(() => {
		db.prepare('DELETE FROM held_pages').run();
		for (const page of pages) {
			insert.run(page.path, page.node_id, page.reason, page.detail, page.sha256, page.held_utc);
		}
	}).immediate();
}
