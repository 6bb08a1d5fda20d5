import {fileUnit, stem, walkFiles} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

const rolloutFile = /^rollout-.*\.jsonl$/;
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Rollouts live in `sessions/YYYY/MM/DD/` (local-time date directories), flat in `sessions/` in
 * very early builds, and flat in `archived_sessions/`. The file name ends with the session uuid:
 * `rollout-<local time>-<uuid>.jsonl`, so the last 36 characters of the stem are the id.
 */
export function discoverCodex(root: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	// Three date levels below `sessions/`; one spare level tolerates a root given one level up.
	for (const path of walkFiles(root, name => rolloutFile.test(name), 4)) {
		const id = idFromRolloutName(path);
		const unit = fileUnit(path, id === undefined ? {} : {idHint: id});
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

export function idFromRolloutName(path: string): string | undefined {
	const candidate = stem(path, '.jsonl').slice(-36);
	return uuid.test(candidate) ? candidate : undefined;
}
