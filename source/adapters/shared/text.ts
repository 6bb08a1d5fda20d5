/**
 * Text helpers shared by adapters: pulling text out of the content shapes agents use, reading
 * exit codes out of tool output, and recognising text a host injected into a "user" turn.
 */
import {parseBoundedJson} from '../../lib/json-depth.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function stringOf(value: unknown): string | undefined {
	return typeof value === 'string' ? value : undefined;
}

/**
 * Text of a content value: a string, or an array of blocks such as `{type:"text",text}`,
 * `{type:"input_text"|"output_text",text}` or `{text}` parts. Non-text blocks are ignored.
 */
export function textOf(content: unknown): string {
	if (typeof content === 'string') {
		return content;
	}

	if (Array.isArray(content)) {
		return content
			.map(block => {
				if (typeof block === 'string') {
					return block;
				}

				if (isRecord(block) && typeof block['text'] === 'string' && (block['type'] === undefined || (typeof block['type'] === 'string' && block['type'].endsWith('text')))) {
					return block['text'];
				}

				return '';
			})
			.filter(Boolean)
			.join('\n');
	}

	if (isRecord(content) && typeof content['text'] === 'string') {
		return content['text'];
	}

	return '';
}

/** Tool output as text: strings as they are, structured output as compact JSON. */
export function outputText(value: unknown): string {
	if (value === undefined || value === null) {
		return '';
	}

	if (typeof value === 'string') {
		return value;
	}

	const text = textOf(value);
	return text !== '' ? text : JSON.stringify(value);
}

const exitCodePatterns = [
	/^Exit code:\s*(-?\d+)/im,
	// No word boundary: some stores keep newlines as a literal backslash-n before "Exit Code".
	/Exit Code:\s*(-?\d+)/,
	/Process exited with code (-?\d+)/i,
	/The command exited with code (-?\d+)/i,
	/\bexit(?:ed)? code:?\s*(-?\d+)/i,
	/\bexit status:?\s*(-?\d+)/i,
];

/**
 * Whether the text holds "exit" in any case: what `/exit/i` tests, several times faster on long
 * outputs, found from each x (a case-insensitive regex gets no fast literal search; indexOf does).
 * Without the u flag, /i folds ASCII letters only, and `| 32` lowers exactly those four letters.
 */
function mentionsExit(text: string): boolean {
	for (const x of ['x', 'X']) {
		for (let index = text.indexOf(x, 1); index !== -1 && index + 2 < text.length; index = text.indexOf(x, index + 1)) {
			if ((text.charCodeAt(index - 1) | 32) === 101 && (text.charCodeAt(index + 1) | 32) === 105 && (text.charCodeAt(index + 2) | 32) === 116) {
				return true;
			}
		}
	}

	return false;
}

/** An exit status stated in tool output text, e.g. "Exit code: 1" or "Process exited with code 2". */
export function exitCodeFromText(text: string): number | undefined {
	// Every pattern says "exit": one pass rules out most outputs (a cold catalog scan runs this
	// over every tool output), instead of six.
	if (!mentionsExit(text)) {
		return undefined;
	}

	// The earliest statement wins, not the first pattern to match anywhere: the templates that
	// lead with their status (Codex, Cursor, Claude, Antigravity) put the command's own output,
	// which may quote another status, after it.
	let first: RegExpExecArray | undefined;
	for (const pattern of exitCodePatterns) {
		const match = pattern.exec(text);
		if (match && (first === undefined || match.index < first.index)) {
			first = match;
		}
	}

	return first ? Number(first[1]) : undefined;
}

/**
 * The status a shell template writes as its first line ("Exit code: 1" above the command's
 * output, as Cursor's Shell tool does); undefined when the text does not open with one.
 */
export function leadingExitCode(text: string): number | undefined {
	const match = /^\s*exit(?:ed)? code:?\s*(-?\d+)/i.exec(text);
	return match ? Number(match[1]) : undefined;
}

/**
 * The status a shell template writes after the command's output under its own label (gemini-cli
 * and Qwen: "Output: …", "Error: …", "Exit Code: N", "Signal: …"): the last such label is the
 * template's, an earlier one the command's output. Undefined when the last label holds no
 * number ("Exit Code: (none)" for a command ended by a signal); null when there is no label.
 */
export function trailingExitCode(text: string, label: string): number | undefined | null {
	const at = text.lastIndexOf(label);
	if (at === -1) {
		return null;
	}

	const match = /^[ \t]*(-?\d+)/.exec(text.slice(at + label.length, at + label.length + 24));
	return match ? Number(match[1]) : undefined;
}

/** Short, single-line error text for the event model (never more than 500 characters). */
export function shortError(text: string): string {
	const single = text.replaceAll(/\s+/g, ' ').trim();
	return single.length <= 500 ? single : single.slice(0, 499) + '…';
}

/**
 * Text hosts put into "user" turns that a person did not type: environment and instruction
 * injections, slash-command envelopes and their output, notifications and reminders.
 */
const injectedPrefixes = [
	'<environment_context>',
	'<user_instructions>',
	'# AGENTS.md instructions',
	'<permissions instructions>',
	'<command-message>',
	'<command-name>',
	'<local-command-stdout>',
	'<local-command-stderr>',
	'<local-command-caveat>',
	'Caveat: The messages below were generated by the user while running local commands',
	'<task-notification>',
	// Claude Code 2.0.x: a background shell's end, told to the model before <task-notification> replaced it.
	'<bash-notification>',
	'<system-reminder>',
	'<user-prompt-submit-hook>',
	'This session is being continued from a previous conversation',
	'<bash-input>',
	'<bash-stdout>',
	'<bash-stderr>',
];

/** True when `text`, leading white space aside, opens with one of `prefixes`; `caseless` expects lower-case prefixes. */
export function opensWith(text: string, prefixes: readonly string[], options: {caseless?: boolean} = {}): boolean {
	const trimmed = options.caseless ? text.trimStart().toLowerCase() : text.trimStart();
	return prefixes.some(prefix => trimmed.startsWith(prefix));
}

/**
 * The prompt claude-code-tools composes to start a session that carries on from others (its
 * rollover, its trim's note): `[SESSION LINEAGE]`, then one of its fixed openings. Claude Code
 * and Codex record it as the person's prompt; a person who quotes the marker writes on otherwise.
 */
const lineagePrompt = /^\s*\[SESSION LINEAGE\]\s*This session (?:continues from|was ROLLED OVER from|was TRIMMED from)/;

/** Host-injected text every tool shares (above), plus a tool's own `extra` openings. */
export function isInjectedText(text: string, extra: readonly string[] = []): boolean {
	return opensWith(text, injectedPrefixes) || opensWith(text, extra) || lineagePrompt.test(text);
}

/** Tool arguments stored as a JSON string become an object; a string that does not parse stays as it is. */
export function parseJsonArguments(value: unknown): unknown {
	if (typeof value !== 'string') {
		return value ?? null;
	}

	try {
		return parseBoundedJson(value);
	} catch {
		return value;
	}
}
