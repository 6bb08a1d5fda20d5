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

/** A tool call's input as an object: itself, or parsed from the JSON text some stores keep. */
export function toolInputFields(value: unknown): Record<string, unknown> | undefined {
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
export function patchPaths(text: string): string[] {
	return [...text.matchAll(/^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm)].map(match => match[1]!.trim());
}

export function filesTouched(event: SessionEvent): string[] {
	if (event.kind !== 'tool_call' || !event.tool) {
		return [];
	}

	if (isCodeModeCell(event.tool)) {
		return codeModePatches(event.tool.input).flatMap(patchPaths);
	}

	const name = event.tool.name.toLowerCase().replace(/^mcp__[^_]+__/, '');
	if (!writeTools.has(name)) {
		return [];
	}

	const input = event.tool.input;
	if (typeof input === 'string' && input.includes('*** ')) {
		return patchPaths(input);
	}

	const fields = toolInputFields(input);
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

	if (isCodeModeCell(event.tool)) {
		const commands = codeModeCommands(event.tool.input);
		return commands.length === 0 ? undefined : commands.join('\n');
	}

	const name = event.tool.name.toLowerCase();
	const fields = toolInputFields(event.tool.input);
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
			// Codex runs ["bash", "-lc", "<script>"], the person's shell often by its absolute path
			// ("/bin/zsh"), with -c when not a login shell: the script is the command a person would recognise.
			const parts = value as string[];
			return parts.length === 3 && /^(?:\/[^\s]*\/)?(ba|z)?sh$/.test(parts[0]!) && (parts[1] === '-lc' || parts[1] === '-c') ? parts[2] : parts.join(' ');
		}
	}

	return undefined;
}

/**
 * Codex's code mode (0.144 on): the model calls one freeform `exec` tool whose input is a small
 * JavaScript program that calls the native tools, `await tools.exec_command({cmd: "…"})`,
 * `tools.apply_patch({patch})` with the patch in a string constant. In a rollout without the
 * items or end events of the commands it ran, the program is the only record of what the cell
 * did. Only string literals are read (a command built at run time names nothing), by a scan that
 * never backtracks. Evidence: xingkaixin/codesesh packages/core/src/agents/codex-exec-decode.ts.
 */
export function isCodeModeCell(tool: NonNullable<SessionEvent['tool']>): tool is {name: string; call_id: string | null; input: string} {
	return tool.name === 'exec' && typeof tool.input === 'string' && tool.input.includes('tools.');
}

const shellCall = /\btools\.(?:exec_command|shell_command|shell)\s*\(\s*\{\s*(?:cmd|command)\s*:\s*(?=["'`])/g;

/** The commands a cell's program runs, where a call states its command as a literal (its first field, as the model writes it). */
function codeModeCommands(program: string): string[] {
	return [...program.matchAll(shellCall)].flatMap(match => {
		const command = stringLiteralAt(program, match.index + match[0].length);
		return command === undefined || command.trim() === '' ? [] : [command];
	});
}

/** The patches a cell's program holds: every string literal that opens as one (passed inline or through a constant). */
function codeModePatches(program: string): string[] {
	if (!program.includes('tools.apply_patch')) {
		return [];
	}

	return [...program.matchAll(/["'`](?=\*\*\* Begin Patch)/g)].flatMap(match => stringLiteralAt(program, match.index) ?? []);
}

const escapes: Record<string, string> = {n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', v: '\v', '0': '\0'};

/** The value of the JavaScript string literal opening at `start`; undefined when unterminated, or a template with a substitution. */
function stringLiteralAt(program: string, start: number): string | undefined {
	const quote = program[start];
	let value = '';
	for (let index = start + 1; index < program.length; index++) {
		const char = program[index]!;
		if (char === quote) {
			return value;
		}

		if (quote === '`' && char === '$' && program[index + 1] === '{') {
			return undefined;
		}

		if (char !== '\\') {
			value += char;
			continue;
		}

		const next = program[++index] ?? '';
		const hex = next === 'u' ? /^[\da-fA-F]{4}/.exec(program.slice(index + 1, index + 5))?.[0] : next === 'x' ? /^[\da-fA-F]{2}/.exec(program.slice(index + 1, index + 3))?.[0] : undefined;
		if (hex !== undefined) {
			value += String.fromCharCode(Number.parseInt(hex, 16));
			index += hex.length;
		} else if (next !== '\n') {
			value += escapes[next] ?? next;
		}
	}

	return undefined;
}
