import type {SessionEvent} from '../events.js';
import {unreadable, type Unreadable} from '../shared/schema.js';
import {exitCodeFromText, isInjectedText, isRecord, outputText, shortError, textOf} from '../shared/text.js';
import type {DiscoveredUnit, LineState} from '../types.js';
import {claudeRecordSchema, type ClaudeRecord} from './schema.js';

/** Record types that are bookkeeping: known, readable, and carrying nothing for the event model. */
const bookkeeping = new Set([
	'file-history-snapshot',
	'progress',
	'queue-operation',
	'attachment',
	'permission-mode',
	'mode',
	'agent-name',
	'last-prompt',
	'pr-link',
	'frame-link',
	'worktree-state',
	'bridge-session',
	'started',
	'result',
	'relocated',
	'atis-latch',
]);

const interruptMarkers = ['[Request interrupted by user]', '[Request interrupted by user for tool use]'];

function isInterruptMarker(text: string): boolean {
	const trimmed = text.trim();
	return interruptMarkers.some(marker => trimmed === marker || trimmed.startsWith(marker));
}

/** Fields every event of a record shares. */
function common(record: ClaudeRecord, line: number): Omit<SessionEvent, 'kind'> {
	return {
		line,
		...(record.timestamp ? {timestamp: record.timestamp} : {}),
		...(record.uuid ? {uuid: record.uuid} : {}),
		...(record.parentUuid !== undefined ? {parent: record.parentUuid} : {}),
		...(record.isSidechain ? {sidechain: true} : {}),
	};
}

/**
 * A meta event when a record first states the session's id or working directory, or when a
 * subagent's records name the parent session (2.0.x agent files carry the parent's sessionId).
 */
function sessionFacts(record: ClaudeRecord, line: number, state: LineState, unit: DiscoveredUnit): SessionEvent[] {
	const facts: Record<string, string> = {};
	if (record.cwd && state['cwd'] !== record.cwd) {
		state['cwd'] = record.cwd;
		facts['cwd'] = record.cwd;
	}

	if (record.sessionId && state['sessionId'] !== record.sessionId) {
		state['sessionId'] = record.sessionId;
		const isAgentFile = unit.idHint?.startsWith('agent-') ?? false;
		if (isAgentFile && record.sessionId !== unit.idHint) {
			facts['parent_id'] = record.sessionId;
		} else {
			facts['id'] = record.sessionId;
		}
	}

	return Object.keys(facts).length === 0 ? [] : [{line, kind: 'meta', ...(record.timestamp ? {timestamp: record.timestamp} : {}), session: facts}];
}

function userEvents(record: ClaudeRecord, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const content = record.message?.content;
	if (record.isCompactSummary) {
		return [{...base, kind: 'summary', text: textOf(content)}];
	}

	const events: SessionEvent[] = [];
	const pushText = (text: string) => {
		if (text.trim() === '') {
			return;
		}

		if (isInterruptMarker(text)) {
			events.push({...base, kind: 'system', text: text.trim(), interrupted: true});
			return;
		}

		events.push({...base, kind: 'user', text, human: !record.isMeta && !isInjectedText(text)});
	};

	if (typeof content === 'string') {
		pushText(content);
		return events;
	}

	for (const block of content ?? []) {
		if (block.type === 'text' && typeof block['text'] === 'string') {
			pushText(block['text']);
		} else if (block.type === 'tool_result') {
			const output = outputText(block['content']);
			// On failure Claude's structured toolUseResult is a plain string such as "Error: …".
			const structured = record.toolUseResult;
			const failed = block['is_error'] === true || (typeof structured === 'string' && /^(Error|InputValidationError)\b/.test(structured));
			const exitCode = isRecord(structured) && typeof structured['exitCode'] === 'number' ? structured['exitCode'] : failed ? exitCodeFromText(output) : undefined;
			events.push({
				...base,
				kind: 'tool_result',
				result: {
					call_id: typeof block['tool_use_id'] === 'string' ? block['tool_use_id'] : null,
					is_error: failed || (exitCode !== undefined && exitCode !== 0),
					...(exitCode === undefined ? {} : {exit_code: exitCode}),
					output,
				},
			});
		}
	}

	return events;
}

function assistantEvents(record: ClaudeRecord, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const message = record.message;
	const messageId = message?.id;
	const shared = messageId ? {...base, message_id: messageId} : base;
	if (record.isApiErrorMessage) {
		const text = textOf(message?.content);
		return [{...shared, kind: 'assistant', text, error: shortError(text || 'API error')}];
	}

	const events: SessionEvent[] = [];
	const content = message?.content;
	if (typeof content === 'string') {
		return content.trim() === '' ? [] : [{...shared, kind: 'assistant', text: content}];
	}

	for (const block of content ?? []) {
		if (block.type === 'text' && typeof block['text'] === 'string' && block['text'].trim() !== '') {
			events.push({...shared, kind: 'assistant', text: block['text']});
		} else if (block.type === 'tool_use') {
			events.push({
				...shared,
				kind: 'tool_call',
				tool: {name: typeof block['name'] === 'string' ? block['name'] : 'unknown', call_id: typeof block['id'] === 'string' ? block['id'] : null, input: block['input'] ?? null},
			});
		}
	}

	return events;
}

function systemEvents(record: ClaudeRecord, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const text = typeof record.content === 'string' ? record.content : '';
	switch (record.subtype) {
		case 'compact_boundary':
			return [{...base, kind: 'system', text: text || 'Conversation compacted'}];
		case 'api_error':
		case 'error':
		case 'api_refusal':
			return [{...base, kind: 'system', text, error: shortError(text || record.subtype)}];
		case 'local_command':
		case 'informational':
			return text ? [{...base, kind: 'system', text}] : [];
		default:
			return [];
	}
}

/**
 * One Claude Code record to events. Split assistant records (one content block each, sharing
 * `message.id`) stay separate rows but carry the same `message_id`, so nothing is counted twice.
 */
export function normalizeClaudeLine(value: unknown, line: number, state: LineState, unit: DiscoveredUnit): SessionEvent[] | Unreadable | null {
	const parsed = claudeRecordSchema.safeParse(value);
	if (!parsed.success) {
		return unreadable(parsed.error);
	}

	const record = parsed.data;
	const facts = sessionFacts(record, line, state, unit);
	const base = common(record, line);
	switch (record.type) {
		case 'user':
			return [...facts, ...userEvents(record, base)];
		case 'assistant':
			return [...facts, ...assistantEvents(record, base)];
		case 'summary':
			// Written by the tool, often alone in a file: a summary is never a human turn.
			return record.summary ? [{line, kind: 'summary', text: record.summary, ...(record.leafUuid ? {parent: record.leafUuid} : {})}] : [];
		case 'system':
			return [...facts, ...systemEvents(record, base)];
		case 'custom-title':
		case 'ai-title': {
			const title = record.customTitle ?? record.aiTitle ?? record.title;
			return title ? [{line, kind: 'meta', session: {title}}] : [];
		}

		default:
			return bookkeeping.has(record.type) ? facts : null;
	}
}
