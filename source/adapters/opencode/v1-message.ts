import {isRecord} from '../shared/text.js';
import type {OpencodeMessage, OpencodePart, ToolState} from './schema.js';

/**
 * OpenCode's first message format (0.1.x, session/message.ts before message-v2.ts): one file per
 * message, its parts inline (`parts`: text, reasoning, tool-invocation, file, source-url,
 * step-start) and its facts under `metadata` (`time`, `sessionID`, `error`, `assistant{modelID,
 * providerID, path, summary}`, and `tool[<call id>]{title, time, …}` beside each call). The
 * per-project trees of that time keep such files under `session/message/`: the storage migration
 * found a project's worktree only from a later message's `path.root`, so it left those trees as
 * they were, and copied such files unchanged where a project held both kinds.
 */
export type V1Message = {readonly message: OpencodeMessage; readonly parts: OpencodePart[]};

type Data = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const record = (value: unknown): Data | undefined => (isRecord(value) ? value : undefined);

/** Keys with a value only: the event model's objects never carry explicit undefined fields. */
function defined<T extends Data>(value: T): T {
	return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/** A message in the first format, read as the later message and its parts; undefined for any other shape. */
export function v1Message(raw: unknown): V1Message | undefined {
	const value = record(raw);
	const metadata = record(value?.['metadata']);
	const role = text(value?.['role']);
	if (!value || !metadata || role === undefined || !Array.isArray(value['parts']) || value['time'] !== undefined) {
		return undefined;
	}

	const time = record(metadata['time']);
	const assistant = record(metadata['assistant']);
	const path = record(assistant?.['path']);
	const error = record(metadata['error']);
	const errorData = record(error?.['data']);
	const message: OpencodeMessage = defined({
		id: text(value['id']),
		sessionID: text(metadata['sessionID']),
		role,
		time: defined({created: number(time?.['created']), completed: number(time?.['completed'])}),
		modelID: text(assistant?.['modelID']),
		providerID: text(assistant?.['providerID']),
		path: path ? defined({cwd: text(path['cwd']), root: text(path['root'])}) : undefined,
		summary: assistant?.['summary'] === true ? true : undefined,
		// A NamedError; without its name it says nothing of how the message ended.
		error: text(error?.['name']) === undefined ? undefined : defined({name: text(error?.['name']), data: errorData ? defined({message: text(errorData['message'])}) : undefined}),
	});
	const calls = record(metadata['tool']);
	return {message, parts: value['parts'].flatMap(part => v1Part(part, calls))};
}

/** One inline part as the later part type; a cited source (`source-url`) says nothing for the events. */
function v1Part(value: unknown, calls: Data | undefined): OpencodePart[] {
	const part = record(value);
	const type = text(part?.['type']);
	if (!part || type === undefined) {
		return [{type: 'unknown'}];
	}

	switch (type) {
		case 'text':
			return [{type, text: text(part['text']) ?? ''}];
		case 'reasoning':
		case 'step-start':
			return [{type}];
		case 'file':
			return [defined({type, mime: text(part['mediaType']), filename: text(part['filename']), url: text(part['url'])})];
		case 'source-url':
			return [];
		case 'tool-invocation':
			return [toolPart(record(part['toolInvocation']), calls)];
		default:
			return [{type}];
	}
}

/**
 * A tool invocation: `partial-call` (arguments still streaming) and `call` (running) were cut off
 * when nothing updated them again; `result` holds the output, or a thrown error's text. What the tool reported beside it
 * (its title, start and end, and its own metadata such as a command's exit code) is kept under
 * the message's `metadata.tool`, by call id.
 */
function toolPart(invocation: Data | undefined, calls: Data | undefined): OpencodePart {
	const callId = text(invocation?.['toolCallId']);
	// Own keys only: a hostile call id such as "__proto__" must not reach Object's prototype.
	const reported = callId !== undefined && calls && Object.hasOwn(calls, callId) ? record(calls[callId]) : undefined;
	const {title, time, ...metadata} = reported ?? {};
	const times = record(time);
	const stateName = text(invocation?.['state']);
	const input = invocation?.['args'];
	const ended = defined({start: number(times?.['start']), end: number(times?.['end'])});
	// A tool that threw still ends in a `result` (its error as text), marked `error: true` beside the call.
	const failed = stateName === 'result' && metadata['error'] === true;
	const state: ToolState = failed
		? defined({status: 'error', input, error: text(metadata['message']) ?? text(invocation?.['result']) ?? 'error', time: ended})
		: stateName === 'result'
			? defined({status: 'completed', input, output: invocation?.['result'], title: text(title), metadata, time: ended})
			: defined({status: stateName === 'call' ? 'running' : stateName === 'partial-call' ? 'pending' : stateName, input, time: defined({start: number(times?.['start'])})});
	return defined({type: 'tool', callID: callId, tool: text(invocation?.['toolName']) ?? 'unknown', state});
}
