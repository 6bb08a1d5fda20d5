import {isRecord, stringOf} from '../shared/text.js';
import type {CodexEvent} from './schema.js';

/**
 * `item_completed {thread_id, turn_id, item}`: a finished thread item (codex-rs/protocol/src/
 * items.rs, `TurnItem`, tagged by `type`). Legacy rollouts persist it only for Plan and Sleep
 * items; threads in Codex's paginated history mode (rollout/src/policy.rs since openai/codex#30188,
 * 0.147 on) persist every item and drop the legacy events the items replace. Each item is read
 * as the legacy events Codex itself derives from it (`TurnItem::as_legacy_events`; a command, as
 * the `exec_command_end` core still fans out beside it, openai/codex#30283), so a prompt or
 * reply is still told from its `response_item` copy (echoes.ts) and a tool's outcome from its
 * `function_call_output` (state.ts, recordResult). Reasoning, plans, hook prompts (their text is a
 * response item), web searches and image generations (response items too) give nothing.
 */
export function legacyEventsOf(item: Record<string, unknown>): CodexEvent[] {
	const id = stringOf(item['id']);
	switch (item['type']) {
		case 'UserMessage': {
			const message = userInputText(item['content']);
			const images = userInputImages(item['content'], 'image', 'image_url');
			const localImages = userInputImages(item['content'], 'local_image', 'path');
			return message.trim() === '' && images.length === 0 && localImages.length === 0 ? [] : [{type: 'user_message', message, images, local_images: localImages}];
		}

		case 'AgentMessage':
			return agentTexts(item['content']).map(message => ({type: 'agent_message', message}));
		case 'CommandExecution':
			return isFinished(item) ? [{type: 'exec_command_end', ...commandOutcome(item), ...(id ? {call_id: id} : {})}] : [];
		case 'FileChange':
			return isFinished(item) ? [fileChangeEnd(item, id)] : [];
		case 'McpToolCall':
			return mcpEnd(item, id);
		case 'DynamicToolCall':
			return isFinished(item) ? [dynamicEnd(item, id)] : [];
		case 'ContextCompaction':
			return [{type: 'context_compacted'}];
		default:
			return [];
	}
}

/** Text inputs concatenated as Codex's legacy `user_message` has them; images (listed apart) and mentions left out. */
function userInputText(content: unknown): string {
	if (!Array.isArray(content)) {
		return '';
	}

	return content.map(input => (isRecord(input) && input['type'] === 'text' ? (stringOf(input['text']) ?? '') : '')).join('');
}

/**
 * The images among a prompt's inputs, as the legacy `user_message` lists them: `image` inputs'
 * URLs in `images`, `local_image` inputs' paths in `local_images` (codex-rs protocol UserInput).
 */
function userInputImages(content: unknown, type: string, field: string): string[] {
	if (!Array.isArray(content)) {
		return [];
	}

	return content.flatMap(input => (isRecord(input) && input['type'] === type && typeof input[field] === 'string' ? [input[field]] : []));
}

/** An agent message's `Text` parts: one legacy `agent_message` each. */
function agentTexts(content: unknown): string[] {
	if (!Array.isArray(content)) {
		return [];
	}

	return content.flatMap(part => (isRecord(part) && typeof part['text'] === 'string' && part['text'].trim() !== '' ? [part['text']] : []));
}

/** Items are written once finished; a status still under way (or none, for a FileChange) is no outcome. */
function isFinished(item: Record<string, unknown>): boolean {
	const status = stringOf(item['status']);
	return status !== undefined && status !== 'inProgress' && status !== 'in_progress';
}

/** Core's item is camelCase (`exitCode`, `aggregatedOutput`); builds before that wrote snake_case. */
function field(item: Record<string, unknown>, camel: string, snake: string): unknown {
	return item[camel] ?? item[snake];
}

function commandOutcome(item: Record<string, unknown>): Omit<CodexEvent, 'type'> {
	const exitCode = field(item, 'exitCode', 'exit_code');
	const outcome: Omit<CodexEvent, 'type'> = {status: stringOf(item['status'])};
	if (typeof exitCode === 'number') {
		outcome.exit_code = exitCode;
	}

	for (const [key, camel, snake] of [
		['aggregated_output', 'aggregatedOutput', 'aggregated_output'],
		['formatted_output', 'formattedOutput', 'formatted_output'],
		['stdout', 'stdout', 'stdout'],
		['stderr', 'stderr', 'stderr'],
	] as const) {
		const value = stringOf(field(item, camel, snake));
		if (value !== undefined) {
			outcome[key] = value;
		}
	}

	return outcome;
}

/** `FileChangeItem::as_legacy_end_event`: `success` is a completed status. */
function fileChangeEnd(item: Record<string, unknown>, id: string | undefined): CodexEvent {
	const status = stringOf(item['status']);
	return {type: 'patch_apply_end', status, success: status === 'completed', stdout: stringOf(item['stdout']), stderr: stringOf(item['stderr']), ...(id ? {call_id: id} : {})};
}

/** `McpToolCallItem::as_legacy_end_event`: its result, else its error; neither is no outcome yet. */
function mcpEnd(item: Record<string, unknown>, id: string | undefined): CodexEvent[] {
	const call = {...(id ? {call_id: id} : {}), invocation: {server: item['server'], tool: item['tool'], arguments: item['arguments']}};
	if (isRecord(item['result'])) {
		return [{type: 'mcp_tool_call_end', result: {Ok: item['result']}, ...call}];
	}

	const error = item['error'];
	if (isRecord(error) || typeof error === 'string') {
		return [{type: 'mcp_tool_call_end', result: {Err: isRecord(error) ? (stringOf(error['message']) ?? 'Error') : error}, ...call}];
	}

	return [];
}

/** `DynamicToolCallItem`, read as the `dynamic_tool_call_response` it stands for: `success`, else its failed status. */
function dynamicEnd(item: Record<string, unknown>, id: string | undefined): CodexEvent {
	const success = typeof item['success'] === 'boolean' ? item['success'] : stringOf(item['status']) !== 'failed';
	const error = stringOf(item['error']);
	return {type: 'dynamic_tool_call_response', success, content_items: field(item, 'contentItems', 'content_items'), ...(error ? {error} : {}), ...(id ? {call_id: id} : {})};
}

/** Where a command came from (`ExecCommandSource`): the model's own startups may run inside a code-mode cell. */
const modelCommandSources = new Set(['agent', 'unified_exec_startup', 'unifiedExecStartup']);

/**
 * What a CommandExecution item adds: the outcome of a call read before (`known`), or a command a
 * code-mode `exec` cell ran (`unseen`): the model called only the cell, so no response item names
 * this command and the item is its only record. A command the person ran (`user_shell`, also a
 * `<user_shell_command>` injection) or input sent to a running one adds nothing.
 */
export function commandItemRole(item: Record<string, unknown>, knownCalls: Record<string, true> | undefined): 'known' | 'unseen' | undefined {
	const id = stringOf(item['id']);
	if (id === undefined) {
		return undefined;
	}

	// Own keys only: an id such as `constructor` is no call read before.
	if (knownCalls !== undefined && Object.hasOwn(knownCalls, id)) {
		return 'known';
	}

	const source = stringOf(item['source']);
	return source === undefined || modelCommandSources.has(source) ? 'unseen' : undefined;
}
