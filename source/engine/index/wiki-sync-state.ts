import {parseStored, type Database} from '../../lib/sqlite.js';
import type {FileStamp} from '../upkeep/wiki-pages.js';
import type {Watermark} from './watermark.js';

/** A page the last sync read and planned: what a later sync needs to skip reading it again. */
export type SyncedPage = {
	readonly path: string;
	readonly sha256: string;
	/** Its stamp when read, once settled (else null: read it again next time). */
	readonly stamp: FileStamp | null;
	readonly id: string;
	readonly title: string;
	/** Its `related` entries and `[[links]]` that resolved to nothing, in the order sync reports them. */
	readonly unresolved: ReadonlyArray<{line: number; ref: string}>;
	/** Its `sources` that named no page and no node (each got a Source node instead). */
	readonly unresolvedSources: readonly string[];
};

/**
 * What the last completed `wiki sync` saw (meta `wiki_sync`): the journal as it stood once the
 * sync's own events were in, the conflict patterns, each live page in listing order,  and each
 * held file's hash, with the stamps files had when read. Derived and optional: a rebuild clears it, and without it sync plans in full.
 */
export type WikiSyncState = {
	readonly journal: Pick<Watermark, 'bytes' | 'nextLine' | 'head' | 'tail'>;
	readonly conflictPaths: readonly string[];
	readonly pages: readonly SyncedPage[];
	readonly held: Readonly<Record<string, {sha256: string; stamp: FileStamp | null}>>;
};

/** Bumped whenever the record's shape changes: a record of another shape is not used. */
const version = 1;

export function readWikiSyncState(db: Database): WikiSyncState | undefined {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'wiki_sync'`).pluck().get() as string | undefined;
	const record = value === undefined ? undefined : parseStored<{version?: number; state?: WikiSyncState}>(value);
	return record?.version === version ? record.state : undefined;
}

/** Saves what a sync saw; undefined forgets it, so the next sync plans in full. */
export function writeWikiSyncState(db: Database, state: WikiSyncState | undefined): void {
	if (state === undefined) {
		db.prepare(`DELETE FROM meta WHERE key = 'wiki_sync'`).run();
	} else {
		db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('wiki_sync', ?)`).run(JSON.stringify({version, state}));
	}
}
