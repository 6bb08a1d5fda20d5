import type {SessionEvent, SessionRow} from '../events.js';
import type {DiscoveredUnit, LineState, LoadedSession} from '../types.js';
import {normalizeCursorLine} from './normalize.js';
import {readWholeText} from '../shared/whole-file.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

/** A line that opens a turn: alone on its line, `A:` in some builds for the assistant. */
const turnMarkers = new Map([
	['user:', 'user'],
	['assistant:', 'assistant'],
	['A:', 'assistant'],
] as const);

type Role = 'user' | 'assistant';
type BlockKind = 'text' | 'thinking' | 'tool_call' | 'tool_result';

/** Lines inside an assistant turn that open a block; the text after the bracket is its first line. */
const blockMarkers: ReadonlyArray<readonly [string, BlockKind]> = [
	['[Thinking]', 'thinking'],
	['[Tool call]', 'tool_call'],
	['[Tool result]', 'tool_result'],
];

/** One block of a turn: where it starts (1-based physical line) and its lines. */
type Block = {role: Role; kind: BlockKind; line: number; lines: string[]};

/**
 * An older Cursor build's plain-text agent transcript, `agent-transcripts/<id>.txt` (formats.md
 * §8). A line `user:` or `assistant:` (`A:`) alone opens a turn. A user turn is one block: the
 * request wrapped in `<user_query>…</user_query>` (inside which a marker line is the person's
 * text), and any host context around it. An assistant turn holds blocks, each opened by a line:
 * `[Thinking] <reasoning>` (that line and the indented lines under it are the reasoning, never
 * shown; the first line at the left margin is reply text again), reply
 * text, `[Tool call] <name>` followed by `  key: value` arguments (a value may run over several
 * lines: until the next block), and `[Tool result] <name>`, usually with no output after it.
 *
 * Each block is a row on the physical line where it starts, normalised as the JSONL record
 * that holds the same block would be (normalize.ts), so requests, host text, subagent tasks and
 * the stated workspace read as they do in a JSONL transcript. Text before the first turn is
 * skipped and counted; a file with no turn at all is not a transcript and gives no rows.
 */
export function loadCursorText(unit: DiscoveredUnit): LoadedSession {
	const parsed = parseBlocks(readWholeText(unit.path, 'text transcript'));
	const skipped = parsed.preambleLine === undefined ? 0 : 1;
	if (parsed.turns === 0) {
		return {rows: [], skipped, warnings: skipped ? ['document: skipped, not a Cursor transcript (no user: or assistant: turn)'] : []};
	}

	const warnings = parsed.preambleLine === undefined ? [] : [`line ${parsed.preambleLine}: skipped, text before the first turn`];
	const state: LineState = {};
	const rows: SessionRow[] = [];
	let unreadable = 0;
	for (const block of parsed.list) {
		let events: SessionEvent[] | null;
		try {
			events = normalizeCursorLine(asRecord(block), block.line, state, unit);
		} catch {
			events = null;
		}

		if (events === null) {
			unreadable++; // Never expected of the records made here; counted as a line of the JSONL would be.
		} else {
			rows.push({line: block.line, raw: block.lines.join('\n'), events});
		}
	}

	return {rows, skipped: skipped + unreadable, warnings};
}

/** The blocks, how many turns opened, and the first line of any text before the first turn. */
type Parsed = {list: Block[]; turns: number; preambleLine?: number};

function parseBlocks(text: string): Parsed {
	const lines = text.replace(/^\uFEFF/, '').split('\n').map(line => (line.endsWith('\r') ? line.slice(0, -1) : line));
	const parsed: Parsed = {list: [], turns: 0};
	let role: Role | undefined;
	let block: Block | undefined;
	let inQuery = false;
	lines.forEach((line, index) => {
		const number = index + 1;
		// At the start of the line: an indented `user:` is an argument's text (a YAML file written).
		const turn = inQuery ? undefined : turnMarkers.get(line.trimEnd() as 'user:');
		if (turn !== undefined) {
			parsed.turns++;
			role = turn;
			block = turn === 'user' ? open(parsed, {role, kind: 'text', line: number, lines: []}) : undefined;
			return;
		}

		if (role === undefined) {
			if (line.trim() !== '') {
				parsed.preambleLine ??= number;
			}

			return;
		}

		if (role === 'user') {
			inQuery = queryOpenAfter(line, inQuery);
			block!.lines.push(line);
			return;
		}

		const marker = blockMarkers.find(([prefix]) => line.startsWith(prefix));
		if (marker !== undefined) {
			block = open(parsed, {role, kind: marker[1], line: number, lines: [line.slice(marker[0].length).trim()]});
			return;
		}

		if (block?.kind === 'thinking' && /^[ \t]+\S/.test(line)) {
			// Reasoning runs on over indented lines; the first line at the margin is reply text.
			block.lines.push(line.trim());
			return;
		}

		if (block === undefined || block.kind === 'thinking') {
			if (line.trim() === '') {
				return; // Blank lines between blocks belong to none.
			}

			block = open(parsed, {role, kind: 'text', line: number, lines: []});
		}

		block.lines.push(line);
	});
	return parsed;
}

function open(parsed: Parsed, block: Block): Block {
	parsed.list.push(block);
	return block;
}

/** Whether a `<user_query>` is still open after this line of a user turn. */
function queryOpenAfter(line: string, open: boolean): boolean {
	const opened = line.lastIndexOf('<user_query>');
	const closed = line.lastIndexOf('</user_query>');
	return opened === -1 && closed === -1 ? open : opened > closed;
}

/** The JSONL record that holds the same block: `{role, message: {content: [block]}}`. */
function asRecord(block: Block): unknown {
	const content = blockContent(block);
	return {role: block.kind === 'tool_result' ? 'user' : block.role, message: {content: [content]}};
}

function blockContent(block: Block): Record<string, unknown> {
	const [first = '', ...rest] = block.lines;
	switch (block.kind) {
		case 'thinking':
			return {type: 'thinking', thinking: block.lines.filter(Boolean).join('\n')};
		case 'tool_call': {
			const name = first.split(/\s/)[0] || 'unknown';
			return {type: 'tool_use', name, input: toolArguments(rest) ?? otherArguments(name, rest)};
		}
		case 'tool_result':
			return {type: 'tool_result', name: first, content: rest.join('\n').trim()};
		case 'text':
			return {type: 'text', text: block.lines.join('\n').trim()};
	}
}

/** `  key: value` lines; a line that opens no key continues the value before it. */
const argumentLine = /^ {2}([A-Za-z_][\w-]*): ?(.*)$/;

function toolArguments(lines: readonly string[]): Record<string, string> | undefined {
	const input: Record<string, string> = {};
	let key: string | undefined;
	for (const line of lines) {
		const match = argumentLine.exec(line);
		if (match) {
			key = match[1]!;
			input[key] = match[2]!;
		} else if (key !== undefined) {
			input[key] += `\n${line}`;
		}
	}

	for (const name of Object.keys(input)) {
		input[name] = input[name]!.trimEnd();
	}

	return key === undefined ? undefined : input;
}

/** `  key=value` lines, another spelling some calls' arguments take. */
const assignmentLine = /^\s+([A-Za-z_][\w-]*)=(.*)$/;

/**
 * A call's body that lists no `key: value` argument: a JSON object (an ApplyPatch call's
 * arguments), `key=value` lines, or, for ApplyPatch, the raw patch; any other text is kept as the
 * call's input as written. The body is indented under its marker: the common indent is dropped.
 */
function otherArguments(name: string, lines: readonly string[]): unknown {
	const body = dedent(lines).join('\n').trim();
	if (body === '') {
		return {};
	}

	const json = jsonObject(body);
	if (json !== undefined) {
		return json;
	}

	const filled = lines.filter(line => line.trim() !== '');
	if (filled.every(line => assignmentLine.test(line))) {
		return Object.fromEntries(filled.map(line => assignmentLine.exec(line)!.slice(1, 3).map(part => part.trim())));
	}

	return name === 'ApplyPatch' ? {patch: body} : body;
}

function jsonObject(text: string): Record<string, unknown> | undefined {
	if (!text.startsWith('{')) {
		return undefined;
	}

	try {
		const value = parseBoundedJson(text);
		return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
	} catch {
		return undefined;
	}
}

/** The lines without the indent they all share (blank lines aside). */
function dedent(lines: readonly string[]): string[] {
	const indents = lines.filter(line => line.trim() !== '').map(line => /^[ \t]*/.exec(line)![0].length);
	const common = indents.reduce((least, indent) => Math.min(least, indent), indents[0] ?? 0);
	return lines.map(line => line.slice(Math.min(common, /^[ \t]*/.exec(line)![0].length)));
}
