import {existsSync} from 'node:fs';
import {basename, dirname, join} from 'node:path';
import {childPath, fileUnit, isDirectory, listDirectory, walkFiles} from '../shared/fs.js';
import type {DiscoveredUnit} from '../types.js';

/** `<sessionId>.jsonl`, the id a UUID with or without dashes. */
const chatFile = /^([0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12})\.jsonl$/i;
/** A chat document of the releases before the JSONL store; its full id is only inside it. */
const legacyChatFile = /^session-.+\.json$/;
/** The variant of such a document's unit (legacy.ts reads it). */
export const legacyChatVariant = 'json';

/** Where Qwen Code moves a chat it archives: out of the list it resumes from, still a session. */
const archiveDirectory = 'archive';

/** `agent-<agentId>.jsonl`, a subagent's transcript (not its `.meta.json` or transient `.jsonl.stream`). */
const agentFile = /^agent-[A-Za-z0-9_-]+\.jsonl$/;

/**
 * `projects/<cwd with non-alphanumerics as "-">/chats/<sessionId>.jsonl`, and archived chats in
 * `chats/archive/<sessionId>.jsonl`. The directory name is lossy, so it states no project: the
 * records carry `cwd`. Sidecars beside a chat (`<id>.worktree.json`, `<id>.ledger.jsonl`) are not
 * named by the id alone and are not chats. Subagents write their own transcripts,
 * `subagents/<sessionId>/agent-<agentId>.jsonl` beside `chats/` (qwen-code
 * packages/core/src/agents/agent-transcript.ts), each the launching session's child; their
 * records carry that session's id, so the file names the subagent. Releases before the JSONL
 * store wrote `tmp/<sha256 of cwd>/chats/session-*.json` documents, the same depth below their root.
 */
export function discoverQwen(root: string): DiscoveredUnit[] {
	// A root that is itself one project directory (`--source-root ~/.qwen/projects/<dir>`).
	const projects = isDirectory(join(root, 'chats')) ? [root] : listDirectory(root).filter(entry => entry.isDirectory()).map(entry => join(root, entry.name));
	return projects.flatMap(project => [...chatUnits(join(project, 'chats'), false), ...subagentUnits(join(project, 'subagents'))]);
}

/** Each subagent transcript under `subagents/<sessionId>/`, with its `.meta.json` sidecar where one is written. */
function subagentUnits(directory: string): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	// One level down only: a transcript directly in `subagents/` names no session. walkFiles
	// checks the directory exists first, so most projects (none) cost one status.
	for (const path of walkFiles(directory, (name, file) => agentFile.test(name) && dirname(file) !== directory, 1)) {
		const meta = path.replace(/\.jsonl$/, '.meta.json');
		const unit = fileUnit(path, {idHint: basename(path, '.jsonl'), parentIdHint: basename(dirname(path)), paths: existsSync(meta) ? [path, meta] : [path]});
		if (unit) {
			units.push(unit);
		}
	}

	return units;
}

/**
 * The chats in one directory (`inArchive`: the archive, whose chats are archived); the archive
 * beside them is listed only where the directory holds one (a warm call lists no missing directory).
 */
function chatUnits(directory: string, inArchive: boolean): DiscoveredUnit[] {
	const units: DiscoveredUnit[] = [];
	let archived: DiscoveredUnit[] = [];
	for (const entry of listDirectory(directory)) {
		if (!inArchive && entry.name === archiveDirectory && entry.isDirectory()) {
			archived = chatUnits(childPath(directory, entry.name), true);
			continue;
		}

		const match = entry.isFile() ? chatFile.exec(entry.name) : null;
		const legacy = !match && entry.isFile() && legacyChatFile.test(entry.name);
		// A chat in the archive is one the person put away: SessionService lists it only as archived
		// (sessionService.ts SessionListItem.isArchived) until unarchiving moves it back to chats/.
		const unit = match?.[1] ? fileUnit(childPath(directory, entry.name), {idHint: match[1], archived: inArchive}) : legacy ? fileUnit(childPath(directory, entry.name), {variant: legacyChatVariant, archived: inArchive}) : undefined;
		if (unit) {
			units.push(unit);
		}
	}

	return [...units, ...archived];
}
