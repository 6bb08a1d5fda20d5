import {join} from 'node:path';
import {childPath, fileUnit, isDirectory, listDirectory} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

/** `<sessionId>.jsonl`, the id a UUID with or without dashes. */
const chatFile = /^([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12})\.jsonl$/i;

/** Where Qwen Code moves a chat it archives: out of the list it resumes from, still a session. */
const archiveDirectory = 'archive';

/**
 * `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`, and archived chats in
 * `chats/archive/<sessionId>.jsonl`. The directory name is lossy, so it states no project: the
 * records carry `cwd`. Subagent records are inlined in their parent's chat (`isSidechain`), so
 * every chat is its own session. Sidecars beside a chat (`<id>.worktree.json`,
 * `<id>.ledger.jsonl`) are not named by the id alone and are not chats.
 */
export function discoverQwen(root: string): DiscoveredUnit[] {
	// A root that is itself one project directory (`--source-root ~/.qwen/projects/<dir>`).
	const projects = isDirectory(join(root, 'chats')) ? [root] : listDirectory(root).filter(entry => entry.isDirectory()).map(entry => join(root, entry.name));
	return projects.flatMap(project => {
		const chats = join(project, 'chats');
		return [...chatUnits(chats), ...chatUnits(join(chats, archiveDirectory))];
	});
}

function chatUnits(directory: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	for (const entry of listDirectory(directory)) {
		const match = entry.isFile() ? chatFile.exec(entry.name) : null;
		const unit = match?.[1] ? fileUnit(childPath(directory, entry.name), {idHint: match[1]}) : undefined;
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}
