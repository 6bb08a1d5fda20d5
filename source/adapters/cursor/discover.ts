import {join} from 'node:path';
import {fileUnit, isDirectory, listDirectory, stem} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

const transcriptsDirectory = 'agent-transcripts';

function isTranscript(name: string): boolean {
	return name.endsWith('.jsonl'); // Older `.txt` exports are plain text, not read.
}

/**
 * `projects/<slug>/agent-transcripts/` holds `<id>.jsonl` (older) or `<id>/<id>.jsonl` (newer)
 * transcripts, and subagents under `<parent id>/subagents/<id>.jsonl`. The id is the file stem.
 * How the slug is derived from the workspace path is unknown, so no project is claimed from it.
 */
export function discoverCursor(root: string): DiscoveredUnit[] {
	// A user may point --source-root at one project directory rather than at `projects/`.
	if (isDirectory(join(root, transcriptsDirectory))) {
		return discoverTranscripts(join(root, transcriptsDirectory));
	}

	return listDirectory(root)
		.filter(entry => entry.isDirectory())
		.flatMap(entry => discoverTranscripts(join(root, entry.name, transcriptsDirectory)));
}

function discoverTranscripts(directory: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	const push = (path: string, parentIdHint?: string) => {
		const unit = fileUnit(path, {idHint: stem(path, '.jsonl'), ...(parentIdHint === undefined ? {} : {parentIdHint})});
		if (unit) {
			units.push(unit);
		}
	};

	for (const entry of listDirectory(directory)) {
		const path = join(directory, entry.name);
		if (entry.isFile() && isTranscript(entry.name)) {
			push(path);
		} else if (entry.isDirectory()) {
			for (const inner of listDirectory(path)) {
				if (inner.isFile() && isTranscript(inner.name)) {
					push(join(path, inner.name));
				}
			}

			for (const child of listDirectory(join(path, 'subagents'))) {
				if (child.isFile() && isTranscript(child.name)) {
					push(join(path, 'subagents', child.name), entry.name);
				}
			}
		}
	}

	return units;
}
