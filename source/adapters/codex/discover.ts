import {basename, dirname} from 'node:path';
import {fileUnit, walkFiles} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

const rolloutFile = /^rollout-.*(?:\.jsonl?|\.jsonl\.zst)$/;
// lib/lines.ts compressedSuffix, spelled here: importing it would load the line reader into
// discovery, which every warm call loads.
const compressed = '.zst';
/** A thread id: a uuid (a rollout's name ends with one). */
export const threadIdPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The variant of a TypeScript-era rollout: one JSON document, read whole (load.ts). */
export const codexDocumentVariant = 'json';

/**
 * Rollouts live in `sessions/YYYY/MM/DD/` (local-time date directories), flat in `sessions/` in
 * very early builds, and flat in `archived_sessions/`. The file name ends with the session uuid:
 * `rollout-<local time>-<uuid>.jsonl`, so the last 36 characters of the stem are the id. The
 * TypeScript CLI (spring 2025) wrote `sessions/rollout-<date>-<uuid>.json`, one JSON document
 * rewritten whole on each save: listed with the document variant, never parsed here. A rollout
 * idle for a week may be compressed (`rollout-….jsonl.zst`, Codex 0.137 on): read decompressed
 * line by line (lib/zstd-lines.ts), as the same rollout.
 */
export function discoverCodex(root: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	// Three date levels below `sessions/`; one spare level tolerates a root given one level up.
	const paths = walkFiles(root, name => rolloutFile.test(name), 4);
	const listed = new Set(paths);
	for (const path of paths) {
		// Codex compresses a rollout idle for a week to `.jsonl.zst` and deletes the plain file; while
		// it turns one into the other both may exist, and the plain one is the rollout (codex-rs
		// rollout/src/compression.rs, should_skip_compressed_sibling).
		if (path.endsWith(compressed) && listed.has(path.slice(0, -compressed.length))) {
			continue;
		}

		// Absent hints as undefined rather than spread in conditionally: this runs for every file on every call.
		const unit = fileUnit(path, {idHint: idFromRolloutName(path), variant: path.endsWith('.json') ? codexDocumentVariant : undefined, archived: isArchivedRollout(path)});
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

/** Where Codex moves a rollout it archives (codex-rs rollout ARCHIVED_SESSIONS_SUBDIR). */
const archivedDirectory = 'archived_sessions';

/**
 * True for a rollout Codex archived: archiving renames it, flat, into `archived_sessions/`, and
 * unarchiving moves it back under `sessions/YYYY/MM/DD/` (codex-rs thread-store
 * local/archive_thread.rs, local/unarchive_thread.rs), so the folder holding it is the whole
 * fact. The state database's `threads.archived_at` mirrors it; engi reads no state database.
 * Told from the path alone: no status is read for it.
 */
function isArchivedRollout(path: string): boolean {
	return basename(dirname(path)) === archivedDirectory;
}

export function idFromRolloutName(path: string): string | undefined {
	const plain = path.endsWith(compressed) ? path.slice(0, -compressed.length) : path;
	const candidate = plain.slice(0, plain.endsWith('.json') ? -5 : -6).slice(-36);
	return threadIdPattern.test(candidate) ? candidate : undefined;
}
