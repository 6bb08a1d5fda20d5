import {parseStored, type Database} from '../../lib/sqlite.js';
import type {MemoryType} from '../upkeep/memory-types.js';

/**
 * What dream keeps in the index: the decay, lifecycle and trivia flag it computed for each node
 * as of its run (node_upkeep), and the progress of a run under way (meta `dream_run`), so a run
 * that was killed between steps resumes where it stopped. All derived: a rebuild clears it.
 */
export type UpkeepRow = {
	readonly id: string;
	readonly memory_type: MemoryType;
	readonly decay: number;
	readonly lifecycle: string;
	readonly trivia: boolean;
	readonly as_of: string;
};

export type DreamRun = {readonly as_of: string; readonly steps: number[]; readonly done: number[]};

/** Every node as the upkeep steps read it: id, kind, when last observed, memory type and payload. */
export function allNodes(db: Database): Array<{id: string; kind: string | null; observed_utc: string; memory_type: MemoryType; payload: Record<string, unknown>}> {
	const rows = db.prepare('SELECT id, kind, observed_utc, memory_type, payload FROM nodes ORDER BY id').all() as Array<{id: string; kind: string | null; observed_utc: string; memory_type: MemoryType; payload: string}>;
	return rows.map(row => ({...row, payload: parseStored<Record<string, unknown>>(row.payload, 'index')}));
}

/** Writes the given columns of node_upkeep for each row, keeping the others. */
export function saveUpkeep(db: Database, rows: ReadonlyArray<Partial<UpkeepRow> & {id: string; memory_type: MemoryType; as_of: string}>): void {
	const upsert = db.prepare(
		`INSERT INTO node_upkeep (id, memory_type, decay, lifecycle, trivia, as_of) VALUES (@id, @memory_type, coalesce(@decay, 1), coalesce(@lifecycle, 'active'), coalesce(@trivia, 0), @as_of)
		 ON CONFLICT (id) DO UPDATE SET memory_type = excluded.memory_type, as_of = excluded.as_of,
			decay = coalesce(@decay, decay), lifecycle = coalesce(@lifecycle, lifecycle), trivia = coalesce(@trivia, trivia)`,
	);
	db.transaction(() => {
		for (const row of rows) {
			upsert.run({id: row.id, memory_type: row.memory_type, as_of: row.as_of, decay: row.decay ?? null, lifecycle: row.lifecycle ?? null, trivia: row.trivia === undefined ? null : row.trivia ? 1 : 0});
		}
	}).immediate();
}

export function readDreamRun(db: Database): DreamRun | undefined {
	const value = db.prepare(`SELECT value FROM meta WHERE key = 'dream_run'`).pluck().get() as string | undefined;
	return value === undefined ? undefined : parseStored<DreamRun>(value, 'index');
}

/** Saves a run's progress; undefined clears it (the run finished). */
export function writeDreamRun(db: Database, run: DreamRun | undefined): void {
	if (run === undefined) {
		db.prepare(`DELETE FROM meta WHERE key = 'dream_run'`).run();
	} else {
		db.prepare(`INSERT OR REPLACE INTO meta (key, value) VALUES ('dream_run', ?)`).run(JSON.stringify(run));
	}
}
