import {mediaNote, withNoteLines} from './media.js';
import {exitCodeFromText, isRecord, opensWith, outputText, parseJsonArguments} from './text.js';

/**
 * Helpers for Gemini API content (`PartListUnion`: a string, one `Part`, or a list of parts),
 * shared by the Gemini CLI and Qwen Code adapters (Qwen Code is a Gemini CLI fork).
 */
export type Part = Record<string, unknown>;

/** The content as a list of parts; a bare string becomes one text part. */
export function partsOf(content: unknown): Part[] {
	if (typeof content === 'string') {
		return [{text: content}];
	}

	if (Array.isArray(content)) {
		return content.flatMap(item => (typeof item === 'string' ? [{text: item}] : isRecord(item) ? [item] : []));
	}

	return isRecord(content) ? [content] : [];
}

/** A visible text part: reasoning parts (`thought: true`) are never shown. */
export function visibleText(part: Part): string | undefined {
	return typeof part['text'] === 'string' && part['thought'] !== true ? part['text'] : undefined;
}

/**
 * A part as text: its visible text, or a note of the media it holds (`[image: image/png]` for an
 * `inlineData` part), whose base64 payload is never copied.
 */
export function partText(part: Part): string | undefined {
	return visibleText(part) ?? mediaNote(part);
}

/**
 * Text with a note of each media part of some content after it, one a line: a prompt's attached
 * image keeps a sign of itself where the text shown is only what was typed.
 */
export function withMediaNotes(text: string, content: unknown): string {
	return withNoteLines(text, partsOf(content).flatMap(part => mediaNote(part) ?? []));
}

/**
 * The visible text of some content. Parts are joined without a separator, as the tools do
 * themselves (`partListUnionToString`): streamed text may be split mid-sentence.
 */
export function contentText(content: unknown): string {
	return partsOf(content)
		.map(part => visibleText(part) ?? '')
		.join('');
}

export type FunctionResponse = {
	readonly id: string | undefined;
	readonly name: string | undefined;
	readonly output: string;
	/** The response carried an `error` (the tool failed), as opposed to an `output`. */
	readonly failed: boolean;
};

/** A `functionResponse` part's id, name and output text; undefined for any other part. */
export function functionResponseOf(part: Part): FunctionResponse | undefined {
	const response = part['functionResponse'];
	if (!isRecord(response)) {
		return undefined;
	}

	const payload = response['response'];
	const error = isRecord(payload) ? payload['error'] : undefined;
	const failed = error !== undefined && error !== null && error !== '' && error !== false;
	const errorText = !failed ? '' : isRecord(error) && typeof error['message'] === 'string' ? error['message'] : outputText(error);
	const output = isRecord(payload) && 'output' in payload ? outputText(payload['output']) : failed || isEmptyRecord(payload) ? '' : outputText(payload);
	return {
		id: typeof response['id'] === 'string' ? response['id'] : undefined,
		name: typeof response['name'] === 'string' ? response['name'] : undefined,
		output: [output === '' ? errorText : output, ...nestedPartTexts(response['parts'])].filter(Boolean).join('\n'),
		failed,
	};
}

/**
 * The response's own `parts`: where gemini-cli (for models that take multimodal function
 * responses) and qwen-code put the media a tool returned, noted, never copied.
 */
function nestedPartTexts(parts: unknown): string[] {
	return Array.isArray(parts) ? parts.flatMap(part => (isRecord(part) ? (partText(part) ?? []) : [])) : [];
}

/**
 * A tool response turn's `functionResponse` parts, each with the text of the parts after it (what
 * a tool returned beside its response, as read_many_files returns the files after it, and a note
 * of each media part, as gemini-cli returns a read image for models without multimodal function
 * responses) joined into
 * its output; `leading` is the text before any response, which answers no call. Gemini CLI and
 * Qwen Code record such turns alike.
 */
export function responseTurnOf(parts: readonly Part[]): {responses: FunctionResponse[]; leading: string} {
	const answers: Array<{response: FunctionResponse; texts: string[]}> = [];
	let leading = '';
	for (const part of parts) {
		const response = functionResponseOf(part);
		if (response) {
			answers.push({response, texts: [response.output]});
		} else if (answers.length > 0) {
			answers.at(-1)!.texts.push(partText(part) ?? '');
		} else {
			leading += visibleText(part) ?? '';
		}
	}

	return {responses: answers.map(({response, texts}) => ({...response, output: texts.filter(Boolean).join('\n')})), leading};
}

function isEmptyRecord(value: unknown): boolean {
	return isRecord(value) && Object.keys(value).length === 0;
}

/** A `functionCall` part's id, name and arguments; undefined for any other part. */
export function functionCallOf(part: Part): {id: string | undefined; name: string; input: unknown} | undefined {
	const call = part['functionCall'];
	if (!isRecord(call)) {
		return undefined;
	}

	return {
		id: typeof call['id'] === 'string' ? call['id'] : undefined,
		name: typeof call['name'] === 'string' && call['name'] !== '' ? call['name'] : 'unknown',
		input: parseJsonArguments(call['args']),
	};
}

/**
 * Text the tools inject into user turns: the session context at start, a compression's
 * snapshot, hook output (gemini-cli records a SessionStart hook's context as a user turn of its
 * own) and, in IDE mode, the editor context sent as its own turn before a prompt, in full or as
 * a delta (`ideContext` parts in gemini-cli's client.ts).
 */
const injectedPrefixes = [
	'<session_context>',
	'This is the Gemini CLI. We are setting up the context for our chat.',
	'This is the Qwen Code. We are setting up the context for our chat.',
	'<state_snapshot>',
	'<hook_context>',
	"Here is the user's editor context as a JSON object. This is for your information only.",
	"Here is a summary of changes in the user's editor context, in JSON format. This is for your information only.",
];

/**
 * The user turn a `!` shell command leaves in the history: the CLI wraps the command the person
 * ran and its output (`addShellCommandToGeminiHistory`, gemini-cli's useExecutionLifecycle.ts and
 * Qwen Code's shellCommandProcessor.ts). It asks the model nothing, and no model turn answers it.
 */
const shellEscapeOpening = 'I ran the following shell command:\n';
const shellEscapeResult = '\n\nThis produced the following result:\n';

function isShellEscape(text: string): boolean {
	const start = text.trimStart();
	return start.startsWith(shellEscapeOpening) && start.includes(shellEscapeResult);
}

export function isToolInjectedText(text: string): boolean {
	return opensWith(text, injectedPrefixes) || isShellEscape(text);
}

/**
 * The @-file contents gemini-cli's at-command processor appends to a prompt, each block between
 * its reference markers (`REFERENCE_CONTENT_START` / `_END`); a block cut short runs to the end.
 */
const referenceStart = '--- Content from referenced files ---';
const referencedContent = /\n?--- Content from referenced files ---(?:[\s\S]*?--- End of content ---|[\s\S]*$)/g;

/**
 * What was typed in a prompt recorded expanded (builds before `displayContent`): the text without
 * its referenced-file blocks, as gemini-cli's own rewind viewer recovers it
 * (`stripReferenceContent`). Text that is nothing but such a block stays whole.
 */
export function withoutReferencedContent(text: string): string {
	if (!text.includes(referenceStart)) {
		return text;
	}

	const typed = text.replace(referencedContent, '').trim();
	return typed === '' ? text : typed;
}

/** A compression summary written into the history as a user turn. */
export function isStateSnapshot(text: string): boolean {
	return opensWith(text, ['<state_snapshot>']);
}

/** A shell tool's output states the exit status as text (`Exit Code: 1`). */
const shellTools = new Set(['run_shell_command', 'shell', 'Shell']);

export function isShellTool(name: string): boolean {
	return shellTools.has(name);
}

/**
 * The notes a shell tool returns, with no error, for a command it stopped at its timeout, so the
 * call's status is `success`: gemini-cli's inactivity timeout and Qwen Code's time limit
 * (packages/core/src/tools/shell.ts in each).
 */
const shellTimeoutNotes = ['Command was automatically cancelled because it exceeded the timeout', 'Command timed out after '];

const exitLabel = 'Exit Code:';
const signalLabel = 'Signal:';

/**
 * A shell command's exit status and whether it failed, from its output, or from the status the
 * record states (`stated`, which then decides alone). gemini-cli and Qwen write `Exit Code: N` as a
 * line of their template after `Output:` and `Error:`, so the last label is the template's and an
 * earlier one is the command's own output. The label is found without a word boundary: output
 * re-escaped by another tool keeps a literal `\\nExit Code: 1`. Text without the label (a build
 * that writes only the output) falls back to any stated status. With no exit code the template
 * still tells a failure in two cases: a command ended by a signal has `Exit Code: (none)` and the
 * signal on the `Signal:` line after it (one the command printed comes before that label), and a
 * command stopped by the inactivity timeout has only the tool's note. The output is searched for
 * the label once: a long output without one was read three times over before.
 */
export function shellOutcome(output: string, stated?: number): {exitCode: number | undefined; failed: boolean} {
	if (stated !== undefined) {
		return {exitCode: stated, failed: stated !== 0};
	}

	const exitAt = output.lastIndexOf(exitLabel);
	const exitCode = exitAt === -1 ? exitCodeFromText(output) : statedAfter(output, exitAt + exitLabel.length);
	if (exitCode !== undefined) {
		return {exitCode, failed: exitCode !== 0};
	}

	return {exitCode, failed: shellTimeoutNotes.some(note => output.startsWith(note)) || (exitAt !== -1 && endedBySignal(output, exitAt))};
}

/** The number a template label states (the text from `at` on), if it states one. */
function statedAfter(output: string, at: number): number | undefined {
	const match = /^[ \t]*(-?\d+)/.exec(output.slice(at, at + 24));
	return match ? Number(match[1]) : undefined;
}

function endedBySignal(output: string, exitAt: number): boolean {
	const signalAt = output.lastIndexOf(signalLabel);
	if (signalAt < exitAt) {
		return false;
	}

	const value = /^[ \t]*([^\n]*)/.exec(output.slice(signalAt + signalLabel.length, signalAt + 64))?.[1]?.trim() ?? '';
	return value !== '' && value !== '(none)';
}

/** Only plausible ISO-like times become event timestamps (trimmed fixtures hold placeholders). */
export function timestampOf(value: unknown): string | undefined {
	return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(Date.parse(value)) ? value : undefined;
}
