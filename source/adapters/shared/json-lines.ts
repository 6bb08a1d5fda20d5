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
 * parseable are skipped, and two records glued onto one line are split. Every JSONL reader in
 * engi (the engine's and the document loaders') goes through here.
 */
export function streamJsonValues(path: string, visitor: JsonValueVisitor, range: StreamRange = {}): {offset: number; nextLine: number; stopped: boolean} {
	let stopped = false;
	const only = range.onlyLines;
	const lastWanted = only === undefined ? Number.POSITIVE_INFINITY : Math.max(0, ...only);
	const end = forEachLine(
		path,
		raw => {
			if (raw.number > lastWanted) {
				stopped = true;
				return false;
			}

			if (only !== undefined && !only.has(raw.number)) {
				return;
			}

			if (raw.oversized) {
				visitor.skip(raw.number, 'too long');
				return;
			}

			const text = raw.length === 0 ? '' : decodeLine(raw);
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
				visitor.skip(raw.number, raw.terminated ? (tail === undefined ? 'not valid JSON' : tornRecord) : 'incomplete last line');
				if (tail === undefined) {
					return;
				}

				parsed = [tail];
			} else {
				parsed = values;
			}

			if (!visitValues(visitor, parsed, raw.number, raw.offset)) {
				stopped = true;
				return false;
			}
		},
		// A sparse read (a few lines for snippets) should not pull megabytes past the lines it wants.
		{fromOffset: range.fromOffset, fromLine: range.fromLine, toOffset: range.toOffset, maxLineBytes, ...(only ? {chunkSize: 16 * 1024} : {})},
	);
	return {...end, stopped};
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
