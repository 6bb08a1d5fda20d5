import {posix, win32} from 'node:path';
import {sha256Hex} from '../../lib/hash.js';
import {isRecord} from './text.js';
import {contentText} from './gemini-parts.js';

/**
 * The project of a Gemini CLI or Qwen Code chat whose directory names none (a Gemini hash
 * directory missing from `projects.json` or a slug directory without its `.project_root` marker;
 * every Qwen Code chat of the releases before the JSONL store). The chat itself names it:
 * `projectHash` is sha256 of the project root (formats.md §4; Qwen Code lowercases a Windows
 * root first, qwen-code `packages/core/src/utils/paths.ts` getProjectHash), so a path the chat
 * mentions (the setup context's working directory, a tool's absolute path or one of its parents)
 * is the project exactly when it has that hash. Without a hash only the setup context's own
 * statement of the working directory is taken. Both tools' legacy chat documents share this shape
 * (`messages` of `{type, content, toolCalls: [{args}]}`).
 */
const workingDirectory = [/I'm currently working in the directory:\s*(\S[^\n]*?)\s*$/m, /I'm currently working in the following directories:\s*\n\s*-\s*(\S[^\n]*?)\s*$/m];
const absolutePath = /^(?:\/|[A-Za-z]:[\\/])[^\n]*$/;
const windowsPath = /^[A-Za-z]:[\\/]/;

export function projectOfChat(messages: readonly unknown[], projectHash: string | undefined): string | undefined {
	const stated: string[] = [];
	const named: string[] = [];
	for (const message of messages) {
		if (!isRecord(message)) {
			continue;
		}

		if (message['type'] === 'user') {
			const text = contentText(message['content']);
			stated.push(...workingDirectory.flatMap(pattern => pattern.exec(text)?.[1] ?? []));
		}

		for (const call of Array.isArray(message['toolCalls']) ? message['toolCalls'] : []) {
			const args = isRecord(call) && isRecord(call['args']) ? call['args'] : {};
			named.push(...Object.values(args).filter((value): value is string => typeof value === 'string' && absolutePath.test(value) && value.length < 4096));
		}
	}

	if (projectHash === undefined) {
		return stated[0];
	}

	const hash = projectHash.toLowerCase();
	const seen = new Set<string>();
	for (const path of [...stated, ...named]) {
		for (const candidate of ancestors(path)) {
			if (seen.has(candidate)) {
				break; // Its parents were tried with it.
			}

			seen.add(candidate);
			if (hashesOf(candidate).includes(hash)) {
				return candidate;
			}
		}
	}

	return undefined;
}

/** A path's hash as either tool computes it: Qwen Code lowercases a Windows path first. */
function hashesOf(path: string): string[] {
	return windowsPath.test(path) ? [sha256Hex(path), sha256Hex(path.toLowerCase())] : [sha256Hex(path)];
}

function ancestors(path: string): string[] {
	const {dirname} = windowsPath.test(path) ? win32 : posix;
	const found: string[] = [];
	for (let current = path.replace(/(?<=.)[\\/]+$/, ''); found.length < 64; current = dirname(current)) {
		found.push(current);
		if (dirname(current) === current) {
			break;
		}
	}

	return found;
}
