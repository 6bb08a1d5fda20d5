import type {SessionEvent} from '../events.js';
import {mediaAwareOutput, mediaNote} from '../shared/media.js';
import {exitCodeFromText, isRecord, outputText, stringOf, textOf} from '../shared/text.js';
import type {CodexEvent} from './schema.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

export type ToolResult = NonNullable<SessionEvent['result']>;

/** Lines of tool output searched for an exit status: the headers Codex puts before `Output:`. */
const headerLines = 6;

/**
 * Reads a `function_call_output`/`custom_tool_call_output` value. Versions differ: a JSON string
 * `{"output","metadata":{"exit_code"}}` (2025 shell tool), plain text opening with
 * `Exit code: N` or `Process exited with code N` (unified exec), an MCP CallToolResult as JSON,
 * an MCP tool's content blocks as JSON text or its `err: "…"` failure, an array of
 * `output_text` items, or a single content item object (2026), an opaque `encrypted_content` item
 * among them noted, never copied. A tool that returns an image
 * (view_image, an MCP screenshot) writes content items, the image an `input_image` whose
 * `image_url` is a `data:` URL: it is noted, its payload never copied.
 */
export function readToolOutput(callId: string | null, value: unknown): ToolResult {
	if (typeof value !== 'string') {
		return payloadObjectResult(callId, value) ?? plainResult(callId, mediaAwareOutput(withOpaqueItemsNoted(value)));
	}

	if (isMcpFailure(value)) {
		return {call_id: callId, is_error: true, output: value};
	}

	const blocks = mcpContentBlocks(value);
	if (blocks !== undefined) {
		return {call_id: callId, is_error: false, output: blocks};
	}

	const structured = parseJsonObject(value);
	if (structured && typeof structured['output'] === 'string' && isRecord(structured['metadata'])) {
		const exitCode = structured['metadata']['exit_code'];
		return {
			call_id: callId,
			is_error: typeof exitCode === 'number' && exitCode !== 0,
			...(typeof exitCode === 'number' ? {exit_code: exitCode} : {}),
			output: structured['output'],
		};
	}

	if (structured && Array.isArray(structured['content'])) {
		return {call_id: callId, is_error: structured['isError'] === true, output: mediaAwareOutput(structured['content'])};
	}

	if (structured && typeof structured['content'] === 'string' && typeof structured['success'] === 'boolean') {
		return plainResult(callId, structured['content'], !structured['success']);
	}

	return plainResult(callId, value);
}

/**
 * An output written as the payload's own fields, not as text: `{content, success}` (a build that
 * serialised FunctionCallOutputPayload as a struct, `is_user_feedback` beside them) or
 * `{text, exit_code}`. Its text is the output; `success: false` or a non-zero exit code is a
 * failure. A content item (it has a `type`) is not one. Undefined for any other value.
 */
function payloadObjectResult(callId: string | null, value: unknown): ToolResult | undefined {
	if (!isRecord(value) || 'type' in value) {
		return undefined;
	}

	const text = typeof value['content'] === 'string' ? value['content'] : typeof value['text'] === 'string' ? value['text'] : undefined;
	if (text === undefined) {
		return undefined;
	}

	const exitCode = typeof value['exit_code'] === 'number' && Number.isFinite(value['exit_code']) ? value['exit_code'] : undefined;
	const result = plainResult(callId, text, value['success'] === false || (exitCode !== undefined && exitCode !== 0));
	return exitCode === undefined ? result : {...result, exit_code: exitCode};
}

const encryptedNote = {type: 'input_text', text: '[encrypted content]'};

/**
 * Content items with each `{type: "encrypted_content"}` item (a blob only the model can read: an
 * encrypted mailbox message, a nested tool's model-only output; codex-rs protocol models.rs,
 * FunctionCallOutputContentItem::EncryptedContent) in the form of a note, so its payload is never
 * copied into the output, as reasoning's encrypted_content never is.
 */
function withOpaqueItemsNoted(value: unknown): unknown {
	if (isEncryptedItem(value)) {
		return [encryptedNote];
	}

	return Array.isArray(value) && value.some(isEncryptedItem) ? value.map(item => (isEncryptedItem(item) ? encryptedNote : item)) : value;
}

function isEncryptedItem(item: unknown): boolean {
	return isRecord(item) && item['type'] === 'encrypted_content';
}

/**
 * A textual result: the exit status is read only from the first few lines, where Codex writes
 * its headers, so a command that merely prints "exit code 1" in its output is not a failure.
 */
function plainResult(callId: string | null, output: string, failed = false): ToolResult {
	const exitCode = exitCodeFromText(headerOf(output));
	return {
		call_id: callId,
		is_error: failed || (exitCode !== undefined && exitCode !== 0) || isAbortedOrRejected(output) || isRefusedByCodex(output) || isUnfinishedScript(output),
		...(exitCode === undefined ? {} : {exit_code: exitCode}),
		output,
	};
}

/** The line that ends Codex's header (`Final output:` in code mode's older cells). */
const outputMarker = /^(?:Final )?Output:$/;

/**
 * Codex's header lines are short (`Chunk ID: …`, `Wall time: …`, `Process exited with code N`,
 * `Original token count: N`): only this much of an output is looked at for them, so a command
 * whose output is one long line is not searched whole for a status its own text may mention.
 */
const headerChars = 1024;

/**
 * The header Codex writes above a command's output: the lines before `Output:`, or the first few
 * lines of an output that has no such marker. What follows the marker is the command's own text.
 */
export function headerOf(output: string): string {
	const lines = output.slice(0, headerChars).split('\n', headerLines + 1);
	const end = lines.findIndex(line => outputMarker.test(line.trimEnd()));
	return lines.slice(0, end === -1 ? headerLines : end).join('\n');
}

/**
 * The status Codex puts first in a code-mode `exec` cell's output (and a `wait` on it):
 * `Script completed`, `Script failed` (the script threw; its `Script error:` follows), `Script
 * terminated` (stopped through `wait`), or `Script running with cell ID N` (yielded, not done).
 * The success flag beside it stays out of the rollout: the first line is the only sign of failure.
 */
const unfinishedScript = /^\s*Script (?:failed|terminated)\r?\nWall time /;

function isUnfinishedScript(output: string): boolean {
	return unfinishedScript.test(output);
}

/** Codex's own short outputs for a tool stopped by Esc or refused at the approval prompt. */
function isAbortedOrRejected(output: string): boolean {
	const trimmed = output.trim();
	return trimmed.length < 200 && (/^aborted\b/i.test(trimmed) || /\brejected by user\b/i.test(trimmed));
}

/**
 * An MCP call that failed before the server answered: Codex writes `err: ` and the error
 * message in Rust's debug quoting, and keeps the failure flag out of the rollout.
 */
function isMcpFailure(output: string): boolean {
	return output.startsWith('err: "');
}

/**
 * An MCP result without images (and any from builds before content items): Codex writes the
 * server's content blocks as JSON text, `[{"type":"text","text":"…"}, …]`. Their text is the
 * output, an image or audio block noted by its media type; a block of another kind stays as its
 * JSON, as Codex shows it to the model. Undefined for any other output.
 */
function mcpContentBlocks(output: string): string | undefined {
	const value = parseJson(output, '[', ']');
	if (!Array.isArray(value) || value.length === 0 || !value.every(block => isRecord(block) && typeof block['type'] === 'string')) {
		return undefined;
	}

	const blocks = value as Array<Record<string, unknown>>;
	if (!blocks.some(block => isTextBlock(block) || mediaNote(block) !== undefined)) {
		return undefined;
	}

	return blocks.map(block => (isTextBlock(block) ? String(block['text']) : (mediaNote(block) ?? JSON.stringify(block)))).join('\n');
}

function isTextBlock(block: Record<string, unknown>): boolean {
	return (block['type'] === 'text' || block['type'] === 'input_text') && typeof block['text'] === 'string';
}

/**
 * Openings of the messages Codex answers the model with when it refuses to run a tool call
 * (`FunctionCallError::RespondToModel`): the text is the whole output and no failure flag is
 * written, and late-2025 rollouts persist no `patch_apply_end` to tell. Besides a patch that does
 * not verify and arguments that do not parse: a tool it has no handler for, and a command a
 * PreToolUse hook blocked (codex-rs core tools/registry.rs, dispatch_any).
 */
const refusalOpenings = [
	'apply_patch verification failed',
	'failed to parse function arguments:',
	'unsupported call: ',
	'unsupported custom tool call: ',
	'Command blocked by PreToolUse hook: ',
	// A command that never reached an exit code: the sandbox denied it, it could not be spawned,
	// the approval policy rejected it, it timed out, or its unsandboxed retry failed (2025 builds,
	// core codex.rs handle_sandbox_error; `execution error:` still in core tools/events.rs).
	'failed in sandbox ',
	'execution error: ',
	'exec command rejected: ',
	'patch rejected: ',
	// Unified exec: a command it could not start, input it could not deliver (core
	// tools/handlers/unified_exec.rs).
	'exec_command failed: ',
	'write_stdin failed: ',
	'failed to parse write_stdin arguments: ',
	'command timed out after ',
	'retry failed: ',
	// A multi-agent tool it could not carry out (core tools/handlers collab).
	'collab spawn failed: ',
	'collab tool failed: ',
	'collab manager unavailable',
	// A question it could not put to the person, or a client's tool that never answered
	// (core tools/handlers request_user_input.rs, dynamic.rs).
	'request_user_input was cancelled before receiving a response',
	'request_user_input is unavailable in ',
	'dynamic tool call was cancelled before receiving a response',
	// An image view_image could not attach (core tools/handlers/view_image.rs).
	'unable to locate image at `',
	'unable to read image at `',
	'unable to process image at `',
	'view_image is not allowed ',
	'view_image is unavailable ',
];

/**
 * Whole outputs of that kind that name something in the middle: a multi-agent call naming an
 * agent that is gone (`agent with id <id> not found` / `is closed`), a view_image of a path that
 * is no file (`image path \`<path>\` is not a file`), an escalation the approval policy forbids
 * (`approval policy is <policy>; reject command — …`).
 */
const namedRefusals = /^(?:agent with id \S+ (?:not found|is closed)|image path `[^`\n]*` is not a file|approval policy is \w+; reject command\b.*)$/;

function isRefusedByCodex(output: string): boolean {
	return refusalOpenings.some(opening => output.startsWith(opening)) || (output.length < 4096 && namedRefusals.test(output.trim()));
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
	const value = parseJson(text, '{', '}');
	return isRecord(value) ? value : undefined;
}

/** The JSON value of a text that opens and closes with the given brackets, else undefined. */
function parseJson(text: string, open: string, close: string): unknown {
	const trimmed = text.trim();
	if (!trimmed.startsWith(open) || !trimmed.endsWith(close)) {
		return undefined;
	}

	try {
		return parseBoundedJson(trimmed);
	} catch {
		return undefined;
	}
}

/** `exec_command_end`: structured exit code and status (`completed | failed | declined`). */
export function execEndResult(event: CodexEvent): ToolResult {
	const exitCode = typeof event.exit_code === 'number' ? event.exit_code : undefined;
	const output = event.aggregated_output ?? event.formatted_output ?? joinStreams(event.stdout, event.stderr);
	return {
		call_id: event.call_id ?? null,
		is_error: (exitCode !== undefined && exitCode !== 0) || event.status === 'failed' || event.status === 'declined',
		...(exitCode === undefined ? {} : {exit_code: exitCode}),
		output: output || (event.status === 'declined' ? 'declined' : ''),
	};
}

/** `patch_apply_end`: `success:false` is a failed edit. */
export function patchEndResult(event: CodexEvent): ToolResult {
	return {
		call_id: event.call_id ?? null,
		is_error: event.success === false || event.status === 'failed' || event.status === 'declined',
		output: joinStreams(event.stdout, event.stderr),
	};
}

/** `mcp_tool_call_end`: `result` is `{Ok: CallToolResult}` or `{Err: message}`. */
export function mcpEndResult(event: CodexEvent): ToolResult {
	const result = isRecord(event.result) ? event.result : {};
	if ('Err' in result) {
		return {call_id: event.call_id ?? null, is_error: true, output: stringOf(result['Err']) ?? outputText(result['Err'])};
	}

	const ok = isRecord(result['Ok']) ? result['Ok'] : result;
	const content = ok['content'];
	const text = Array.isArray(content) && !content.some(block => mediaNote(block) !== undefined) ? textOf(content) : mediaAwareOutput(content);
	return {call_id: event.call_id ?? null, is_error: ok['isError'] === true, output: text};
}

/**
 * `dynamic_tool_call_response`: the answer of a tool the client provides (codex-rs core
 * tools/handlers/dynamic.rs). Its `success` is the only record of a failure: the
 * `function_call_output` beside it holds the content items alone. `error` says why a call got no
 * answer (cancelled).
 */
export function dynamicEndResult(event: CodexEvent): ToolResult {
	const items = Array.isArray(event.content_items) ? event.content_items : [];
	const error = typeof event.error === 'string' ? event.error : undefined;
	const output = items.map(dynamicItemText).filter(text => text !== '').join('\n');
	return {call_id: event.call_id ?? null, is_error: event.success === false || error !== undefined, output: output || (error ?? '')};
}

/** A dynamic tool's content item (`{type: "inputText", text}`, `{type: "inputImage", imageUrl}`, camelCase): its text, or a note of its image. */
function dynamicItemText(item: unknown): string {
	if (!isRecord(item)) {
		return '';
	}

	if (typeof item['text'] === 'string') {
		return item['text'];
	}

	const url = item['imageUrl'] ?? item['image_url'];
	return typeof url === 'string' ? (mediaNote({type: 'input_image', image_url: url}) ?? '[image]') : '';
}

function joinStreams(stdout: string | undefined, stderr: string | undefined): string {
	return [stdout, stderr].filter(stream => stream !== undefined && stream !== '').join('\n');
}
