import {join} from 'node:path';
import {childPath, fileUnit, isDirectory, listDirectory} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

/** `<sessionId>.jsonl`, the id a UUID with or without dashes. */
const chatFile = /^([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12})\.jsonl$/i;
/** A chat document of the releases before the JSONL store; its full id is only inside it. */
const legacyChatFile = /^session-.+\.json$/;
/** The variant of such a document's unit (legacy.ts reads it). */
export const legacyChatVariant = 'json';

/**
 * `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`. The directory name is
 * lossy, so it states no project: the records carry `cwd`. Subagent records are inlined in
 * their parent's chat (`isSidechain`), so every chat is its own session. Releases before the
 * JSONL store wrote `tmp/<sha256 of cwd>/chats/session-*.json` documents, the same depth below
 * their root.
 */
export function discoverQwen(root: string): DiscoveredUnit[] {
	// A root that is itself one project directory (`--source-root ~/.qwen/projects/<dir>`).
	const projects = isDirectory(join(root, 'chats')) ? [root] : listDirectory(root).filter(entry => entry.isDirectory()).map(entry => join(root, entry.name));
	const units: DiscoveredUnit[] = [];
	for (const project of projects) {
		const chats = join(project, 'chats');
		for (const entry of listDirectory(chats)) {
			const match = entry.isFile() ? chatFile.exec(entry.name) : null;
			const legacy = !match && entry.isFile() && legacyChatFile.test(entry.name);
			const unit = match?.[1] ? fileUnit(childPath(chats, entry.name), {idHint: match[1]}) : legacy ? fileUnit(childPath(chats, entry.name), {variant: legacyChatVariant}) : undefined;
			if (unit) {
				units.push(unit);
			}
		}
	}

	return units;
}
