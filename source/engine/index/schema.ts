import type {Database, Migration} from '../../lib/sqlite.js';

/**
 * `.engi/index.sqlite`: everything here is derived from the journal and can be deleted, so a
 * schema change bumps the version and the next read rebuilds from scratch.
 * events mirrors the journal line by line; nodes and edges are the replayed graph as of now.
 */
/** Secondary indexes of events: dropped for a full rebuild and made again once after the bulk load, which is much cheaper than keeping them sorted row by row. */
const eventIndexes = `
	CREATE INDEX IF NOT EXISTS events_id ON events (id);
	CREATE INDEX IF NOT EXISTS events_subject ON events (subject);
	CREATE INDEX IF NOT EXISTS events_object ON events (object);
`;

export function dropEventIndexes(db: Database): void {
	db.exec('DROP INDEX IF EXISTS events_id; DROP INDEX IF EXISTS events_subject; DROP INDEX IF EXISTS events_object;');
}

export function createEventIndexes(db: Database): void {
	db.exec(eventIndexes);
}

export const indexMigrations: readonly Migration[] = [
	{
		version: 7,
		up(db) {
			db.exec(`
				CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
				CREATE TABLE events (
					line INTEGER PRIMARY KEY,
					id TEXT NOT NULL,
					op TEXT NOT NULL,
					observed_utc TEXT NOT NULL,
					payload TEXT NOT NULL,
					subject TEXT,
					object TEXT,
					duplicate INTEGER NOT NULL DEFAULT 0
				);
				${eventIndexes}
				CREATE TABLE nodes (
					id TEXT PRIMARY KEY,
					kind TEXT,
					label TEXT,
					status TEXT,
					next_action TEXT,
					blockers TEXT,
					observed_utc TEXT,
					payload TEXT NOT NULL,
					first_line INTEGER NOT NULL,
					last_line INTEGER NOT NULL,
					-- What its kind and text make it (upkeep/memory-types.ts), found once when the node is
					-- written: ranking only multiplies by the type's weight and decay.
					memory_type TEXT NOT NULL
				);
				-- Covering indexes: the brief and membership queries read these, never the wide rows.
				CREATE INDEX nodes_kind ON nodes (kind, id, label, status, observed_utc, next_action, blockers);
				CREATE TABLE edges (
					seq INTEGER PRIMARY KEY,
					line INTEGER NOT NULL,
					event_id TEXT NOT NULL,
					from_id TEXT NOT NULL,
					type TEXT NOT NULL,
					to_id TEXT NOT NULL,
					weight REAL,
					valid_from TEXT NOT NULL,
					valid_until TEXT,
					observed_utc TEXT NOT NULL,
					provenance TEXT,
					retracted_line INTEGER,
					retracted_utc TEXT
				);
				CREATE INDEX edges_from ON edges (from_id, type);
				CREATE INDEX edges_to ON edges (to_id, type);
				CREATE INDEX edges_type ON edges (type, to_id, from_id, observed_utc, retracted_utc, valid_from, valid_until);
				CREATE TABLE corrupt (line INTEGER PRIMARY KEY, reason TEXT NOT NULL, bytes INTEGER NOT NULL);
				-- Full text over nodes: a contentless FTS5 table of pre-segmented text (jieba words for
				-- Han runs, plus a stream of single Han characters so any verbatim substring matches),
				-- keyed by node_docs.rowid. The text itself is not stored twice.
				CREATE TABLE node_docs (rowid INTEGER PRIMARY KEY, node_id TEXT NOT NULL UNIQUE);
				CREATE VIRTUAL TABLE node_fts USING fts5 (words, chars, content = '', contentless_delete = 1);
				-- Wiki pages conflict quarantine holds (upkeep/wiki-sync.ts): derived from the wiki's files,
				-- not from the journal, so replaying the journal again leaves them; the next sync after a
				-- repair clears them. node_id is the id the page claims, when it could be read.
				CREATE TABLE held_pages (
					path TEXT PRIMARY KEY,
					node_id TEXT,
					reason TEXT NOT NULL,
					detail TEXT NOT NULL,
					sha256 TEXT NOT NULL,
					held_utc TEXT NOT NULL
				);
				CREATE INDEX held_pages_node ON held_pages (node_id);
				-- What the last dream computed for each node as of its run (upkeep/dream-steps.ts):
				-- derived from the journal and the clock, so a rebuild clears it.
				CREATE TABLE node_upkeep (
					id TEXT PRIMARY KEY,
					memory_type TEXT NOT NULL,
					decay REAL NOT NULL,
					lifecycle TEXT NOT NULL,
					trivia INTEGER NOT NULL,
					as_of TEXT NOT NULL
				);
			`);
		},
	},
	{
		version: 9,
		up(db) {
			db.exec(`
				-- Each file the last wiki sync listed (index/wiki-sync-state.ts; its record is meta
				-- wiki_sync): the hash and settled stamp it had, and for a live page what a later sync
				-- needs to leave it unread: its names (lowercase, as [[links]] find a page; ord is its
				-- place in the listing, the later page winning a name) and what it left unresolved.
				-- One row a file, so a sync that changed one page writes one.
				CREATE TABLE wiki_sync_files (
					path TEXT PRIMARY KEY,
					sha256 TEXT NOT NULL,
					size INTEGER,
					mtime_ms REAL,
					ctime_ms REAL,
					ino INTEGER,
					node_id TEXT,
					title TEXT,
					ord INTEGER,
					id_key TEXT,
					path_key TEXT,
					name_key TEXT,
					title_key TEXT,
					unresolved TEXT,
					unresolved_sources TEXT
				) WITHOUT ROWID;
				CREATE INDEX wiki_sync_files_id ON wiki_sync_files (id_key, ord);
				CREATE INDEX wiki_sync_files_path ON wiki_sync_files (path_key, ord);
				CREATE INDEX wiki_sync_files_name ON wiki_sync_files (name_key, ord);
				CREATE INDEX wiki_sync_files_title ON wiki_sync_files (title_key, ord);
			`);
		},
	},
];

/**
 * Empties every table for a rebuild. The full-text table is emptied with FTS5's `delete-all`:
 * deleting its rows one by one leaves the deleted documents in its statistics, so bm25 scores
 * (and a query's answer) would depend on the index's history, not only on the journal.
 */
export function clearIndexTables(db: Database): void {
	db.exec("DELETE FROM events; DELETE FROM nodes; DELETE FROM edges; DELETE FROM corrupt; DELETE FROM meta; DELETE FROM node_docs; DELETE FROM node_upkeep; DELETE FROM wiki_sync_files; INSERT INTO node_fts (node_fts) VALUES ('delete-all');");
}
