import {sep} from 'node:path';
import type {SessionEvent} from '../events.js';
import {epochIso} from '../shared/epoch.js';
import {readFileHead, readSmallJson} from '../shared/fs.js';
import {mediaAwareOutput, mediaNote, mediaTypeNote, notePromptMedia} from '../shared/media.js';
import {rememberId} from '../shared/recent-ids.js';
import {exitCodeFromText, isInjectedText, isRecord, leadingExitCode, parseJsonArguments, shortError, stringOf} from '../shared/text.js';
import type {DiscoveredUnit, LineState} from '../types.js';
import {ancestorSpelling, slugOfTranscript} from './projects.js';
import {readCursorMarkerLine, readCursorMessageLine} from './records.js';
import type {CursorBlock, CursorMarkerLine} from './schema.js';

/** What a person typed: Cursor wraps it in `<user_query>`; everything around it is host context. */
const userQueryPattern = /<user_query>([\s\S]*?)<\/user_query>/g;
/** Host context blocks such as `<user_info>`, `<attached_files>` or `<system_reminder>`. */
const leadingTagPattern = /^\s*<[A-Za-z_][\w-]*(?:\s[^>]*)?>/;

const interruptedStatus = /abort|cancel|interrupt|stop/i;

/**
 * Newer builds open a user turn with when it was sent, `<timestamp>Tuesday, Jul 21, 2026, 1:11
 * PM (UTC+3)</timestamp>`: the only time a transcript holds (assistant lines carry none). The
 * time may state seconds too (`1:11:07 PM`).
 */
const timestampTag = /<timestamp>([^<]{0,80})<\/timestamp>/;
const sentAt = /^[A-Za-z]+, ([A-Za-z]{3}) (\d{1,2}), (\d{4}), (\d{1,2}):(\d{2})(?::(\d{2}))? ([AP])M \(UTC(?:([+-])(\d{1,2})(?::(\d{2}))?)?\)$/;
const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The tag's English, locale-free spelling as a UTC ISO time; undefined for anything else. */
export function cursorSentAt(spelled: string): string | undefined {
	const match = sentAt.exec(spelled.trim());
	const month = match ? months.indexOf(match[1]!) : -1;
	if (!match || month === -1) {
		return undefined;
	}

	const [day, year, hour12, minute, second, offsetHours, offsetMinutes] = [match[2], match[3], match[4], match[5], match[6] ?? '0', match[9] ?? '0', match[10] ?? '0'].map(Number) as [number, number, number, number, number, number, number];
	if (day < 1 || day > 31 || hour12 < 1 || hour12 > 12 || minute > 59 || second > 59 || offsetHours > 14 || offsetMinutes > 59) {
		return undefined;
	}

	const hour = (hour12 % 12) + (match[7] === 'P' ? 12 : 0);
	const offset = (match[8] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
	const local = new Date(Date.UTC(2000, month, day, hour, minute, second));
	local.setUTCFullYear(year, month, day); // Date.UTC reads a year under 100 as 19xx: 0050 would be 1950.
	// Date.UTC rolls an impossible day (Feb 30) into the next month: such a stamp is not a time.
	return local.getUTCMonth() === month ? new Date(local.getTime() - offset * 60_000).toISOString() : undefined;
}

function contextEvent(text: string, line: number): SessionEvent[] {
	const trimmed = text.trim();
	return trimmed === '' ? [] : [{line, kind: 'user', text: trimmed, human: false}];
}

/**
 * How Cursor writes the images a prompt attached: an `[Image]` line for each, then an
 * `<image_files>` block saying the user provided them and listing, numbered, where it saved each
 * (`1. ~/.cursor/projects/<slug>/assets/image-….png`), outside the `<user_query>`.
 */
const imageFilesPattern = /<image_files>([\s\S]*?)<\/image_files>/g;
const imageMarkerPattern = /^[ \t]*\[Image\][ \t]*(?:\r?\n|$)/gm;
const listedFilePattern = /^[ \t]*\d+\.[ \t]+\S/gm;

/**
 * A user text block without the signs of its images, and a note for each image (`[image]`: the
 * block names no media type, and the saved file's path is not copied). Only outside the
 * `<user_query>`, so what the person typed stays as typed; a block without `<image_files>` is
 * left alone.
 */
function withoutImageFiles(text: string): {text: string; notes: string[]} {
	if (!text.includes('<image_files>')) {
		return {text, notes: []};
	}

	let listed = 0;
	let markers = 0;
	const strip = (segment: string) =>
		segment
			.replace(imageFilesPattern, (_block, files: string) => {
				listed += files.match(listedFilePattern)?.length ?? 0;
				return '';
			})
			.replace(imageMarkerPattern, () => {
				markers++;
				return '';
			});
	let rest = '';
	let consumed = 0;
	for (const match of text.matchAll(userQueryPattern)) {
		rest += strip(text.slice(consumed, match.index)) + match[0];
		consumed = match.index + match[0].length;
	}

	rest += strip(text.slice(consumed));
	return {text: rest, notes: Array.from({length: Math.max(listed, markers, 1)}, () => mediaTypeNote(undefined, 'image'))};
}

/**
 * A user text block. With `<user_query>` wrappers, each query is a human request and the text
 * around it is injected context. Transcripts written before the wrapper existed have plain
 * text only: that counts as typed, unless it opens with a context tag or is known host text,
 * or this file has already shown that it wraps real requests. Each image the block attached is
 * noted after its request (the last a person typed); images sent without a word are a request
 * of their own.
 */
function userTextEvents(tagged: string, line: number, state: LineState): SessionEvent[] {
	const {text, notes} = withoutImageFiles(tagged);
	const stamp = timestampTag.exec(text);
	// The tag is dropped where a <user_query> holds the request; without one, the tagged text is
	// host context as before (it opens with a tag), the time still read from it.
	const untagged = stamp && text.includes('<user_query>') ? text.slice(0, stamp.index) + text.slice(stamp.index + stamp[0].length) : text;
	const events = notePromptMedia(untimedUserTextEvents(untagged, line, state), notes, {
		isRequest: event => event.kind === 'user' && event.human === true,
		alone: said => [{line, kind: 'user', text: said, human: true}],
	});
	const timestamp = stamp ? cursorSentAt(stamp[1]!) : undefined;
	return timestamp === undefined ? events : events.map(event => ({...event, timestamp}));
}

/** A user text block without its timestamp tag (userTextEvents). */
function untimedUserTextEvents(text: string, line: number, state: LineState): SessionEvent[] {
	const events: SessionEvent[] = [];
	let consumed = 0;
	for (const match of text.matchAll(userQueryPattern)) {
		state['wrapsQueries'] = true;
		events.push(...contextEvent(text.slice(consumed, match.index), line));
		const query = (match[1] ?? '').trim();
		if (query !== '') {
			events.push({line, kind: 'user', text: query, human: !isInjectedText(query)});
		}

		consumed = match.index + match[0].length;
	}

	if (consumed > 0) {
		events.push(...contextEvent(text.slice(consumed), line));
		return events;
	}

	if (text.trim() === '') {
		return [];
	}

	const typed = state['wrapsQueries'] !== true && !leadingTagPattern.test(text) && !isInjectedText(text);
	return [{line, kind: 'user', text: text.trim(), human: typed}];
}


/** Some builds name the tool in `tool` rather than `name`. */
function toolCallEvent(block: CursorBlock, line: number, state: LineState): SessionEvent {
	const name = stringOf(block['name']) ?? stringOf(block['tool']) ?? 'unknown';
	const id = stringOf(block['id']);
	if (id !== undefined) {
		rememberCall(state, id, name);
	}

	return {line, kind: 'tool_call', tool: {name, call_id: id ?? null, input: parseJsonArguments(block['input'])}};
}

/**
 * Names of calls still awaiting their result, by call id, so a result (which names only its
 * call) knows whose output it holds. Kept in the line state, which the catalog stores between
 * scans of a growing file: a plain object, answered calls dropped, never more than a few dozen.
 */
const maxOpenCalls = 64;

function openCalls(state: LineState): Record<string, string> {
	if (!isRecord(state['openCalls'])) {
		state['openCalls'] = {};
	}

	return state['openCalls'] as Record<string, string>;
}

function rememberCall(state: LineState, id: string, name: string): void {
	rememberId(openCalls(state), id, name, maxOpenCalls);
}

function takeCall(state: LineState, id: string): string | undefined {
	const open = openCalls(state);
	if (!Object.hasOwn(open, id)) {
		return undefined;
	}

	const name = open[id];
	delete open[id];
	return typeof name === 'string' ? name : undefined;
}

/** Cursor's shell tool: `Shell` in the CLI, `run_terminal_cmd` in older builds. */
const shellTools = new Set(['Shell', 'run_terminal_cmd', 'run_terminal_command']);

/**
 * The exit status a result states. The Shell tool's template opens with it ("Exit code: N", then
 * "Command output:" and the command's output, which may quote any status); other tools have no
 * exit status, so a file read or a grep that mentions "exit code 1" is no failure. A result whose
 * call is unknown (a text transcript without it, a re-read row) is read as any stated status.
 */
function resultExitCode(name: string | undefined, output: string): number | undefined {
	if (name === undefined || name === 'unknown') {
		return exitCodeFromText(output);
	}

	return shellTools.has(name) ? (leadingExitCode(output) ?? exitCodeFromText(output)) : undefined;
}

/** Results are often absent from IDE exports; when present, the exit status can only come from text. */
function toolResultEvent(block: CursorBlock, line: number, state: LineState): SessionEvent {
	// Some builds put the result's text in `output` rather than `content`; an image among it (a
	// browser screenshot) is noted by its media type, its payload never copied.
	const output = mediaAwareOutput(block['content'] ?? block['output']);
	const callId = stringOf(block['tool_use_id']);
	// A text transcript's result names its tool ("[Tool result] Shell"); a JSONL result only its call.
	const named = stringOf(block['name']);
	const called = callId === undefined ? undefined : takeCall(state, callId);
	const name = named !== undefined && named !== '' ? named : called;
	const exitCode = resultExitCode(name, output);
	const failed = block['is_error'] === true || (exitCode !== undefined && exitCode !== 0);
	return {
		line,
		kind: 'tool_result',
		result: {call_id: callId ?? null, is_error: failed, ...(exitCode === undefined ? {} : {exit_code: exitCode}), output},
	};
}

function blockEvents(block: CursorBlock, role: 'user' | 'assistant', line: number, state: LineState): SessionEvent[] {
	switch (block['type']) {
		case 'text': {
			const text = stringOf(block['text']) ?? '';
			if (role === 'user') {
				return userTextEvents(text, line, state);
			}

			const shown = withoutRedactedThinking(text);
			return shown.trim() === '' ? [] : [{line, kind: 'assistant', text: shown}];
		}

		case 'tool_use':
		case 'tool-use':
		case 'tool_call': // Block names drift between builds: the underscore and hyphen spellings are one block.
		case 'tool-call':
			return [toolCallEvent(block, line, state)];
		case 'tool_result':
		case 'tool-result':
			return [toolResultEvent(block, line, state)];
		default:
			return role === 'assistant' ? unknownBlockEvents(block, line) : [];
	}
}

/**
 * Cursor ends an assistant text block with `[REDACTED]` where it left its reasoning out, and a
 * turn that only reasoned is that marker alone: the marker is no reply. Only at the end: the
 * same word inside a sentence is what the model wrote.
 */
function withoutRedactedThinking(text: string): string {
	let shown = text.trimEnd();
	if (!shown.endsWith(redactedMarker)) {
		return text;
	}

	while (shown.endsWith(redactedMarker)) {
		shown = shown.slice(0, -redactedMarker.length).trimEnd();
	}

	return shown;
}

const redactedMarker = '[REDACTED]';

/** Block types whose `text` is the model's reasoning, never shown. */
const reasoningType = /think|reason/i;

/**
 * Thinking is never shown and images carry nothing to show; but a block of a type newer than
 * this reader (Cursor's block names drift) that holds a `text` string is visible reply text.
 */
function unknownBlockEvents(block: CursorBlock, line: number): SessionEvent[] {
	const text = stringOf(block['text']);
	const type = stringOf(block['type']) ?? '';
	return text === undefined || text.trim() === '' || reasoningType.test(type) ? [] : [{line, kind: 'assistant', text}];
}

/**
 * Content blocks: a plain string is one text block, and a lone block object written without its
 * list (as Claude-style writers do, the content format Cursor's transcripts share) the list of it;
 * anything that is not an object is ignored.
 */
function blocksOf(content: unknown): CursorBlock[] {
	if (typeof content === 'string') {
		return [{type: 'text', text: content}];
	}

	if (isRecord(content)) {
		return typeof content['type'] === 'string' ? [content] : [];
	}

	return Array.isArray(content) ? content.filter(block => isRecord(block)) : [];
}

/**
 * The end of a turn. Success carries nothing; any other status means the turn did not finish:
 * an abort or cancel is an interruption, anything else a failure.
 */
function turnEndedEvents(marker: CursorMarkerLine, line: number): SessionEvent[] {
	const status = marker.status ?? undefined;
	if (status === undefined || status === 'success' || status === 'completed') {
		return [];
	}

	if (interruptedStatus.test(status)) {
		return [{line, kind: 'system', text: `Turn ended: ${status}`, interrupted: true}];
	}

	const detail = stringOf(marker.error) ?? (isRecord(marker.error) ? stringOf(marker.error['message']) : undefined) ?? stringOf(marker.message);
	const text = detail ? `Turn ended: ${status}: ${detail}` : `Turn ended: ${status}`;
	return [{line, kind: 'system', text, error: shortError(text)}];
}

/** Where a transcript states its workspace: Cursor's `<user_info>` preamble. */
const workspaceStatements = [/^\s*Workspace Path:\s*(\S[^\n]*?)\s*$/m, /absolute path of the user's workspace is\s+(\S+?)\.?(?:\s|$)/];
const absolutePath = /^(?:\/|[A-Za-z]:[\\/])[^\n]*$/;

/** Absolute paths a block names: a workspace statement in text, or path-like tool arguments. */
function pathsNamed(block: CursorBlock): string[] {
	if (block['type'] === 'text' && typeof block['text'] === 'string') {
		const text = block['text'];
		return workspaceStatements.flatMap(pattern => pattern.exec(text)?.[1] ?? []);
	}

	const input = parseJsonArguments(block['input']);
	return isRecord(input) ? Object.values(input).filter((value): value is string => typeof value === 'string' && absolutePath.test(value) && value.length < 4096) : [];
}

/** The slug directory a transcript sits in (`projects/<slug>/agent-transcripts/…`), as path parts. */
function slugDirectoryParts(transcript: string): string[] | undefined {
	const parts = transcript.split(/[\\/]/);
	const index = parts.lastIndexOf('agent-transcripts');
	return index > 0 ? parts.slice(0, index) : undefined;
}

/**
 * `projects/<slug>/.workspace-trusted`, written once the person trusts the workspace (the prompt,
 * or the CLI's --trust): `{"trustedAt", "workspacePath", "trustMethod"}`. Its path is the
 * workspace itself, where the slug only spells it lossily (a space, a dot and a separator are all
 * `-`; a long path is cut and hashed). Undefined unless it holds an absolute path.
 */
function trustedWorkspace(slugDirectory: string[]): string | undefined {
	const value = readSmallJson([...slugDirectory, '.workspace-trusted'].join(sep));
	const workspace = isRecord(value) ? value['workspacePath'] : undefined;
	return typeof workspace === 'string' && absolutePath.test(workspace) ? workspace : undefined;
}

/** The worker logs the workspace it serves near its start; a log is not read past this. */
const workerLogHeadBytes = 64 * 1024;
const workerLogWorkspace = /workspacePath=([^\r\n]*)$/m;

/**
 * `projects/<slug>/worker.log`, the CLI agent worker's log, states the workspace it serves on a
 * line ending `workspacePath=<path>` (also where no one trusted the workspace). Undefined unless
 * that is an absolute path.
 */
function loggedWorkspace(slugDirectory: string[]): string | undefined {
	const head = readFileHead([...slugDirectory, 'worker.log'].join(sep), workerLogHeadBytes);
	const workspace = head === undefined ? undefined : workerLogWorkspace.exec(head)?.[1]?.trim();
	return workspace !== undefined && absolutePath.test(workspace) ? workspace : undefined;
}

/** The workspace the slug directory states: trusted, else logged by its worker. */
function statedWorkspace(transcript: string): string | undefined {
	const slugDirectory = slugDirectoryParts(transcript);
	return slugDirectory === undefined ? undefined : (trustedWorkspace(slugDirectory) ?? loggedWorkspace(slugDirectory));
}

/**
 * The project, once: the workspace the slug directory states (`.workspace-trusted`, else
 * `worker.log`), else the first path the transcript names (its workspace statement, a tool's
 * absolute path) that is, or lies inside, the directory its project slug spells. Only looked for when discovery found no workspace on this
 * machine (none spells the slug: moved, deleted, another machine's store, a cut slug).
 */
function workspaceFacts(blocks: readonly CursorBlock[], line: number, state: LineState, unit: DiscoveredUnit | undefined): SessionEvent[] {
	const slug = unit && unit.projectHint === undefined && state['cwd'] === undefined ? slugOfTranscript(unit.path) : undefined;
	if (slug === undefined) {
		return [];
	}

	if (state['trustRead'] === undefined) {
		state['trustRead'] = true;
		const stated = statedWorkspace(unit!.path);
		if (stated !== undefined) {
			state['cwd'] = stated;
			return [{line, kind: 'meta', session: {cwd: stated}}];
		}
	}

	for (const path of blocks.flatMap(block => pathsNamed(block))) {
		const cwd = ancestorSpelling(path, slug);
		if (cwd !== undefined) {
			state['cwd'] = cwd;
			return [{line, kind: 'meta', session: {cwd}}];
		}
	}

	return [];
}

/**
 * A user line may carry the images its prompt attached as content blocks beside the text
 * (`{type: "image", source: {type: "base64", media_type, data}}`): each is noted after the
 * request by its media type, its data never copied; images sent without a word are a request
 * of their own. A line whose text lists `<image_files>` has noted its images already, and a
 * line of tool results is no prompt.
 */
function withImageBlocks(events: SessionEvent[], blocks: readonly CursorBlock[], line: number): SessionEvent[] {
	const listsFiles = blocks.some(block => typeof block['text'] === 'string' && block['text'].includes('<image_files>'));
	const answers = blocks.some(block => block['type'] === 'tool_result' || block['type'] === 'tool-result');
	const notes = listsFiles || answers ? [] : blocks.flatMap(block => (block['type'] === 'image' ? (mediaNote(block) ?? []) : []));
	return notePromptMedia(events, notes, {
		isRequest: event => event.kind === 'user' && event.human === true,
		alone: said => [{line, kind: 'user', text: said, human: true}],
	});
}

const isoTime = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A line's own `timestamp`, where a build writes one (ISO, or a Unix epoch number), as an ISO
 * string; undefined for anything else, so a value that is no time never becomes one.
 */
function lineTime(value: Record<string, unknown>): string | undefined {
	const stamp = value['timestamp'];
	if (typeof stamp !== 'string') {
		return epochIso(stamp);
	}

	const parsed = isoTime.test(stamp) ? Date.parse(stamp) : Number.NaN;
	return Number.isFinite(parsed) ? new Date(parsed).toISOString() : undefined;
}

/** Rows without a time of their own take their line's `timestamp` (lineTime). */
function timed(events: SessionEvent[], value: unknown): SessionEvent[] {
	const timestamp = isRecord(value) ? lineTime(value) : undefined;
	return timestamp === undefined ? events : events.map(event => (event.timestamp === undefined ? {...event, timestamp} : event));
}

/**
 * One transcript line to events; `state` remembers whether this file wraps requests in
 * `<user_query>`. In a subagent's transcript the "user" is the parent agent giving its task.
 */
export function normalizeCursorLine(value: unknown, line: number, state: LineState, unit?: DiscoveredUnit): SessionEvent[] | null {
	if (isRecord(value) && typeof value['role'] === 'string') {
		const parsed = readCursorMessageLine(value);
		const role = parsed?.role;
		if (!parsed || (role !== 'user' && role !== 'assistant')) {
			return null;
		}

		const blocks = blocksOf(parsed.message?.content);
		const said = blocks.flatMap(block => blockEvents(block, role, line, state));
		const events = role === 'user' ? withImageBlocks(said, blocks, line) : said;
		const authored = unit?.parentIdHint === undefined ? events : events.map(event => (event.kind === 'user' && event.human ? {...event, human: false, origin: 'agent' as const} : event));
		return timed([...workspaceFacts(blocks, line, state, unit), ...authored], value);
	}

	const marker = readCursorMarkerLine(value);
	if (marker?.type === 'turn_ended') {
		return timed(turnEndedEvents(marker, line), value);
	}

	return null;
}
