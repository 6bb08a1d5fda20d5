import {closeSync, openSync, readSync} from 'node:fs';
import {join} from 'node:path';
import {childPath, deferredFileUnit, fileUnit, isFile, listDirectory} from '../shared/fs.js';
import type {DiscoveryMemo, ListedUnit, UnitDetails} from '../types.js';
import {sessionStoreUnits} from './session-store.js';

/** workspace.yaml is a few hundred bytes; never read more than this of it. */
const sidecarBytes = 8 * 1024;

/**
 * `session-state/<sessionId>/events.jsonl` (v1.0.11+, with a `workspace.yaml` sidecar) and the
 * legacy flat `session-state/<sessionId>.jsonl`. A session directory without `events.jsonl`
 * (the sidecar alone), or with one not yet written (empty), has no transcript of its own: it is a unit only when Copilot's
 * session-store.db beside the root holds its turns (session-store.ts). The older
 * `history-session-state/` JSON format lives outside this root and is not read.
 */
export function discoverCopilot(root: string, memo?: DiscoveryMemo): ListedUnit[] {
	const units: ListedUnit[] = [];
	// Session folders without events.jsonl: their conversation may be kept only in session-store.db.
	const bare = new Set<string>();
	for (const entry of listDirectory(root)) {
		const path = childPath(root, entry.name);
		if (entry.isDirectory()) {
			const events = childPath(path, 'events.jsonl');
			// The sidecar only matters when the transcript is read, so it is looked at only then.
			const unit = deferredFileUnit(events, entry.name, () => sessionDetails(events, join(path, 'workspace.yaml')));
			// An events.jsonl not yet written holds nothing: the store may hold the session's turns.
			if (unit && unit.size > 0) {
				units.push(unit);
			} else {
				bare.add(entry.name);
			}
		} else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
			push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length), variant: 'legacy-flat'}));
		}
	}

	// A legacy flat transcript beside a bare folder is that session's; the store does not repeat it.
	for (const unit of units) {
		if (unit.variant === 'legacy-flat' && unit.idHint !== undefined) {
			bare.delete(unit.idHint);
		}
	}

	units.push(...sessionStoreUnits(root, bare, folder => workspaceCwd(join(folder, 'workspace.yaml')), memo));
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

/**
 * A top-level scalar of a small YAML file, blank as undefined: plain, single- or double-quoted,
 * or a block scalar (`|`, `>`, with chomping and indentation indicators), and the indented lines
 * that continue it. A YAML writer puts a string with line breaks in a block scalar, so the key's
 * own line then holds only the indicator; a long plain or quoted one it folds onto more lines.
 */
function yamlScalar(text: string | undefined, key: string): string | undefined {
	if (text === undefined) {
		return undefined;
	}

	// YAML breaks lines at LF, CRLF and a lone CR alike: a CR left inside a line would end up in the name.
	const lines = text.split(/\r\n?|\n/);
	const at = lines.findIndex(line => line.startsWith(`${key}:`));
	if (at < 0) {
		return undefined;
	}

	const head = withoutTrailingBlanks(lines[at]!.slice(key.length + 1)).trimStart();
	const rest = continuation(lines, at + 1);
	const value = blockIndicator.test(head)
		? rest.map(line => line.trim()).join(head.startsWith('>') ? ' ' : '\n')
		: unquoteYamlScalar([head, ...rest.map(line => line.trim())].filter(part => part !== '').join(' '));
	return value.trim() || undefined;
}

/** A block scalar's header: `|` or `>`, then an indentation digit and a chomping sign in either order. */
const blockIndicator = /^[|>](?:[1-9][-+]?|[-+][1-9]?)?(?:[ \t]+#.*)?$/;

/** The lines after a key that hold its value: the indented ones up to the next key, blank ones left out. */
function continuation(lines: string[], from: number): string[] {
	const taken: string[] = [];
	for (let index = from; index < lines.length; index++) {
		const line = lines[index]!;
		if (line.trim() !== '' && line[0] !== ' ' && line[0] !== '\t') {
			break;
		}

		if (line.trim() !== '') {
			taken.push(line);
		}
	}

	return taken;
}

/**
 * The value without the spaces and tabs that end its line. Not a lazy group before `[ \t]*$`
 * (nor `[ \t]+$`): a regex tries the run of blanks from each of its positions, so a line of
 * thousands of blanks with a character after them cost their number squared.
 */
function withoutTrailingBlanks(value: string): string {
	let end = value.length;
	while (end > 0 && (value[end - 1] === ' ' || value[end - 1] === '\t' || value[end - 1] === '\r')) {
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
