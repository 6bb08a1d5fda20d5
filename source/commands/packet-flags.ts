import * as z from 'zod/mini';
import type {FlagSpec, HumanContext} from '../cli/define.js';
import {sha256Flag, spelledFlag, textFlag} from '../cli/flag-schemas.js';
import {decodePacket, isPlainObject} from '../engine/conversation/codec/decode.js';
import type {AttachmentValue} from '../engine/conversation/codec/schema.js';
import {defaultPreviewLength} from '../engine/conversation/preview.js';
import type {ReadOutput} from '../engine/conversation/read.js';
import {EngiError} from '../lib/errors.js';
import {renderReadPage} from './render-read.js';

/** The flags `read` and `resume` share for encodings, attachments and pruning (docs/encodings.md). */
export const packetOptions = {
	compact: {type: 'boolean', description: 'encode the page compactly: records as rows of shared layouts, repeated strings once (docs/encodings.md)', value: z.boolean()},
	deltas: {type: 'boolean', description: 'with --compact: also keep runs of lines that several strings share once (the edges layer)', value: z.boolean()},
	'attachment-refs': {type: 'boolean', description: 'events view: replace base64 images and encrypted reasoning by references to an attachments table', value: z.boolean()},
	attachment: {type: 'string', placeholder: '<json-pointer>', description: 'the value an attachment reference stands for, from the record at --lines <line> (or --offset <line-1>); needs --expect-sha256', value: textFlag()},
	'expect-sha256': {type: 'string', placeholder: '<hex>', description: 'the attachment\'s SHA-256 from the attachments table; any other value is refused', value: sha256Flag()},
	prune: {type: 'boolean', description: 'replace tool output later steps made obsolete (superseded or repeated reads, empty searches) by a note, and add a receipt', value: z.boolean()},
	'preview-chars': {
		type: 'string',
		placeholder: '<n|all>',
		description: `context view: characters of each tool input, output and summary shown, head and tail (default ${defaultPreviewLength}); all for whole texts (a page then ends early past about a million)`,
		value: spelledFlag({type: ['integer', 'string'], minimum: 0, pattern: '^(all|\\d+)$'}),
	},
} as const satisfies Record<string, FlagSpec>;

/** Flags a page of native records at exact lines cannot be combined with. */
export const packetConflicts: ReadonlyArray<readonly [string, string]> = [
	['attachment', 'compact'],
	['attachment', 'deltas'],
	['attachment', 'attachment-refs'],
	['attachment', 'prune'],
	['attachment', 'limit'],
	['attachment', 'preview-chars'],
	['lines', 'prune'],
];

type AttachmentFlags = {attachment?: string; 'expect-sha256'?: string; lines?: number[]; offset?: number; view?: string};

/**
 * The line an `--attachment` is read from (`--lines <line>`, or `--offset <line-1>` as the
 * attachments table's `line` suggests), after checking the flags that must come with it.
 */
export function attachmentLine(flags: AttachmentFlags): number {
	if (flags['expect-sha256'] === undefined) {
		throw new EngiError('missing_flag', '--attachment needs --expect-sha256 <hex>', {hint: 'take the sha256 from the page\'s attachments table'});
	}

	if (flags.view !== undefined && flags.view !== 'events') {
		throw new EngiError('conflicting_flags', `--attachment reads a native record (the events view), not --view ${flags.view}`, {hint: 'drop --view'});
	}

	if (flags.lines) {
		if (flags.lines.length !== 1) {
			throw new EngiError('conflicting_flags', '--attachment reads one record: give --lines a single line', {hint: 'the attachments table gives the line'});
		}

		return flags.lines[0]!;
	}

	if (flags.offset === undefined) {
		throw new EngiError('missing_flag', '--attachment needs --lines <line> (or --offset <line-1>)', {hint: 'the attachments table gives the line'});
	}

	return flags.offset + 1;
}

/** Refuses flags given without the one they only work with. */
export function checkPacketFlags(flags: {'expect-sha256'?: string; attachment?: string; deltas?: boolean; compact?: boolean}, compactByDefault: boolean): void {
	if (flags['expect-sha256'] !== undefined && flags.attachment === undefined) {
		throw new EngiError('missing_flag', '--expect-sha256 goes with --attachment <json-pointer>', {hint: 'see --help'});
	}

	if (flags.deltas && !flags.compact && !compactByDefault) {
		throw new EngiError('missing_flag', '--deltas needs --compact: the edges layer goes on top of the compact layers', {hint: 'add --compact'});
	}
}

/** Human text of a page, a packet (decoded, for a person) or an attachment's value. */
export function renderPacketResult(result: unknown, context: HumanContext, renderPage: (page: ReadOutput, context: HumanContext) => string = renderReadPage): string {
	if (isPlainObject(result) && result['status'] === 'ok' && typeof result['value'] === 'string' && typeof result['pointer'] === 'string') {
		const value = result as unknown as AttachmentValue;
		return `line ${value.line} ${value.pointer}: ${value.bytes} bytes, sha256 ${value.sha256}\n${value.value}`;
	}

	if (isPlainObject(result) && typeof result['encoding'] === 'string') {
		const decoded = decodePacket(result);
		const page = isPlainObject(decoded) && typeof decoded['encoding'] === 'string' ? decoded['page'] : decoded;
		const layers = Array.isArray(result['layers']) ? result['layers'].join(', ') : '';
		return `(a packet with layers ${layers}, decoded for reading)\n${renderPage(page as ReadOutput, context)}`;
	}

	return renderPage(result as ReadOutput, context);
}
