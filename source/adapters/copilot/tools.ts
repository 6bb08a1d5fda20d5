import type {SessionEvent} from '../events.js';
import {mediaNote, withNoteLines} from '../shared/media.js';
import {rememberId} from '../shared/recent-ids.js';
import {exitCodeFromText, isRecord, outputText, parseJsonArguments, stringOf} from '../shared/text.js';
import type {CopilotTool} from './schema.js';
import type {CopilotState} from './state.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * The status line Copilot's shell tools end their output with: `<exited with exit code N>`, and
 * in newer builds `<shellId: ID completed with exit code N>`.
 */
const exitedLine = /<(?:exited|shellId: [^>\n]{0,200} completed) with exit code (-?\d+)>/g;

/**
 * A tool call, once: Copilot records a call both in `assistant.message.toolRequests` and in
 * `tool.execution_start`, in either order; the second mention of an id gives nothing.
 */
export function toolCallEvent(state: CopilotState, base: Base, callId: string | undefined, name: string | undefined, input: unknown): SessionEvent[] {
	if (callId !== undefined) {
		const calls = (state.calls ??= {});
		if (calls[callId]) {
			return [];
		}

		// The name, so the call's result knows whether it is a shell's (shellTool).
		rememberId(calls, callId, name ?? true);
	}

	return [{...base, kind: 'tool_call', tool: {name: name ?? 'unknown', call_id: callId ?? null, input: parseJsonArguments(input)}}];
}


/**
 * Tools that run commands: Copilot CLI's bash or powershell and the ones that read, write, stop or
 * list their shells; in VS Code's transcripts of the same events, its terminal tools
 * (`run_in_terminal`, `get_terminal_output`).
 */
const shellToolName = /bash|powershell|shell|terminal|command/i;

/**
 * Whether a result may state a shell's exit status in its text: its call was a shell tool's. A
 * call not seen (or remembered, from a state cached before names were kept, only as seen) may be.
 */
function mayStateExit(state: CopilotState, callId: string | undefined): boolean {
	const name = callId === undefined ? undefined : state.calls?.[callId];
	return typeof name !== 'string' || shellToolName.test(name);
}

/**
 * `tool.execution_complete`: `success:false` is a failure. The exit status is a shell block of
 * `result.contents` (newer builds), else only in text: the shell tool's trailing
 * `<exited with exit code N>` line, or (for a failure) a phrase such as "exit code: 1" in the
 * result or error message. Another tool's output (a file `view` read, a search's matches) may
 * quote such a line: it states no status.
 */
export function toolResultEvent(state: CopilotState, base: Base, tool: CopilotTool): SessionEvent {
	const content = resultText(tool.result);
	rememberBackgroundWork(state, tool.toolCallId, content);
	const errorMessage = isRecord(tool.error) ? stringOf(tool.error['message']) : stringOf(tool.error);
	const failed = tool.success === false;
	const output = content || errorMessage || '';
	const stated = mayStateExit(state, tool.toolCallId) ? lastExitedCode(output) : undefined;
	const exitCode =
		executionExitCode(tool.shellExecution) ??
		shellExitCode(tool.result) ??
		stated ??
		(failed ? exitCodeFromText([content, errorMessage].filter(Boolean).join('\n')) : undefined);
	return {
		...base,
		kind: 'tool_result',
		result: {
			call_id: tool.toolCallId ?? null,
			is_error: failed || (exitCode !== undefined && exitCode !== 0),
			...(exitCode === undefined ? {} : {exit_code: exitCode}),
			output: failed && errorMessage && content && !content.includes(errorMessage) ? `${content}\n${errorMessage}` : output,
		},
	};
}

/**
 * `result` is `{content, detailedContent?, contents?}`; `content` is text (or, rarely, content
 * blocks). The images, audio and binary resources a tool returned are only among the structured
 * `contents` blocks (a viewed picture, a browser screenshot, `content` then a line or nothing):
 * each is noted after the text, its bytes never copied.
 */
function resultText(result: unknown): string {
	if (isRecord(result)) {
		const blocks = Array.isArray(result['contents']) ? (result['contents'] as unknown[]) : [];
		return withNoteLines(outputText(result['content']), blocks.flatMap(block => mediaNote(block) ?? []));
	}

	return outputText(result);
}

/**
 * The exit code newer builds state beside a shell call's result, `shellExecution: {exitCode}`.
 * They report the call a success whatever the command's status, so this is where a failure shows.
 */
function executionExitCode(execution: unknown): number | undefined {
	const code = isRecord(execution) ? execution['exitCode'] : undefined;
	return Number.isInteger(code) ? (code as number) : undefined;
}

/** Blocks of `result.contents` that state a shell command's exit: `shell_exit`, and the deprecated `terminal`. */
const shellBlockTypes = new Set(['shell_exit', 'terminal']);

/**
 * The exit code the last shell block of `result.contents` states. `content` is the text sent
 * to the model, which Copilot may truncate, so its status line can be missing where this
 * structured code is not.
 */
function shellExitCode(result: unknown): number | undefined {
	const blocks = isRecord(result) ? result['contents'] : undefined;
	if (!Array.isArray(blocks)) {
		return undefined;
	}

	let code: number | undefined;
	for (const block of blocks) {
		if (isRecord(block) && shellBlockTypes.has(block['type'] as string) && Number.isInteger(block['exitCode'])) {
			code = block['exitCode'] as number;
		}
	}

	return code;
}

function lastExitedCode(text: string): number | undefined {
	if (!text.includes(' with exit code ')) {
		return undefined; // Far cheaper than the regex over long outputs that lack it.
	}

	let code: number | undefined;
	for (const match of text.matchAll(exitedLine)) {
		code = Number(match[1]);
	}

	return code;
}

/**
 * What a call that went to the background says of it: an async shell's
 * `<command started in background with shellId: ID>`, a background `task`'s
 * `Agent started in background with agent_id: ID. You can use read_agent …`.
 */
const startedInBackground = /<command started in background with shellId: ([^>\s]{1,200})>|^Agent started in background with agent_id: ([^\s.]{1,200})/;

/** Notes the call that started a background shell or agent, so the notice of its end finds it. */
function rememberBackgroundWork(state: CopilotState, callId: string | undefined, content: string): void {
	if (callId === undefined || !content.includes('started in background')) {
		return;
	}

	const started = startedInBackground.exec(content);
	const key = started?.[1] !== undefined ? `shell:${started[1]}` : started?.[2] !== undefined ? `agent:${started[2]}` : undefined;
	if (key !== undefined) {
		rememberId((state.background ??= {}), key, callId);
	}
}

type BackgroundEnd = {key: string; failed: boolean; exitCode?: number; output: string};

/**
 * `system.notification` `kind`s that report background work ended: `shell_completed`
 * `{shellId, exitCode?, description?}` and `agent_completed` `{agentId, status, description?}`.
 * A shell's end without an exit code (a detached one's) states no outcome.
 */
function backgroundEndOf(kind: Record<string, unknown>): BackgroundEnd | undefined {
	const description = stringOf(kind['description']);
	const named = description ? `"${description}" ` : '';
	if (kind['type'] === 'shell_completed' && typeof kind['shellId'] === 'string' && Number.isInteger(kind['exitCode'])) {
		const exitCode = kind['exitCode'] as number;
		return {key: `shell:${kind['shellId']}`, failed: exitCode !== 0, exitCode, output: `Background shell ${named}completed with exit code ${exitCode}`};
	}

	const status = kind['status'];
	if (kind['type'] === 'agent_completed' && typeof kind['agentId'] === 'string' && (status === 'completed' || status === 'failed')) {
		return {key: `agent:${kind['agentId']}`, failed: status === 'failed', output: `Background agent ${named}${status}`};
	}

	return undefined;
}

/**
 * A notice that a shell or agent the agent started in the background has ended. Its call's own
 * result said only that it started, so this is the call's outcome. A notice for work no
 * background call started (a sync shell's) says nothing of a call; each call ends once.
 */
export function backgroundWorkEnd(state: CopilotState, base: Base, kind: unknown): SessionEvent[] {
	const end = isRecord(kind) ? backgroundEndOf(kind) : undefined;
	const callId = end === undefined ? undefined : state.background?.[end.key];
	const ended = (state.backgroundEnds ??= {});
	if (end === undefined || callId === undefined || Object.hasOwn(ended, callId)) {
		return [];
	}

	rememberId(ended, callId, callId);
	return [{...base, kind: 'tool_result', result: {call_id: callId, is_error: end.failed, ...(end.exitCode === undefined ? {} : {exit_code: end.exitCode}), output: end.output}}];
}
