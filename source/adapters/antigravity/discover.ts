import {existsSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {childPath, deferredFileUnit, listDirectory} from '../shared/fs.js';
import type {DeferredUnit, UnitDetails} from '../types.js';
import {indexedWorkspace} from './history.js';

/**
 * Where a conversation directory keeps its transcript, newest layout first. `agy` writes each
 * step to two logs: `transcript.jsonl` cuts long fields (`truncated_fields`: a long request, reply
 * or tool output loses its end), and `transcript_full.jsonl` beside it holds the same steps whole,
 * so it is the one read; the cut copy is read only where it is alone (older builds).
 */
const transcriptPlaces = [join('.system_generated', 'logs', 'transcript_full.jsonl'), join('.system_generated', 'logs', 'transcript.jsonl'), 'transcript.jsonl'];

/**
 * Files that belong to a conversation but are not read as its transcript: the cut copy beside the
 * full one and the protobuf step database in `<app>/conversations/<id>.db`.
 */
function sidecars(transcript: string, brain: string, id: string): string[] {
	const candidates = [join(dirname(brain), 'conversations', `${id}.db`)];
	if (basename(transcript) === 'transcript_full.jsonl') {
		candidates.unshift(join(dirname(transcript), 'transcript.jsonl'));
	}

	return candidates.filter(path => existsSync(path));
}

/**
 * `brain/<id>/.system_generated/logs/transcript_full.jsonl` or, alone, `transcript.jsonl` there (the
 * `agy` CLI), `brain/<id>/transcript.jsonl` and `brain/<id>.jsonl`; the id is the directory name or the file stem. A conversation directory
 * with only Markdown artifacts (the pre-2026 layout) has no transcript and is not a session.
 */
export function discoverAntigravity(brain: string): DeferredUnit[] {
	const units: DeferredUnit[] = [];
	for (const entry of listDirectory(brain)) {
		const path = childPath(brain, entry.name);
		if (entry.isDirectory()) {
			// The first place that holds a file is the transcript; its stat is the unit's.
			for (const place of transcriptPlaces) {
				const unit = transcriptUnit(childPath(path, place), brain, entry.name);
				if (unit) {
					units.push(unit);
					break;
				}
			}
		} else if (entry.isFile() && entry.name.endsWith('.jsonl') && !entry.name.startsWith('transcript')) {
			const unit = transcriptUnit(path, brain, basename(entry.name, '.jsonl'));
			if (unit) {
				units.push(unit);
			}
		}
	}

	return units;
}

/** The unit of a transcript; its sidecars, and the workspace the app's prompt index names, are looked for when it is read. */
function transcriptUnit(transcript: string, brain: string, id: string): DeferredUnit | undefined {
	return deferredFileUnit(transcript, id, () => transcriptDetails(transcript, brain, id));
}

function transcriptDetails(transcript: string, brain: string, id: string): UnitDetails {
	const paths = [transcript, ...sidecars(transcript, brain, id)];
	const workspace = indexedWorkspace(dirname(brain), id);
	return workspace === undefined ? {paths} : {paths, projectHint: workspace};
}
