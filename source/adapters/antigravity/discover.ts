import {existsSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {childPath, fileUnit, listDirectory} from '../shared/fs.js';
import {factsBook, isStringList} from '../shared/memo.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';

/** Where a conversation directory keeps its transcript, newest layout first. */
const transcriptPlaces = [join('.system_generated', 'logs', 'transcript.jsonl'), 'transcript.jsonl'];

/**
 * Files that belong to a conversation but are not read as its transcript: the fuller copy next
 * to the transcript and the protobuf step database in `<app>/conversations/<id>.db`.
 */
function sidecars(transcript: string, brain: string, id: string): string[] {
	const candidates = [join(dirname(brain), 'conversations', `${id}.db`)];
	if (basename(transcript) === 'transcript.jsonl') {
		candidates.unshift(join(dirname(transcript), 'transcript_full.jsonl'));
	}

	return candidates.filter(path => existsSync(path));
}

/**
 * `brain/<id>/.system_generated/logs/transcript.jsonl` (the `agy` CLI), `brain/<id>/transcript.jsonl`
 * and `brain/<id>.jsonl`; the id is the directory name or the file stem. A conversation directory
 * with only Markdown artifacts (the pre-2026 layout) has no transcript and is not a session.
 */
export function discoverAntigravity(brain: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	const book = factsBook(memo, brain, isStringList);
	for (const entry of listDirectory(brain)) {
		const path = childPath(brain, entry.name);
		let unit: ReturnType<typeof fileUnit>;
		let id = entry.name;
		if (entry.isDirectory()) {
			// The first place that holds a file is the transcript; its stat is the unit's.
			for (const place of transcriptPlaces) {
				unit = fileUnit(childPath(path, place), {idHint: id});
				if (unit) {
					break;
				}
			}
		} else if (entry.isFile() && entry.name.endsWith('.jsonl') && !entry.name.startsWith('transcript')) {
			id = basename(entry.name, '.jsonl');
			unit = fileUnit(path, {idHint: id});
		}

		if (unit) {
			const found = unit.path;
			// Set in place, not spread into a copy: in a fresh process a spread takes V8's slow path, for every unit on every call.
			unit.paths = [found, ...book.facts(found, unit.fingerprint, () => sidecars(found, brain, id))];
			units.push(unit);
		}
	}

	book.save();
	return units;
}
