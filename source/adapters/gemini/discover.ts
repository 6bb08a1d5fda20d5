import {basename, dirname, join} from 'node:path';
import {childPath, fileUnit, isDirectory, listDirectory, readSmallFile, readSmallJson} from '../shared/fs.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit} from '../types.js';
import {sha256Hex} from '../../lib/hash.js';

const mainChat = /^session-.+\.jsonl?$/;
const subagentChat = /\.jsonl?$/;

/**
 * `tmp/<project>/chats/` holds `session-<time>-<8 hex>.json|.jsonl` main chats and
 * `<parentSessionId>/<sessionId>.json|.jsonl` subagent chats (the JSON era nested them there too). The project directory is named by a
 * slug (newer builds; `.project_root` inside holds the path) or by sha256 of the path (older
 * builds); `~/.gemini/projects.json` maps paths to slugs. Other files (`logs.json`,
 * `checkpoint-*.json`, `shell_history`) are not chats. The full session id is only inside the
 * file, so a chat gets an idHint only when its id is no session's own (laterChats).
 */
export function discoverGemini(root: string): DiscoveredUnit[] {
	// A root that is itself one project directory (`--source-root ~/.gemini/tmp/<project>`).
	if (isDirectory(join(root, 'chats'))) {
		return discoverProject(root, projectPathOf(root, readRegistry(dirname(root))));
	}

	const registry = readRegistry(root);
	return listDirectory(root)
		.filter(entry => entry.isDirectory())
		.flatMap(entry => discoverProject(join(root, entry.name), projectPathOf(join(root, entry.name), registry)));
}

function discoverProject(projectDirectory: string, projectHint: string | undefined): DiscoveredUnit[] {
	const chats = join(projectDirectory, 'chats');
	const units: DiscoveredUnit[] = [];
	const entries = listDirectory(chats);
	const names = new Set(entries.map(entry => entry.name));
	const later = laterChats(entries.filter(entry => entry.isFile() && mainChat.test(entry.name)).map(entry => stemOf(entry.name)));
	for (const entry of entries) {
		const path = childPath(chats, entry.name);
		if (entry.isFile() && mainChat.test(entry.name)) {
			// On resume a legacy `.json` is rewritten to `.jsonl` beside it: one session, two files.
			if (entry.name.endsWith('.json') && names.has(`${entry.name}l`)) {
				continue;
			}

			const legacy = entry.name.endsWith('.json');
			const paths = !legacy && names.has(entry.name.slice(0, -1)) ? [path, path.slice(0, -1)] : [path];
			const stem = stemOf(entry.name);
			push(units, fileUnit(path, {projectHint, variant: legacy ? 'json' : 'jsonl', paths, ...(later.has(stem) ? {idHint: stem} : {})}));
		} else if (entry.isDirectory()) {
			push(units, ...subagentChats(path, entry.name, projectHint));
		}
	}

	return units;
}

/**
 * The subagent chats nested under a parent session id: `<sessionId>.jsonl`, or `<sessionId>.json`
 * (one document, read whole) from builds before JSONL, which already nested them there. A legacy
 * document beside its `.jsonl` rewrite is the same chat, read once (as for main chats).
 */
function subagentChats(directory: string, parentId: string, projectHint: string | undefined): Array<DiscoveredUnit | undefined> {
	const children = listDirectory(directory).filter(child => child.isFile() && subagentChat.test(child.name));
	const names = new Set(children.map(child => child.name));
	return children
		.filter(child => !(child.name.endsWith('.json') && names.has(`${child.name}l`)))
		.map(child => fileUnit(childPath(directory, child.name), {projectHint, parentIdHint: parentId, variant: child.name.endsWith('.json') ? 'json' : 'jsonl'}));
}

const stemOf = (name: string) => name.replace(/\.jsonl?$/, '');

/**
 * Main chats named after an earlier one with the same session id prefix. Before JSONL every chat
 * a process opened (its first, one after /clear, a subagent's) was recorded under the process's
 * one sessionId, in its own `session-<minute>-<id prefix>` file: the first keeps the id, each
 * later one is named by its file, or all but one would be read as older copies of a session.
 */
function laterChats(stems: readonly string[]): Set<string> {
	const later = new Set<string>();
	const prefixes = new Set<string>();
	for (const stem of [...new Set(stems)].sort()) {
		const prefix = stem.slice(stem.lastIndexOf('-') + 1);
		if (prefixes.has(prefix)) {
			later.add(stem);
		} else {
			prefixes.add(prefix);
		}
	}

	return later;
}

function push(units: DiscoveredUnit[], ...found: Array<DiscoveredUnit | undefined>): void {
	for (const unit of found) {
		if (unit) {
			units.push(unit);
		}
	}
}

/** Project directory name (slug or sha256 hash) to project path, from `~/.gemini/projects.json`. */
type Registry = Map<string, string>;

/** `{"projects": {"/abs/path": "slug"}}` beside `tmp/`; hash directories map through sha256(path). */
function readRegistry(tmpRoot: string): Registry {
	const registry: Registry = new Map();
	if (basename(tmpRoot) !== 'tmp') {
		return registry;
	}

	const value = readSmallJson(join(dirname(tmpRoot), 'projects.json'));
	const projects = isRecord(value) ? value['projects'] : undefined;
	if (!isRecord(projects)) {
		return registry;
	}

	for (const [path, slug] of Object.entries(projects)) {
		if (typeof slug === 'string') {
			registry.set(slug, path);
		}

		registry.set(sha256Hex(path), path);
	}

	return registry;
}

/** The project path: the directory's own `.project_root` marker, else the registry. */
function projectPathOf(projectDirectory: string, registry: Registry): string | undefined {
	const marker = readSmallFile(join(projectDirectory, '.project_root'))?.trim();
	return marker ? marker : registry.get(basename(projectDirectory));
}
