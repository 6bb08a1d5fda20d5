import {fileUnit, walkFiles} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

const rolloutFile = /^rollout-.*\.jsonl?$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The variant of a TypeScript-era rollout: one JSON document, read whole (load.ts). */
export const codexDocumentVariant = 'json';

/**
 * Rollouts live in `sessions/YYYY/MM/DD/` (local-time date directories), flat in `sessions/` in
 * very early builds, and flat in `archived_sessions/`. The file name ends with the session uuid:
 * `rollout-<local time>-<uuid>.jsonl`, so the last 36 characters of the stem are the id. The
 * TypeScript CLI (spring 2025) wrote `sessions/rollout-<date>-<uuid>.json`, one JSON document
 * rewritten whole on each save: listed with the document variant, never parsed here.
 */
export function discoverCodex(root: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	// Three date levels below `sessions/`; one spare level tolerates a root given one level up.
	for (const path of walkFiles(root, name => rolloutFile.test(name), 4)) {
		// Absent hints as undefined rather than spread in conditionally: this runs for every file on every call.
		const unit = fileUnit(path, {idHint: idFromRolloutName(path), variant: path.endsWith('.json') ? codexDocumentVariant : undefined});
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

export function idFromRolloutName(path: string): string | undefined {
	const candidate = path.slice(0, path.endsWith('.json') ? -5 : -6).slice(-36);
	return uuid.test(candidate) ? candidate : undefined;
}
