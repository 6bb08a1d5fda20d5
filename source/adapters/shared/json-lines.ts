import {decodeLine, forEachLine} from '../../lib/lines.js';
import {maxJsonDepth} from '../../lib/json-depth.js';
import {SessionCorruptError} from '../types.js';
import {parseJsonLine, tornLineTail} from './json-line.js';
import {isUnreadable, type Unreadable} from './schema.js';

/** Lines longer than this are skipped, not parsed: one huge line must not exhaust memory. */
export const maxLineBytes = 32 * 1024 * 1024;
export const maxWarnings = 20;

/**
 * Why a line or record was skipped. Beside the fixed reasons, a record an adapter knows but
 * cannot read is skipped with the reason its schema gave (`invalid field isMeta`).
 */
export type SkipReason = 'too long' | 'not valid JSON' | 'nested too deeply' | 'incomplete last line' | typeof unknownRecordType | (string & {});

/** Records of a type the adapter does not know: counted, but not worth a warning each. */
export const unknownRecordType = 'unknown record type';

export type JsonValueVisitor = {
	/** One parsed value. Return false to stop, 'unknown' or an Unreadable to count it as a skipped record. */
	value(value: unknown, line: number, offset: number): boolean | 'unknown' | Unreadable | void;
	/** A line (or record) that was skipped, and why. Never given its content. */
	skip(line: number, reason: SkipReason): void;
};

export type StreamRange = {
	readonly fromOffset?: number;
	readonly fromLine?: number;
	readonly toOffset?: number;
	/** Only these lines are decoded and parsed (the others are counted past), and reading stops after the last. */
	readonly onlyLines?: ReadonlySet<number>;
};

/**
 * Streams the JSON values of a JSONL file: blank lines are not records, lines too long or not
 * parseable are skipped, two records glued onto one line are split, a torn record with a whole
 * one after it on its line gives the whole one, and a record split over lines by raw newlines is
 * joined (see HeldLines). Every JSONL reader in engi (the engine's and the document loaders')
 * goes through here.
 */
export function streamJsonValues(path: string, visitor: JsonValueVisitor, range: StreamRange = {}): {offset: number; nextLine: number; stopped: boolean} {
	let stopped = false;
	let held: HeldLines | undefined;
	const only = range.onlyLines;
	const lastWanted = only === undefined ? Number.POSITIVE_INFINITY : Math.max(0, ...only);
	const release = () => {
		for (const line of held?.lines ?? []) {
			visitor.skip(line, 'not valid JSON');
		}

		held = undefined;
	};

	// A line a sparse read does not want is passed over; past the last wanted one, reading stops.
	const unwanted = (line: number) => {
		if (line > lastWanted) {
			stopped = true;
			return false;
		}

		return undefined;
	};

	const visit = (values: readonly unknown[], line: number, offset: number) => {
		if (!visitValues(visitor, values, line, offset)) {
			stopped = true;
			return false;
		}

		return undefined;
	};

	const end = forEachLine(
		path,
		raw => {
			// A record begun on a wanted line is joined over the lines after it, wanted or not.
			const wanted = only === undefined || only.has(raw.number);
			if (!wanted && held === undefined) {
				return unwanted(raw.number);
			}

			if (raw.oversized) {
				release();
				if (!wanted) {
					return unwanted(raw.number);
				}

				visitor.skip(raw.number, 'too long');
				return;
			}

			const text = raw.length === 0 ? '' : decodeLine(raw);
			if (held !== undefined) {
				const joined = raw.terminated ? joinHeld(held, text) : undefined;
				if (Array.isArray(joined)) {
					const {line, offset} = held;
					held = undefined;
					return visit(joined, line, offset);
				}

				if (joined === 'held') {
					held.lines.push(raw.number);
					return;
				}

				release();
				if (!wanted) {
					return unwanted(raw.number);
				}
			}

			if (text.trim() === '') {
				return;
			}

			const values = parseJsonLine(text);
			if (values === 'too_deep') {
				visitor.skip(raw.number, 'nested too deeply');
				return;
			}

			let parsed: readonly unknown[];
			if (values === 'not_json') {
				// A torn record with a whole one after it on the same line: the torn part is skipped.
				const tail = raw.terminated ? tornLineTail(text) : undefined;
				if (tail === undefined && raw.terminated && text.trimStart().startsWith('{')) {
					held = {text, line: raw.number, offset: raw.offset, lines: [raw.number], scan: scanJson(openScan(), text)};
					return;
				}

				visitor.skip(raw.number, raw.terminated ? (tail === undefined ? 'not valid JSON' : tornRecord) : 'incomplete last line');
				if (tail === undefined) {
					return;
				}

				parsed = [tail];
			} else {
				parsed = values;
			}

			return visit(parsed, raw.number, raw.offset);
		},
		// A sparse read (a few lines for snippets) should not pull megabytes past the lines it wants.
		{fromOffset: range.fromOffset, fromLine: range.fromLine, toOffset: range.toOffset, maxLineBytes, ...(only ? {chunkSize: 16 * 1024} : {})},
	);
	if (held !== undefined && !stopped) {
		release();
	}

	return {...end, stopped};
}

/**
 * A line that starts a record but does not parse, held while the lines after it may finish it:
 * some writers put raw newlines inside a string (Copilot CLI 1.0.24's tool.execution_complete
 * with fetched page text, github/copilot-cli#2649), so one record spans several lines. Each next
 * line is joined on as the newline it was (`\n` inside a string, else as whitespace); when the
 * join parses, the record is read at its first line. A record saved pretty-printed (a rollout a
 * person formatted before sharing it: iampkuhz/feipi-session-browser docs/session-samples/codex)
 * spans hundreds of lines the same way. A next line that parses alone as a record (an object), a
 * record too long, or too many lines release the held lines, skipped as before; a bare string,
 * number or literal alone on a line is no record (a pretty-printed array's last item) and is joined.
 */
type HeldLines = {text: string; readonly line: number; readonly offset: number; readonly lines: number[]; scan: JsonScan};

/** Bounds a record that never ends; the character bound is the one that matters for memory. */
const maxHeldLines = 100_000;
const maxHeldCharacters = 8 * 1024 * 1024;

/**
 * Where the held text stands, as a JSON reader would see it: brackets open, inside a string,
 * after a backslash, or broken (a bracket closed that was not open, or text after the record
 * closed that no record can start with). Kept line by line, so each next line is scanned once
 * and the joined record parsed only when it can be whole: parsing the whole held text at every
 * line made a record that never ends cost 64 times its size (seconds for a few megabytes).
 */
type JsonScan = {depth: number; inString: boolean; escaped: boolean; broken: boolean};

const openScan = (): JsonScan => ({depth: 0, inString: false, escaped: false, broken: false});

function scanJson(scan: JsonScan, text: string): JsonScan {
	for (let index = 0; index < text.length && !scan.broken; index++) {
		const code = text.charCodeAt(index);
		if (scan.inString) {
			if (scan.escaped) {
				scan.escaped = false;
			} else if (code === 0x5c) {
				scan.escaped = true;
			} else if (code === 0x22) {
				scan.inString = false;
			}
		} else if (code === 0x22) {
			scan.inString = true;
		} else if (code === 0x7b || code === 0x5b) {
			scan.depth++;
		} else if (code === 0x7d || code === 0x5d) {
			scan.depth--;
			scan.broken = scan.depth < 0;
		} else if (scan.depth === 0 && !/\s/.test(text[index]!)) {
			// Between records only whitespace (glued records: the next one's `{` opens above).
			scan.broken = true;
		}
	}

	return scan;
}

/** The held record joined with the next line: its values, 'held' to wait for more, or undefined to give up. */
function joinHeld(held: HeldLines, text: string): unknown[] | 'held' | undefined {
	// A newline inside a string was one (`\n`); between values it was whitespace.
	const joint = held.scan.inString ? `\\n${text}` : `\n${text}`;
	const scan = scanJson({...held.scan}, joint);
	if (scan.broken) {
		return undefined;
	}

	if (scan.depth === 0 && !scan.inString) {
		const values = parseJsonLine(held.text + joint);
		if (Array.isArray(values)) {
			return values;
		}
	}

	if (isRecordLine(text) || held.lines.length >= maxHeldLines || held.text.length + text.length > maxHeldCharacters) {
		return undefined;
	}

	held.text += joint;
	held.scan = scan;
	return 'held';
}

/** Whether a line parses alone into a record (an object) of its own, which ends any record held before it. */
function isRecordLine(text: string): boolean {
	if (!text.trimStart().startsWith('{')) {
		return false;
	}

	const values = parseJsonLine(text);
	return values === 'too_deep' || (Array.isArray(values) && values.some(value => typeof value === 'object' && value !== null));
}

/** The skip reason of a record torn off mid-write, with a whole record after it on its line. */
export const tornRecord = 'torn record (a whole one follows on its line)';

/** Gives one line's values to the visitor; false once it asks to stop. */
function visitValues(visitor: JsonValueVisitor, values: readonly unknown[], line: number, offset: number): boolean {
	for (const value of values) {
		const outcome = visitor.value(value, line, offset);
		if (outcome === 'unknown') {
			visitor.skip(line, unknownRecordType);
		} else if (isUnreadable(outcome)) {
			visitor.skip(line, outcome.unreadable);
		} else if (outcome === false) {
			return false;
		}
	}

	return true;
}

export function skipMessage(line: number, reason: SkipReason): string {
	switch (reason) {
		case 'too long':
			return `line ${line}: skipped, longer than ${maxLineBytes / 1024 / 1024} MiB`;
		case 'nested too deeply':
			return `line ${line}: skipped, JSON nested deeper than ${maxJsonDepth} levels`;
		case 'incomplete last line':
			return `line ${line}: skipped, incomplete last line (still being written?)`;
		default:
			return `line ${line}: skipped, ${reason}`;
	}
}

export type LineRead = {skipped: number; warnings: string[]};

/**
 * Reads a JSONL file (whole, or the lines of `range`) for a document adapter: `accept` returns
 * false for a record it does not know, or an Unreadable for one that does not match its schema,
 * which is skipped and counted like an unparseable line. Warnings name lines and fields only.
 */
export function readJsonLines(path: string, accept: (value: unknown, line: number, offset: number) => boolean | Unreadable, range: StreamRange = {}): LineRead {
	const read: LineRead = {skipped: 0, warnings: []};
	try {
		streamJsonValues(path, {
			value(value, line, offset) {
				try {
					const accepted = accept(value, line, offset);
					return accepted === true ? undefined : accepted === false ? 'unknown' : accepted;
				} catch {
					return 'unknown';
				}
			},
			skip(line, reason) {
				read.skipped++;
				if (reason !== unknownRecordType && read.warnings.length < maxWarnings) {
					read.warnings.push(skipMessage(line, reason));
				}
			},
		}, range);
	} catch (error) {
		if (error instanceof SessionCorruptError) {
			throw error;
		}

		throw new SessionCorruptError(path, null, 'cannot be read');
	}

	return read;
}
