import {basename, dirname, join, posix, sep, win32} from 'node:path';
import {md5Hex} from '../../lib/hash.js';
import {listDirectory, statOrUndefined} from '../shared/fs.js';

/**
 * Cursor names each project's directory under `projects/` by its workspace path with the leading
 * separator dropped and every other character that is not a letter or digit turned into `-`
 * (`/Users/jane.doe/my-api` → `Users-jane-doe-my-api`; a Windows drive becomes its lower-case
 * letter). The name is lossy, so it never gives the path by itself: a path is the project only
 * when it spells the name, and, where Cursor's chat store names the workspace by the MD5 of its
 * path (`chats/<md5>/<session id>/`), when it also has that hash.
 */
export function cursorSlug(path: string): string {
	const drive = /^([A-Za-z]):[\\/]/.exec(path);
	const rest = drive ? `${drive[1]!.toLowerCase()}-${path.slice(3)}` : path.replace(/^[\\/]+/, '');
	return rest.replace(/[\\/]+$/, '').replaceAll(/[^A-Za-z0-9]/g, '-');
}

/** Names compare with every non-alphanumeric character as `-` (Cursor may keep `_` as it is). */
function spelled(name: string): string {
	return name.replaceAll(/[^A-Za-z0-9]/g, '-');
}

/**
 * The project directory a transcript sits in: `projects/<slug>/agent-transcripts/…`. None for
 * `projects/agent-transcripts/…` itself, where cursor-agent run outside any workspace writes (a
 * workspace `/projects` is `projects/projects/`).
 */
export function slugOfTranscript(path: string): string | undefined {
	const parts = path.split(/[\\/]/);
	const index = parts.lastIndexOf('agent-transcripts');
	const slug = index > 0 ? parts[index - 1] : undefined;
	return slug === 'projects' && parts[index - 2] !== 'projects' ? undefined : slug;
}

/** The directory `path` or one of its ancestors that spells `slug`, if any. */
export function ancestorSpelling(path: string, slug: string): string | undefined {
	const target = spelled(slug);
	const parentOf = /^[A-Za-z]:[\\/]/.test(path) ? win32.dirname : posix.dirname;
	for (let current = path.replace(/[\\/]+$/, ''); current !== '' && current !== parentOf(current); current = parentOf(current)) {
		if (spelled(cursorSlug(current)) === target) {
			return current;
		}
	}

	return undefined;
}

/** Directory walks stop here: a workspace is rarely deeper, and a slug can only be so long. */
const maxDepth = 24;

/**
 * The workspace on this machine whose path spells `slug`: the directories from the root down
 * whose names spell the slug's next words, one listing per level. Several spellings (`my-app` and
 * `my/app` both exist) are told apart by `md5` when the chat store gives it, else none is claimed.
 */
export function localWorkspace(slug: string, md5?: string): string | undefined {
	const start = slugWalkStart(slug, sep === '\\');
	if (start === undefined) {
		return undefined;
	}

	const [root, target] = start;
	const found: string[] = [];
	const walk = (directory: string, rest: string, depth: number) => {
		if (depth > maxDepth || found.length > 8) {
			return;
		}

		for (const entry of listDirectory(directory)) {
			const name = spelled(entry.name);
			if (name === '' || !rest.startsWith(name) || (rest !== name && rest[name.length] !== '-')) {
				continue;
			}

			const path = join(directory, entry.name);
			if (!entry.isDirectory() && !(entry.isSymbolicLink() && linksToDirectory(path))) {
				continue;
			}

			if (rest === name) {
				found.push(path);
			} else {
				walk(path, rest.slice(name.length + 1), depth + 1);
			}
		}
	};

	walk(root, target, 0);
	const matching = md5 === undefined ? found : found.filter(path => md5Hex(path) === md5);
	return matching.length === 1 ? matching[0] : undefined;
}

/**
 * Whether a link leads to a directory. A workspace path is spelled as the agent was given it,
 * links and all (macOS's /var and /tmp lead to /private/…): only a link whose name spells the
 * slug's next words costs this status.
 */
function linksToDirectory(path: string): boolean {
	return statOrUndefined(path)?.isDirectory() === true;
}

/**
 * Where the walk for a slug starts and the words it must spell from there. A Windows workspace's
 * slug opens with its drive letter (`C:\Users\dev` → `c-Users-dev`): on Windows the walk starts at
 * that drive's root; elsewhere it is another machine's path and there is none. Any other slug is
 * spelled from the file system's root.
 */
export function slugWalkStart(slug: string, windows: boolean): [directory: string, rest: string] | undefined {
	const drive = /^([a-z])-/.exec(slug);
	if (drive === null) {
		return [windows ? '\\' : '/', spelled(slug)];
	}

	const rest = spelled(slug.slice(2));
	return windows && rest !== '' ? [`${drive[1]!.toUpperCase()}:\\`, rest] : undefined;
}

/** `chats/<md5 of the workspace path>/<session id>/store.db` beside `projects/`, by session id. */
export type ChatStore = {readonly md5: string; readonly storeDb: string};

export function chatStores(cursorHome: string): Map<string, ChatStore> {
	const stores = new Map<string, ChatStore>();
	const chats = join(cursorHome, 'chats');
	for (const workspace of listDirectory(chats)) {
		if (!workspace.isDirectory() || !/^[0-9a-f]{32}$/.test(workspace.name)) {
			continue;
		}

		for (const session of listDirectory(join(chats, workspace.name))) {
			if (session.isDirectory()) {
				stores.set(session.name, {md5: workspace.name, storeDb: join(chats, workspace.name, session.name, 'store.db')});
			}
		}
	}

	return stores;
}

/** The Cursor home a `projects/` root belongs to, or undefined for a root given one project down. */
export function cursorHomeOf(root: string): string | undefined {
	return basename(root) === 'projects' ? dirname(root) : undefined;
}
