import {closeSync, openSync, readSync} from 'node:fs';
import {join} from 'node:path';
import {childPath, fileUnit, isFile, listDirectory} from '../shared/fs.js';
import {factsBook, isOptionalString} from '../shared/memo.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';

/** workspace.yaml is a few hundred bytes; never read more than this of it. */
const sidecarBytes = 8 * 1024;

/**
 * `session-state/<sessionId>/events.jsonl` (v1.0.11+, with a `workspace.yaml` sidecar) and the
 * legacy flat `session-state/<sessionId>.jsonl`. A session directory without `events.jsonl`
 * (the sidecar alone) has no transcript and is not a unit. The older
 * `history-session-state/` JSON format lives outside this root and is not read.
 */
export function discoverCopilot(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	const book = factsBook(memo, root, isWorkspaceFacts);
	for (const entry of listDirectory(root)) {
		const path = childPath(root, entry.name);
		if (entry.isDirectory()) {
			const events = childPath(path, 'events.jsonl');
			const unit = fileUnit(events, {idHint: entry.name});
			if (unit) {
				// The sidecar only matters when the transcript is read, so it is looked at again only then.
				const workspace = join(path, 'workspace.yaml');
				const facts = book.facts(events, unit.fingerprint, () => {
					const cwd = isFile(workspace) ? (workspaceCwd(workspace) ?? null) : undefined;
					return cwd === undefined ? {workspace: false} : {workspace: true, ...(cwd === null ? {} : {cwd})};
				});
				// Set in place, not spread into a copy: in a fresh process a spread takes V8's slow path, for every unit on every call.
				unit.paths = facts.workspace ? [events, workspace] : [events];
				if (facts.cwd !== undefined) {
					unit.projectHint = facts.cwd;
				}

				units.push(unit);
			}
		} else if (entry.isFile() && entry.name.endsWith('.jsonl')) {
			push(units, fileUnit(path, {idHint: entry.name.slice(0, -'.jsonl'.length), variant: 'legacy-flat'}));
		}
	}

	book.save();
	return units;
}

const isWorkspaceFacts = (value: unknown): value is {workspace: boolean; cwd?: string} => isRecord(value) && typeof value['workspace'] === 'boolean' && isOptionalString(value['cwd']);

/** The `cwd:` scalar of workspace.yaml (plain, single- or double-quoted), read from its head. */
export function workspaceCwd(path: string): string | undefined {
	const text = readHead(path);
	const match = text === undefined ? null : /^cwd:[ \t]*(.+?)[ \t]*$/m.exec(text);
	return match?.[1] ? unquoteYamlScalar(match[1]) || undefined : undefined;
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

function push(units: DiscoveredUnit[], unit: DiscoveredUnit | undefined): void {
	if (unit) {
		units.push(unit);
	}
}
