import type {SessionEvent} from '../../../adapters/events.js';
import type {SourceId} from '../../../adapters/types.js';
import {commandOf, patchPaths, toolInputFields} from '../tool-calls.js';
import {classifyShell, joinPath, type ToolAction} from './shell.js';

/**
 * What each store calls its file tools and where their arguments keep the path, the search
 * pattern and the command: the names as the adapters normalise them (seen in the fixture stores
 * and the tools' own documentation). Names compare case-insensitively.
 */
type ToolTable = {
	readonly read: readonly string[];
	readonly write: readonly string[];
	readonly search: readonly string[];
	readonly shell: readonly string[];
	/** Argument keys holding the file a read or write is about, in order of preference. */
	readonly pathKeys: readonly string[];
	/** Argument keys holding what a search looks for. */
	readonly queryKeys: readonly string[];
	/** Argument keys holding the directory a call ran in. */
	readonly cwdKeys: readonly string[];
};

const geminiFamily: ToolTable = {
	read: ['read_file', 'read_many_files'],
	write: ['write_file', 'replace', 'edit'],
	search: ['search_file_content', 'grep', 'grep_search', 'glob'],
	shell: ['run_shell_command'],
	pathKeys: ['absolute_path', 'file_path', 'path', 'paths'],
	queryKeys: ['pattern', 'query'],
	cwdKeys: ['directory', 'dir_path', 'cwd'],
};

export const toolTables: Readonly<Record<SourceId, ToolTable>> = {
	claude: {
		read: ['Read', 'NotebookRead'],
		write: ['Write', 'Edit', 'MultiEdit', 'NotebookEdit'],
		search: ['Grep', 'Glob'],
		shell: ['Bash'],
		pathKeys: ['file_path', 'notebook_path'],
		queryKeys: ['pattern'],
		cwdKeys: [],
	},
	codex: {
		read: ['read_file', 'view_image'],
		write: ['apply_patch'],
		search: ['grep_files'],
		shell: ['exec_command', 'shell', 'shell_command', 'local_shell', 'container.exec'],
		pathKeys: ['path', 'file_path'],
		queryKeys: ['pattern', 'query'],
		cwdKeys: ['workdir', 'working_directory', 'cwd'],
	},
	gemini: geminiFamily,
	qwen: geminiFamily,
	opencode: {
		read: ['read'],
		write: ['write', 'edit', 'patch', 'multiedit'],
		search: ['grep', 'glob'],
		// 2.x renamed bash to shell, and a `!` command the person ran is a shell call too.
		shell: ['bash', 'shell'],
		pathKeys: ['filePath', 'path'],
		queryKeys: ['pattern'],
		cwdKeys: ['workdir', 'cwd'],
	},
	grok: {
		read: ['read_file', 'view_file'],
		write: ['edit_file', 'search_replace', 'write_file', 'create_file'],
		search: ['grep', 'grep_search', 'file_search', 'codebase_search'],
		// Grok Build's own name is run_terminal_command; run_terminal_cmd is an older spelling.
		shell: ['run_terminal_command', 'run_terminal_cmd', 'bash'],
		pathKeys: ['target_file', 'file_path', 'path'],
		queryKeys: ['query', 'pattern'],
		cwdKeys: ['cwd'],
	},
	copilot: {
		read: ['view'],
		write: ['edit', 'create', 'str_replace_editor', 'write'],
		search: ['grep', 'glob'],
		shell: ['bash', 'shell', 'powershell'],
		pathKeys: ['path'],
		queryKeys: ['pattern'],
		cwdKeys: [],
	},
	cursor: {
		read: ['Read', 'read_file'],
		write: ['Edit', 'Write', 'MultiEdit', 'edit_file', 'search_replace'],
		search: ['Grep', 'Glob', 'grep_search', 'file_search', 'codebase_search'],
		shell: ['Shell', 'Bash', 'run_terminal_cmd'],
		pathKeys: ['path', 'file_path', 'target_file'],
		queryKeys: ['pattern', 'query'],
		cwdKeys: ['working_directory'],
	},
	vscode: {
		read: ['copilot_readFile', 'read_file'],
		write: ['copilot_createFile', 'copilot_replaceString', 'copilot_multiReplaceString', 'copilot_insertEdit', 'copilot_applyPatch', 'create_file', 'replace_string_in_file', 'insert_edit_into_file', 'apply_patch'],
		search: ['copilot_findTextInFiles', 'copilot_findFiles', 'copilot_searchCodebase', 'grep_search', 'file_search', 'semantic_search'],
		shell: ['run_in_terminal'],
		pathKeys: ['filePath', 'path'],
		queryKeys: ['query', 'pattern'],
		cwdKeys: [],
	},
	antigravity: {
		read: ['view_file', 'view_file_outline', 'view_code_item'],
		write: ['write_to_file', 'write_file', 'replace_file_content', 'multi_replace_file_content'],
		search: ['grep_search', 'find_by_name', 'codebase_search'],
		shell: ['run_command'],
		pathKeys: ['AbsolutePath', 'TargetFile', 'File'],
		queryKeys: ['Query', 'Pattern'],
		cwdKeys: ['Cwd'],
	},
};

const has = (names: readonly string[], name: string) => names.some(candidate => candidate.toLowerCase() === name);

/** Keys that describe a call for a person and say nothing about what it read. */
const describingKeys = new Set(['description', 'toolSummary', 'explanation', 'reason', 'summary']);

/** The string values of path keys, at the top level or one list of objects down (multi-file edits). */
function pathsIn(fields: Record<string, unknown>, keys: readonly string[]): string[] {
	const found: string[] = [];
	const take = (value: unknown) => {
		if (typeof value === 'string' && value.trim() !== '') {
			found.push(value);
		} else if (Array.isArray(value)) {
			for (const item of value) {
				if (typeof item === 'string' && item.trim() !== '') {
					found.push(item);
				}
			}
		}
	};

	for (const key of keys) {
		take(fields[key]);
	}

	for (const value of Object.values(fields)) {
		if (Array.isArray(value)) {
			for (const item of value) {
				const inner = toolInputFields(item);
				if (inner) {
					for (const key of keys) {
						take(inner[key]);
					}
				}
			}
		}
	}

	return found;
}

/** The arguments that decide what a read returned (its path and range), as a comparable key. */
function readKey(name: string, fields: Record<string, unknown>, paths: readonly string[], pathKeys: readonly string[]): string {
	const rest = Object.entries(fields).filter(([key]) => !describingKeys.has(key) && !pathKeys.includes(key)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
	return JSON.stringify([name, paths, rest]);
}

/**
 * Classifies one tool call of a session in `source`: a read of files, a write, a search, a
 * status check, or something pruning leaves alone. Relative paths are resolved against the
 * call's own working directory, else the session's project, so `./src/a.ts` and
 * `/work/app/src/a.ts` are one file.
 */
export function classifyCall(source: SourceId, event: SessionEvent, project: string | undefined): ToolAction {
	if (event.kind !== 'tool_call' || !event.tool) {
		return {kind: 'other'};
	}

	const table = toolTables[source];
	const name = event.tool.name.toLowerCase();
	const fields = toolInputFields(event.tool.input) ?? {};
	const cwdArgument = table.cwdKeys.map(key => fields[key]).find((value): value is string => typeof value === 'string' && value !== '');
	const base = cwdArgument === undefined ? project : joinPath(project, cwdArgument);
	if (has(table.shell, name)) {
		const command = commandOf(event);
		return command === undefined ? {kind: 'other'} : classifyShell(command, base);
	}

	const input = event.tool.input;
	if (has(table.write, name)) {
		const patch = typeof input === 'string' ? input : Object.values(fields).find((value): value is string => typeof value === 'string' && value.includes('*** Begin Patch'));
		const paths = patch?.includes('*** ') ? patchPaths(patch) : pathsIn(fields, table.pathKeys);
		return paths.length === 0 ? {kind: 'other'} : {kind: 'write', paths: paths.map(path => joinPath(base, path))};
	}

	if (has(table.read, name)) {
		const paths = pathsIn(fields, table.pathKeys).map(path => joinPath(base, path));
		return paths.length === 0 ? {kind: 'other'} : {kind: 'read', paths, key: readKey(name, fields, paths, table.pathKeys)};
	}

	if (has(table.search, name)) {
		const query = table.queryKeys.map(key => fields[key]).find((value): value is string => typeof value === 'string') ?? (typeof input === 'string' ? input : JSON.stringify(input ?? null));
		return {kind: 'search', query, noMatchExit: false};
	}

	return {kind: 'other'};
}
