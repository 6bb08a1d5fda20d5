import {mkdirSync, readFileSync, type Stats} from 'node:fs';
import {dirname, join} from 'node:path';
import {writeFileAtomic} from '../../lib/atomic.js';
import type {Deps} from '../deps.js';
import {cacheDirectory} from '../kb/paths.js';
import {summaryOf, type NoteSummary} from './note.js';

/**
 * What the queue read of each note (its summary), kept in engi's cache so a harvest over
 * thousands of notes costs a stat of each instead of an open and a read. Derived and never
 * trusted blindly: an entry is used only for a file whose inode, size, mtime and ctime are
 * exactly those it was read with (any write changes the ctime, which nobody can set back), and
 * a file changed too recently to be told apart from a write in the same clock tick is not kept
 * (git's "racily clean" rule). Deleting the file, or a damaged one, costs one full read.
 */
type Entry = [ino: number, size: number, mtimeMs: number, ctimeMs: number, summary: NoteSummary | null];

/** A file written this close to now may still change within the same timestamp: read it again next time. */
const settledMs = 2000;

export type QueueCache = {
	/** The summary read from exactly this file state, if the cache holds it. */
	summary(name: string, stats: Stats): {summary: NoteSummary | undefined} | undefined;
	/** What was read of a note in the state `stats` describes (stat'ed before the read). */
	remember(name: string, stats: Stats, summary: NoteSummary | undefined): void;
	/** Writes the cache when what it holds changed; a cache that cannot be written is only slower. */
	save(): void;
};

/**
 * One cache file per notes folder, named by an FNV-1a hash of its path (node:crypto costs ~5 ms
 * to load, more than the hash is worth here); the file records the folder it is of, so two
 * folders of one name only take turns rebuilding it.
 */
export function queueCachePath(deps: Deps, folder: string): string {
	let hash = 0x81_1c_9d_c5;
	for (let index = 0; index < folder.length; index++) {
		hash = Math.imul(hash ^ folder.charCodeAt(index), 16_777_619);
	}

	return join(cacheDirectory(deps), 'candidates', `${(hash >>> 0).toString(16).padStart(8, '0')}-${folder.length}.json`);
}

const sameState = (entry: Entry, stats: Stats) => entry[0] === stats.ino && entry[1] === stats.size && entry[2] === stats.mtimeMs && entry[3] === stats.ctimeMs;

function isEntry(value: unknown): value is Entry {
	return Array.isArray(value) && value.length === 5 && value.slice(0, 4).every(number => typeof number === 'number') && (value[4] === null || (typeof value[4] === 'object' && summaryOf(value[4] as Record<string, unknown>) !== undefined));
}

function load(path: string, folder: string): Map<string, Entry> {
	try {
		const data = JSON.parse(readFileSync(path, 'utf8')) as {version?: unknown; folder?: unknown; notes?: unknown};
		if (data.version !== 1 || data.folder !== folder || typeof data.notes !== 'object' || data.notes === null) {
			return new Map();
		}

		return new Map(Object.entries(data.notes as Record<string, unknown>).filter((pair): pair is [string, Entry] => isEntry(pair[1])));
	} catch {
		return new Map(); // Missing or damaged: rebuilt from the notes.
	}
}

export function openQueueCache(path: string, folder: string, now = Date.now()): QueueCache {
	const held = load(path, folder);
	const kept = new Map<string, Entry>();
	let changed = false;
	return {
		summary(name, stats) {
			const entry = held.get(name);
			if (!entry || !sameState(entry, stats)) {
				return undefined;
			}

			kept.set(name, entry);
			return {summary: entry[4] ?? undefined};
		},
		remember(name, stats, summary) {
			if (now - Math.max(stats.mtimeMs, stats.ctimeMs) >= settledMs) {
				kept.set(name, [stats.ino, stats.size, stats.mtimeMs, stats.ctimeMs, summary ?? null]);
				changed = true;
			}
		},
		save() {
			if (!changed && kept.size === held.size) {
				return;
			}

			try {
				mkdirSync(dirname(path), {recursive: true, mode: 0o700});
				writeFileAtomic(path, JSON.stringify({version: 1, folder, notes: Object.fromEntries(kept)}));
			} catch {}
		},
	};
}
