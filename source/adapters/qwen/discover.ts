import {join} from 'node:path';
import {childPath, fileUnit, isDirectory, listDirectory} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

/** `<sessionId>.jsonl`, the id a UUID with or without dashes. */
const chatFile = /^([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12})\.jsonl$/i;

/**
 * `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`. The directory name is
 * lossy, so it states no project: the records carry `cwd`. Subagent records are inlined in
 * their parent's chat (`isSidechain`), so every chat is its own session.
 */
export function discoverQwen(root: string): DiscoveredUnit[] {
	// A root that is itself one project directory (`--source-root ~/.qwen/projects/<dir>`).
	const projects = isDirectory(join(root, 'chats')) ? [root] : listDirectory(root).filter(entry => entry.isDirectory()).map(entry => join(root, entry.name));
	const units: DiscoveredUnit[] = [];
	for (const project of projects) {
		const chats = join(project, 'chats');
		for (const entry of listDirectory(chats)) {
			const match = entry.isFile() ? chatFile.exec(entry.name) : null;
			const unit = match?.[1] ? fileUnit(childPath(chats, entry.name), {idHint: match[1]}) : undefined;
			if (unit) {
				units.push(unit);
			}
		}
	}

	return units;
}
