import type {SessionEvent} from '../../adapters/events.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/**
 * What a tool call did, read from its name and input alone: which files an edit or write
 * touched, and which shell command ran. Tool names differ by agent, so this knows the common
 * spellings (Claude, Codex, Gemini, OpenCode, Copilot, Cursor, Antigravity, VS Code).
 */
const writeTools = new Set([
	'edit',
	'write',
	'multiedit',
	'notebookedit',
	'write_file',
	'writefile',
	'replace',
	'str_replace_editor',
	'str_replace_based_edit_tool',
	'create_file',
	'createfile',
	'edit_file',
	'editfile',
	'replace_file_content',
	'write_to_file',
	'apply_patch',
	'applypatch',
	'patch',
	'multi_replace_file_content',
	'insert_edit_into_file',
	'replace_string_in_file',
	'create',
]);
const shellTools = new Set(['bash', 'shell', 'shell_command', 'exec_command', 'local_shell', 'local_shell_call', 'run_shell_command', 'run_command', 'run_in_terminal', 'terminal', 'execute_command', 'command', 'powershell', 'sh']);
const pathKeys = ['file_path', 'filePath', 'path', 'file', 'target_file', 'TargetFile', 'AbsolutePath', 'notebook_path', 'filename', 'absolute_path'];
const commandKeys = ['command', 'cmd', 'CommandLine', 'commandLine', 'script'];

function record(value: unknown): Record<string, unknown> | undefined {
	if (typeof value === 'string') {
		try {
			const parsed = parseBoundedJson(value);
			return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
		} catch {
			return undefined;
		}
	}

	return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** Paths named by an apply_patch body (`*** Update File: path` and friends). */
function patchPaths(text: string): string[] {
	return [...text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map(match => match[1]!.trim());
}

export function filesTouched(event: SessionEvent): string[] {
	if (event.kind !== 'tool_call' || !event.tool) {
		return [];
	}

	const name = event.tool.name.toLowerCase().replace(/^mcp__[^_]+__/, '');
	if (!writeTools.has(name)) {
		return [];
	}

	const input = event.tool.input;
	if (typeof input === 'string' && input.includes('*** ')) {
		return patchPaths(input);
	}

	const fields = record(input);
	if (!fields) {
		return [];
	}

	const direct = pathKeys.map(key => fields[key]).filter((value): value is string => typeof value === 'string' && value.trim() !== '');
	if (direct.length > 0) {
		return [direct[0]!];
	}

	const body = Object.values(fields).find((value): value is string => typeof value === 'string' && value.includes('*** '));
	return body ? patchPaths(body) : [];
}

export function commandOf(event: SessionEvent): string | undefined {
	if (event.kind !== 'tool_call' || !event.tool) {
		return undefined;
	}

	const name = event.tool.name.toLowerCase();
	const fields = record(event.tool.input);
	if (!shellTools.has(name) && !(fields && ('command' in fields || 'cmd' in fields) && /shell|bash|command|terminal|exec/.test(name))) {
		return undefined;
	}

	if (!fields) {
		return typeof event.tool.input === 'string' ? event.tool.input : undefined;
	}

	for (const key of commandKeys) {
		const value = fields[key];
		if (typeof value === 'string' && value.trim() !== '') {
			return value;
		}

		if (Array.isArray(value) && value.every(part => typeof part === 'string')) {
			// Codex runs ["bash", "-lc", "<script>"]: the script is the command a person would recognise.
			const parts = value as string[];
			return parts.length === 3 && /^(ba|z)?sh$/.test(parts[0]!) && parts[1] === '-lc' ? parts[2] : parts.join(' ');
		}
	}

	return undefined;
}
