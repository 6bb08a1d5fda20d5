import {closeSync, openSync, readSync} from 'node:fs';
import {join} from 'node:path';
import {childPath, deferredFileUnit, fileUnit, isFile, listDirectory} from '../shared/fs.js';
import type {ListedUnit, UnitDetails} from '../types.js';

/** workspace.yaml is a few hundred bytes; never read more than this of it. */
const sidecarBytes = 8 * 1024;

/**
 * `session-state/<sessionId>/events.jsonl` (v1.0.11+, with a `workspace.yaml` sidecar) and the
 * legacy flat `session-state/<sessionId>.jsonl`. A session directory without `events.jsonl`
 * (the sidecar alone) has no transcript and is not a unit. The older
 * `history-session-state/` JSON format lives outside this root and is not read.
 */
export function discoverCopilot(root: string): ListedUnit[] {
	const units: ListedUnit[] = [];
	for (const entry of listDirectory(root)) {
		const path = childPath(root, entry.name);
		if (entry.isDirectory()) {
			const events = childPath(path, 'events.jsonl');
			// The sidecar only matters when the transcript is read, so it is looked at only then.
			push(units, deferredFileUnit(events, entry.name, () => sessionDetails(events, join(path, 'workspace.yaml'))));
		} else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
			push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length), variant: 'legacy-flat'}));
		}
	}

	return units;
}

/** The session's files, with its workspace.yaml when there is one, and the cwd that names. */
function sessionDetails(events: string, workspace: string): UnitDetails {
	if (!isFile(workspace)) {
		return {paths: [events]};
	}

	const cwd = workspaceCwd(workspace);
	return cwd === undefined ? {paths: [events, workspace]} : {paths: [events, workspace], projectHint: cwd};
}

/** The `cwd:` scalar of workspace.yaml, read from its head. */
export function workspaceCwd(path: string): string | undefined {
	return yamlScalar(readHead(path), 'cwd');
}

/**
 * The session's name in workspace.yaml: `name:` (what /rename or the app set, or a name Copilot
 * generated; github/copilot-cli#4244, #2622), `summary:` in builds before it.
 */
export function workspaceName(path: string): string | undefined {
	const text = readHead(path);
	return yamlScalar(text, 'name') ?? yamlScalar(text, 'summary');
}

/** A top-level scalar of a small YAML file (plain, single- or double-quoted), blank as undefined. */
function yamlScalar(text: string | undefined, key: string): string | undefined {
	const match = text === undefined ? null : new RegExp(`^${key}:[ \\t]*(.+)$`, 'm').exec(text);
	const value = match?.[1] === undefined ? '' : withoutTrailingBlanks(match[1]);
	return value === '' ? undefined : unquoteYamlScalar(value).trim() || undefined;
}

/**
 * The value without the spaces and tabs that end its line. Not a lazy group before `[ \t]*$`
 * (nor `[ \t]+$`): a regex tries the run of blanks from each of its positions, so a line of
 * thousands of blanks with a character after them cost their number squared.
 */
function withoutTrailingBlanks(value: string): string {
	let end = value.length;
	while (end > 0 && (value[end - 1] === ' ' || value[end - 1] === '\t')) {
		end--;
	}

	return value.slice(0, end);
}

function unquoteYamlScalar(value: string): string {
	if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) {
		return value.slice(1, -1).replaceAll("''", "'");
	}

	if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
		try {
			return JSON.parse(value) as string;
		} catch {
			return value.slice(1, -1);
		}
	}

	return value;
}

function readHead(path: string): string | undefined {
	let descriptor: number | undefined;
	try {
		descriptor = openSync(path, 'r');
		const buffer = Buffer.alloc(sidecarBytes);
		const length = readSync(descriptor, buffer, 0, sidecarBytes, 0);
		return buffer.toString('utf8', 0, length);
	} catch {
		return undefined;
	} finally {
		if (descriptor !== undefined) {
			closeSync(descriptor);
		}
	}
}

function push(units: ListedUnit[], unit: ListedUnit | undefined): void {
	if (unit) {
		units.push(unit);
	}
}
