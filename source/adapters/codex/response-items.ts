import type {SessionEvent} from '../events.js';
import {mediaAwareOutput} from '../shared/media.js';
import {isRecord, outputText, parseJsonArguments, textOf} from '../shared/text.js';
import {endPromptExchange, isFirstCopy} from './echoes.js';
import {cwdFromEnvironment, itemMediaNotes, replyParts, taggedTextBlocks, userTextEvents, withImageNotes} from './messages.js';
import type {CodexResponseItem} from './schema.js';
import {recordResult, type CodexState} from './state.js';
import {readToolOutput} from './tool-output.js';
import {continuedResults, notePoll} from './continuations.js';

type Base = Omit<SessionEvent, 'kind'>;

/**
 * One Responses-API item to events: messages, tool calls and tool outputs. Messages also have
 * `event_msg` copies; whichever comes first is read (echoes.ts). Item types this adapter does
 * not know give `[]`: Codex adds them often and they are not malformed records. Reasoning
 * (summaries and encrypted blobs), ghost snapshots and compaction items are such items.
 */
export function responseItemEvents(item: CodexResponseItem, base: Base, state: CodexState, inherited = false): SessionEvent[] {
	if (item.type !== 'message') {
		endPromptExchange(state);
	}

	switch (item.type) {
		case 'message':
			return messageEvents(item, base, state, inherited);
		case 'function_call': {
			const input = parseJsonArguments(item.arguments);
			notePoll(state, qualifiedName(item), item.call_id, input);
			if (item.name === 'view_image') {
				state.viewedImage = true;
			}

			return [toolCall(base, qualifiedName(item) ?? 'unknown', item.call_id ?? null, input)];
		}

		case 'custom_tool_call':
			// Custom tools (apply_patch, …) take free-form input, kept raw.
			return [toolCall(base, qualifiedName(item) ?? 'unknown', item.call_id ?? null, item.input ?? null)];
		case 'local_shell_call':
			return [toolCall(base, 'local_shell', item.call_id ?? item.id ?? null, item.action ?? null)];
		case 'function_call_output':
		case 'custom_tool_call_output':
			return continuedResults(state, {...base, kind: 'tool_result', result: readToolOutput(item.call_id ?? null, item.output)});
		case 'local_shell_call_output':
			// The Responses API's own examples name the call in `id`; writers since, in `call_id`.
			return recordResult(state, {...base, kind: 'tool_result', result: readToolOutput(item.call_id ?? item.id ?? null, item.output)});
		case 'tool_search_call':
			return [toolCall(base, 'tool_search', toolSearchCallId(item, base, state), item.arguments ?? null)];
		case 'tool_search_output':
			return recordResult(state, {...base, kind: 'tool_result', result: {call_id: item.call_id ?? state.searches?.shift() ?? null, is_error: item.status === 'failed', output: toolNames(item.tools)}});
		case 'web_search_call':
		case 'image_generation_call':
			return hostedToolEvents(item, base);
		case 'agent_message':
			return agentMessageEvents(item, base);
		default:
			return [];
	}
}

/** `inherited`: a user message another thread's person wrote, which this one took over (normalize.ts). */
function messageEvents(item: CodexResponseItem, base: Base, state: CodexState, inherited: boolean): SessionEvent[] {
	const role = item.role ?? 'user';
	const tagged = taggedTextBlocks(item.content, item['internal_chat_message_metadata_passthrough']);
	const blocks = tagged.map(block => block.text);
	const communication = blocks.length === 1 ? interAgentCommunication(blocks[0]!) : undefined;
	if (communication) {
		return communicationEvents(communication, base, state);
	}

	const tools = contentToolEvents(item.content, base, state);
	if (role === 'assistant') {
		delete state.viewedImage;
		const said = replyParts(blocks.join('\n')).flatMap((text): SessionEvent[] =>
			text.trim() === '' || !isFirstCopy(state, 'assistant', 'item', text) ? [] : [{...base, kind: 'assistant', text, ...(item.id ? {message_id: item.id} : {})}],
		);
		return [...said, ...tools];
	}

	if (tools.length > 0) {
		endPromptExchange(state);
	}

	const events: SessionEvent[] = [];
	if (state.cwd === undefined) {
		// Bare-era rollouts state the working directory only inside the environment injection.
		const cwd = blocks.map(cwdFromEnvironment).find(found => found !== undefined);
		if (cwd !== undefined) {
			state.cwd = cwd;
			events.push({line: base.line, kind: 'meta', ...(base.timestamp ? {timestamp: base.timestamp} : {}), session: {cwd}});
		}
	}

	const subagent = state.subagent === true;
	const said = userTextEvents(blocks, base, {role, subagent, harness: tagged.map(block => inherited || block.harness)});
	// Developer and system messages have no event copy; a user message's prompt may have one.
	return [...events, ...(role === 'user' ? withImageNotes(said, itemMediaNotes(item.content), base, {subagent, viewedImage: state.viewedImage === true, firstCopy: text => isFirstCopy(state, 'user', 'item', text)}) : said), ...tools];
}

/**
 * Calls and results written as `tool_use` / `tool_result` blocks inside a message's content, the
 * shape cross_agent_session_resumer (casr) gives the tool activity of a session it converts into
 * a Codex rollout (src/providers/codex.rs, codex_response_content). Codex's own items never hold
 * such blocks, so nothing is read twice.
 */
function contentToolEvents(content: unknown, base: Base, state: CodexState): SessionEvent[] {
	if (!Array.isArray(content)) {
		return [];
	}

	return content.flatMap((block): SessionEvent[] => {
		if (!isRecord(block)) {
			return [];
		}

		if (block['type'] === 'tool_use') {
			return [toolCall(base, stringOr(block['name'], 'unknown'), stringOr(block['id'], null), block['input'] ?? null)];
		}

		if (block['type'] === 'tool_result') {
			// An image among the result (a screenshot) is noted by its media type, never copied.
			const output = typeof block['content'] === 'string' ? block['content'] : mediaAwareOutput(block['content'] ?? '');
			return recordResult(state, {...base, kind: 'tool_result', result: {call_id: stringOr(block['tool_use_id'], null), is_error: block['is_error'] === true, output}});
		}

		return [];
	});
}

/**
 * A call's tool name. Since Codex registers every MCP tool under a namespace (openai/codex#17404),
 * a call names the server in `namespace` (`mcp__<server>` or `mcp__<server>__`) and the tool in
 * `name`; joined they are the `mcp__<server>__<tool>` earlier rollouts wrote, so an MCP tool that
 * shares a name with one of Codex's own (`exec_command`, `apply_patch`) is not taken for it.
 * Codex's own namespaces (`functions`, the default, `collaboration`…) leave the name as it is.
 */
function qualifiedName(item: CodexResponseItem): string | undefined {
	const {name, namespace} = item;
	if (name === undefined || namespace === undefined || !namespace.startsWith('mcp__')) {
		return name;
	}

	return namespace.endsWith('__') ? namespace + name : `${namespace}__${name}`;
}

function stringOr<T>(value: unknown, fallback: T): string | T {
	return typeof value === 'string' && value !== '' ? value : fallback;
}

function toolCall(base: Base, name: string, callId: string | null, input: unknown): SessionEvent {
	return {...base, kind: 'tool_call', tool: {name, call_id: callId, input}};
}


/** Statuses of a hosted call still under way. */
const runningStatuses = new Set(['in_progress', 'searching', 'generating', 'pending']);

/**
 * Web search and image generation run on the model's side: one item records both the call and
 * its outcome, so it yields the call and its result, unless the item says it is still under
 * way. Rollouts write the item once its output is done, so one without a status is finished.
 */
function hostedToolEvents(item: CodexResponseItem, base: Base): SessionEvent[] {
	const name = item.type === 'web_search_call' ? 'web_search' : 'image_generation';
	const callId = item.id ?? null;
	const call = toolCall(base, name, callId, item.action ?? item.revised_prompt ?? null);
	if (item.status !== undefined && runningStatuses.has(item.status)) {
		return [{...call, pending: true}];
	}

	return [call, {...base, kind: 'tool_result', result: {call_id: callId, is_error: item.status === 'failed', output: item.revised_prompt ?? ''}}];
}

/**
 * A tool search the server runs (`execution: "server"`) has no `call_id`, nor has its output,
 * which follows the search it answers (Codex pairs searches by call_id only when the client ran
 * them). Such a search is named by its item id (or its line), and waits for the next output
 * without an id.
 */
function toolSearchCallId(item: CodexResponseItem, base: Base, state: CodexState): string {
	if (item.call_id !== undefined) {
		return item.call_id;
	}

	const id = item.id ?? `tool_search@${base.line}`;
	(state.searches ??= []).push(id);
	return id;
}

/** What a tool search found, by name (the full tool schemas are not output worth showing). */
function toolNames(tools: unknown): string {
	if (!Array.isArray(tools)) {
		return outputText(tools);
	}

	const names = tools.flatMap(tool => (isRecord(tool) && typeof tool['name'] === 'string' ? [tool['name']] : []));
	return names.join('\n');
}

type Communication = {author: string; recipient: string; content: string; trigger_turn: boolean};

/**
 * A message between agent threads as multi-agent builds deliver it into the recipient's history:
 * a message (assistant `output_text`, or `user` `input_text` when it starts a turn) whose one
 * text block is the JSON of `InterAgentCommunication` (codex-rs protocol.rs,
 * to_response_input_item). Serde writes the struct's fields in order: `author` first, or in newer
 * builds the message's optional `id` before it, so other text costs no parse.
 */
const communicationOpening = /^\{"(?:id":"[^"\\]{0,200}","author|author)":/;

function interAgentCommunication(text: string): Communication | undefined {
	if (!communicationOpening.test(text)) {
		return undefined;
	}

	try {
		return communicationOf(JSON.parse(text));
	} catch {
		return undefined;
	}
}

function communicationOf(value: unknown): Communication | undefined {
	return isRecord(value) && typeof value['author'] === 'string' && typeof value['recipient'] === 'string' && typeof value['content'] === 'string' && typeof value['trigger_turn'] === 'boolean'
		? {author: value['author'], recipient: value['recipient'], content: value['content'], trigger_turn: value['trigger_turn']}
		: undefined;
}

/**
 * An `inter_agent_communication` record: newer builds persist the communication as a rollout item
 * of its own rather than inside a message. Null when it is not one.
 */
export function communicationRecordEvents(payload: Record<string, unknown>, base: Base, state: CodexState): SessionEvent[] | null {
	const communication = communicationOf(payload);
	return communication ? communicationEvents(communication, base, state) : null;
}

/**
 * The message that starts a spawned thread's work, sent to it, is its parent agent's task (as a
 * spawned thread's user messages are); any other is a notice between agents, never a request.
 */
function communicationEvents(communication: Communication, base: Base, state: CodexState): SessionEvent[] {
	const addressed = state.agentPath === undefined || communication.recipient === state.agentPath;
	if (state.subagent && communication.trigger_turn && addressed && communication.content.trim() !== '') {
		return [{...base, kind: 'user', text: communication.content, human: false, origin: 'agent'}];
	}

	return communication.content.trim() === '' ? [] : [{...base, kind: 'system', text: `[${communication.author} → ${communication.recipient}] ${communication.content}`}];
}

/** Multi-agent (2026) messages between agent threads: shown as system text, never as a request. */
function agentMessageEvents(item: CodexResponseItem, base: Base): SessionEvent[] {
	const text = textOf(item.content) || item.message || '';
	if (text.trim() === '') {
		return [];
	}

	const route = item.author || item.recipient ? `[${item.author ?? '?'} → ${item.recipient ?? '?'}] ` : '';
	return [{...base, kind: 'system', text: route + text}];
}
