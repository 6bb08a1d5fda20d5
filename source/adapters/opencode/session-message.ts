import {dataUrlType, mediaTypeNote} from '../shared/media.js';
import {isRecord} from '../shared/text.js';
import type {Row} from './database.js';
import {parseDataColumn} from './database-session.js';
import type {MessageInput} from './normalize.js';
import type {OpencodeMessage, OpencodePart} from './schema.js';

/**
 * OpenCode 2.x records (`session_message` rows) read as the 1.x messages and parts the
 * normaliser knows, so both kinds of row become events one way. The row's `type` column picks the
 * shape of its `data` (Session.Message.Info, packages/schema/src/session-message.ts):
 *
 * - `user`: `{text, files?}`, the person's prompt.
 * - `synthetic`, `system`, `skill`: text OpenCode injects for the model (reminders, context
 *   updates, a loaded skill's body): never a human request, as 1.x's synthetic text parts were not.
 * - `assistant`: one model step, `{agent, model{id, providerID}, content[], error?, time}`, its
 *   content `text`, `reasoning` and `tool{id, name, state}` with the call and its result together.
 * - `shell`: a command the person ran with `!`, `{shellID, command, status, exit?, output?}`.
 * - `compaction`: `{status, reason, summary}`; `idle`: a turn's end, `{outcome}`.
 * - `agent-switched`, `model-switched`, `location-switched`: settings, no conversation.
 */

type Data = Record<string, unknown>;

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
const number = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);
const record = (value: unknown): Data | undefined => (isRecord(value) ? value : undefined);

type Converted = {message: OpencodeMessage; parts: OpencodePart[]};

/** One `session_message` row as a message input; undefined when its data or type does not read. */
export function recordInput(row: Row, line: number, where: string): MessageInput | undefined {
	const data = record(parseDataColumn(row['data']));
	const type = text(row['type']) ?? text(data?.['type']);
	// Own keys only: a hostile `type` such as "constructor" must not reach Object's prototype.
	const convert = type !== undefined && Object.hasOwn(converters, type) ? converters[type] : undefined;
	if (!data || !convert) {
		return undefined;
	}

	const id = text(row['id']) ?? text(data['id']);
	const time = record(data['time']);
	const base = {
		...(id ? {id} : {}),
		...(text(row['session_id']) ? {sessionID: text(row['session_id'])} : {}),
		time: {created: number(time?.['created']) ?? number(row['time_created']), ...(number(time?.['completed']) ? {completed: number(time?.['completed'])} : {})},
	};
	const {message, parts} = convert(data, base);
	return {
		line,
		raw: {record: {...data, type, ...(id ? {id} : {})}},
		message,
		parts: parts.map((part, index) => ({part, where: `${where}: content ${index + 1}`})),
	};
}

type Base = Pick<OpencodeMessage, 'id' | 'sessionID' | 'time'>;
type Converter = (data: Data, base: Base) => Converted;

const injected: Converter = (data, base) => ({message: {...base, role: 'user'}, parts: textParts(text(data['text']), {synthetic: true})});

const settings: Converter = (_data, base) => ({message: {...base, role: 'assistant'}, parts: []});

const converters: Record<string, Converter> = {
	user: (data, base) => ({message: {...base, role: 'user'}, parts: [...textParts(text(data['text'])), ...fileParts(data['files']), ...taskRequestParts(data['taskRequests'])]}),
	synthetic: injected,
	system: injected,
	skill: injected,
	assistant: assistantMessage,
	shell: shellMessage,
	compaction: compactionMessage,
	idle: (data, base) => ({
		// OpenCode records a turn the person stopped as an idle marker with outcome "interrupted".
		message: {...base, role: 'assistant', ...(data['outcome'] === 'interrupted' ? {error: {name: 'MessageAbortedError', data: {message: 'The turn was interrupted.'}}} : {})},
		parts: [],
	}),
	'agent-switched': settings,
	'model-switched': (data, base) => {
		const model = record(data['model']);
		return {message: {...base, role: 'assistant', ...(text(model?.['id']) ? {modelID: text(model?.['id'])} : {})}, parts: []};
	},
	'location-switched': (data, base) => {
		const directory = text(record(data['location'])?.['directory']);
		return {message: {...base, role: 'assistant', ...(directory ? {path: {cwd: directory}} : {})}, parts: []};
	},
};

function textParts(value: string | undefined, flags: {synthetic?: boolean} = {}): OpencodePart[] {
	return value === undefined ? [] : [{type: 'text', text: value, ...flags}];
}

/**
 * A prompt's task requests (`taskRequests`: `{type: "task-request", prompt, description, agent,
 * command?}`), which builds that keep them write in place of 1.x's subtask parts, a command bound
 * to a subagent among them (session/message-backfill.ts, mapTaskRequestPart): read as those parts.
 */
function taskRequestParts(value: unknown): OpencodePart[] {
	return (Array.isArray(value) ? value : []).flatMap(item => {
		const request = record(item);
		if (request?.['type'] !== 'task-request') {
			return [];
		}

		const fields = {prompt: text(request['prompt']), description: text(request['description']), agent: text(request['agent']), command: text(request['command'])};
		return [{type: 'subtask', ...Object.fromEntries(Object.entries(fields).filter(([, field]) => field !== undefined))}];
	});
}

/** Prompt attachments: described by name and type; inline bodies are never copied. */
function fileParts(value: unknown): OpencodePart[] {
	return (Array.isArray(value) ? value : []).flatMap(file => {
		const attachment = record(file);
		if (!attachment) {
			return [];
		}

		const url = text(attachment['uri']) ?? text(attachment['url']);
		const name = text(attachment['name']) ?? text(attachment['filename']);
		const mime = text(attachment['mime']);
		return [{type: 'file', ...(url ? {url} : {}), ...(name ? {filename: name} : {}), ...(mime ? {mime} : {})}];
	});
}

/**
 * A structured error (`{type, message}`) as the NamedError 1.x messages carried. A step the person
 * stopped has type "aborted": OpenCode's backfill writes 1.x's MessageAbortedError so
 * (session/message-backfill.ts, mapAssistantError), and it is an interruption, not a failure.
 */
function namedError(value: unknown): OpencodeMessage['error'] {
	const error = record(value);
	if (!error) {
		return undefined;
	}

	const message = text(error['message']);
	const type = text(error['type']);
	const name = type === 'aborted' ? 'MessageAbortedError' : (type ?? text(error['name']) ?? 'UnknownError');
	return {name, ...(message ? {data: {message}} : {})};
}

function assistantMessage(data: Data, base: Base): Converted {
	const model = record(data['model']);
	const error = namedError(data['error']);
	const message: OpencodeMessage = {
		...base,
		role: 'assistant',
		...(text(model?.['id']) ? {modelID: text(model?.['id'])} : {}),
		...(text(model?.['providerID']) ? {providerID: text(model?.['providerID'])} : {}),
		...(text(data['finish']) ? {finish: text(data['finish'])} : {}),
		...(error ? {error} : {}),
	};
	const content = Array.isArray(data['content']) ? data['content'] : [];
	return {message, parts: content.map(contentPart)};
}

/** One content item of an assistant step; an item of an unknown type keeps its type and is counted. */
function contentPart(value: unknown): OpencodePart {
	const item = record(value);
	const type = text(item?.['type']) ?? 'unknown';
	if (type === 'text') {
		return {type, text: text(item?.['text']) ?? ''};
	}

	return type === 'tool' && item ? toolPart(item) : {type};
}

/**
 * A tool item: the call and, once it settled, its result. Its output is the `content` list
 * (`{type:"text", text}` items); a failed call's `error` is `{type, message}`, with whatever
 * it printed before failing in `content`. `streaming` is a call still being written.
 */
function toolPart(item: Data): OpencodePart {
	const state = record(item['state']) ?? {};
	const time = record(item['time']);
	const status = text(state['status']);
	const error = record(state['error']);
	const metadata = record(state['metadata']) ?? {};
	const printed = state['content'] ?? state['output'] ?? state['result'];
	const start = number(time?.['ran']) ?? number(time?.['created']);
	const end = number(time?.['completed']);
	const callId = text(item['callID']) ?? text(item['id']);
	return {
		type: 'tool',
		// The call's id: `id`, or `callID` where a build gives the item an id of its own.
		...(callId ? {callID: callId} : {}),
		tool: text(item['name']) ?? 'unknown',
		state: {
			status: status === 'streaming' ? 'pending' : status,
			input: state['input'],
			...(status === 'error'
				? {error: text(error?.['message']) ?? state['error'], metadata: printed === undefined ? metadata : {...metadata, output: outputOf(printed)}}
				: {output: Array.isArray(printed) ? outputOf(printed) : printed, metadata, ...attachmentsOf(state['attachments'])}),
			time: {...(start ? {start} : {}), ...(end ? {end} : {})},
		},
	};
}

/**
 * The files a completed call returned beside its content (`attachments`, `{uri, mime, name?}` in
 * builds that keep them apart: packages/core session/message.ts), as the 1.x file parts the tool
 * reader notes by their media type; their `data:` URIs are never copied.
 */
function attachmentsOf(value: unknown): {attachments?: Array<{type: 'file'; mime?: string}>} {
	const files = (Array.isArray(value) ? value : []).flatMap(item => {
		const file = record(item);
		return file ? [{type: 'file' as const, ...(text(file['mime']) ? {mime: text(file['mime'])} : {})}] : [];
	});
	return files.length === 0 ? {} : {attachments: files};
}

/**
 * A tool's `content` list as text: `{type: "text", text}` items as they are, each `{type: "file", uri,
 * mime}` item (an image the read tool loaded, a tool's snapshot) noted by its media type, since its
 * uri is usually a `data:` URI holding the file itself, never copied; a link elsewhere is kept.
 */
function outputOf(value: unknown): string {
	if (typeof value === 'string') {
		return value;
	}

	return (Array.isArray(value) ? value : []).map(contentText).filter(Boolean).join('\n');
}

function contentText(value: unknown): string {
	const item = record(value);
	if (item?.['type'] !== 'file') {
		return text(item?.['text']) ?? '';
	}

	const uri = text(item['uri']) ?? '';
	const inline = uri.startsWith('data:');
	const note = mediaTypeNote(text(item['mime']) ?? (inline ? dataUrlType(uri) : undefined));
	return inline || uri === '' ? note : `${note} ${uri}`;
}

/**
 * A command the person ran: a call of the shell and its output, as 1.x stored shell mode. Builds
 * that write no `status` (packages/core session/message.ts: `{callID, command, output, time}`) say
 * the command ended by its completion time.
 */
function shellMessage(data: Data, base: Base): Converted {
	const status = text(data['status']) ?? (base.time?.completed === undefined ? undefined : 'exited');
	const output = record(data['output']);
	const printed = text(data['output']) ?? text(output?.['output']) ?? '';
	const exit = number(data['exit']);
	const callId = text(data['shellID']) ?? text(data['callID']);
	const metadata = {...(exit === undefined ? {} : {exit}), ...(status === 'killed' ? {interrupted: true} : {})};
	const settled = status === 'exited' ? {status: 'completed', output: printed} : status === 'timeout' || status === 'killed' ? {status: 'error', error: `Command ${status}`} : {status: 'running'};
	const part: OpencodePart = {
		type: 'tool',
		...(callId ? {callID: callId} : {}),
		tool: 'shell',
		state: {...settled, input: {command: text(data['command']) ?? ''}, metadata: settled.status === 'error' && printed !== '' ? {...metadata, output: printed} : metadata},
	};
	return {message: {...base, role: 'assistant'}, parts: [part]};
}

/** A completed compaction's summary is the model's note to itself; a failed one ends in its error. */
function compactionMessage(data: Data, base: Base): Converted {
	const status = text(data['status']);
	const error = status === 'failed' ? namedError(data['error']) : undefined;
	const summary = status === 'completed' || status === undefined ? text(data['summary']) : undefined;
	return {
		message: {...base, role: 'assistant', summary: true, ...(error ? {error} : {})},
		parts: [{type: 'compaction', auto: data['reason'] !== 'manual'}, ...(summary ? textParts(summary) : [])],
	};
}
