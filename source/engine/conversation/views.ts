import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import {isAbandoned, type LineRanges} from './branches.js';
import {authorOf} from './author.js';
import {EngiError} from '../../lib/errors.js';
import {defaultPreviewLength, oneLine, parsePreviewLength, previewOf, previewSchema, type PreviewLength} from './preview.js';

export const views = ['dialogue', 'events', 'context', 'index'] as const;
export type View = (typeof views)[number];

/** Marks of a record whose tool output --prune replaced by a note; other records have neither. */
const pruneMarks = () => ({pruned: z.optional(z.literal(true)), prune_reason: z.optional(z.string())});

export const eventsRecordSchema = lazySchema(() => z.object({line: z.number(), event: z.unknown(), ...pruneMarks()}));

/** Who wrote user text no person typed: an agent (a subagent's task) or the host (injections, expansions). */
const originSchema = lazySchema(() => z.enum(['agent', 'host']));

export const dialogueRecordSchema = lazySchema(() => z.object({
	line: z.number(),
	role: z.enum(['user', 'assistant']),
	content: z.string(),
	human: z.optional(z.boolean()),
	origin: z.optional(originSchema),
	/** On a branch a rewind or an edited prompt abandoned: not part of the live conversation. */
	abandoned: z.optional(z.literal(true)),
	timestamp: z.optional(z.string()),
	uuid: z.optional(z.string()),
	sidechain: z.optional(z.boolean()),
}));

export const contextRecordSchema = lazySchema(() => z.object({
	line: z.number(),
	kind: z.enum(['user', 'assistant', 'tool_call', 'tool_result', 'system', 'summary']),
	text: z.optional(z.string()),
	human: z.optional(z.boolean()),
	origin: z.optional(originSchema),
	abandoned: z.optional(z.literal(true)),
	timestamp: z.optional(z.string()),
	sidechain: z.optional(z.boolean()),
	tool: z.optional(z.string()),
	call_id: z.optional(z.nullable(z.string())),
	/** Line of the call a result answers, when the pairing id is found (never guessed). */
	call_line: z.optional(z.nullable(z.number())),
	input: z.optional(previewSchema),
	output: z.optional(previewSchema),
	summary: z.optional(previewSchema),
	is_error: z.optional(z.boolean()),
	exit_code: z.optional(z.nullable(z.number())),
	pending: z.optional(z.boolean()),
	interrupted: z.optional(z.boolean()),
	error: z.optional(z.string()),
	...pruneMarks(),
}));

export const indexRecordSchema = lazySchema(() => z.object({line: z.number(), kind: z.string(), preview: z.string(), ...pruneMarks()}));

export type ContextRecord = z.infer<typeof contextRecordSchema>;

/**
 * The context view's preview length from `--preview-chars` as given (a whole number, or `all`);
 * the default when not given. Only that view has previews to set.
 */
export function previewLengthFor(view: string, given: string | undefined): PreviewLength {
	if (given === undefined) {
		return defaultPreviewLength;
	}

	if (view !== 'context') {
		throw new EngiError('conflicting_flags', `--preview-chars sets the previews of the context view; the ${view} view has none`, {hint: 'add --view context (not with --lines), or drop --preview-chars'});
	}

	return parsePreviewLength(given);
}

const optional = <T>(key: string, value: T | undefined) => (value === undefined ? {} : {[key]: value});

/** What a view knows about the session a row belongs to, to label its records. */
export type SessionLabels = {
	/** Lines of abandoned branches (SessionSummary.abandoned). */
	readonly abandoned: LineRanges;
};

const noLabels: SessionLabels = {abandoned: []};

/** The labels of one event: who wrote user text no person typed, and whether its branch was abandoned. */
function labelsOf(event: SessionEvent, labels: SessionLabels): {origin?: 'agent' | 'host'; abandoned?: true} {
	const author = event.kind === 'user' ? authorOf(event) : undefined;
	const origin = author === 'human' ? undefined : author;
	return {...optional('origin', origin), ...(isAbandoned(event, labels.abandoned) ? {abandoned: true as const} : {})};
}

function dialogueRecords(row: SessionRow, labels: SessionLabels) {
	return row.events
		.filter(event => (event.kind === 'user' || event.kind === 'assistant') && event.text?.trim())
		.map(event => ({
			line: event.line,
			role: event.kind as 'user' | 'assistant',
			content: event.text!,
			...optional('human', event.kind === 'user' ? event.human : undefined),
			...labelsOf(event, labels),
			...optional('timestamp', event.timestamp),
			...optional('uuid', event.uuid),
			...optional('sidechain', event.sidechain),
		}));
}

function inputText(input: unknown): string {
	return typeof input === 'string' ? input : JSON.stringify(input ?? null);
}

function contextRecord(event: SessionEvent, labels: SessionLabels, length: PreviewLength): ContextRecord | undefined {
	const common = {line: event.line, ...labelsOf(event, labels), ...optional('timestamp', event.timestamp), ...optional('sidechain', event.sidechain)};
	switch (event.kind) {
		case 'user':
		case 'assistant':
			if (!event.text?.trim() && !event.error) {
				return undefined;
			}

			return {...common, kind: event.kind, text: event.text ?? '', ...optional('human', event.kind === 'user' ? event.human : undefined), ...optional('error', event.error)};
		case 'tool_call':
			return {
				...common,
				kind: 'tool_call',
				tool: event.tool?.name ?? 'unknown',
				call_id: event.tool?.call_id ?? null,
				input: previewOf(inputText(event.tool?.input), length),
				...optional('pending', event.pending),
			};
		case 'tool_result':
			return {
				...common,
				kind: 'tool_result',
				call_id: event.result?.call_id ?? null,
				call_line: null,
				is_error: event.result?.is_error ?? false,
				exit_code: event.result?.exit_code ?? null,
				output: previewOf(event.result?.output ?? '', length),
			};
		case 'summary':
			return {...common, kind: 'summary', summary: previewOf(event.text ?? '', length)};
		case 'system':
			if (!event.interrupted && !event.error && !event.text) {
				return undefined;
			}

			return {...common, kind: 'system', ...optional('text', event.text), ...optional('interrupted', event.interrupted), ...optional('error', event.error)};
		default:
			return undefined;
	}
}

function indexPreview(event: SessionEvent): string {
	switch (event.kind) {
		case 'tool_call':
			return `${event.tool?.name ?? 'tool'} ${oneLine(inputText(event.tool?.input), 60)}`;
		case 'tool_result':
			return `${event.result?.is_error ? 'error ' : ''}${oneLine(event.result?.output ?? '', 70)}`;
		case 'meta':
			return oneLine(Object.entries(event.session ?? {}).map(([key, value]) => `${key}=${String(value)}`).join(' '), 80);
		default:
			return oneLine(event.error ?? event.text ?? (event.interrupted ? 'interrupted' : ''), 80);
	}
}

/** The records one row contributes to a page in the given view ([] when it has none); `previewLength` sets the context view's previews. */
export function shapeRow(view: View, row: SessionRow, labels: SessionLabels = noLabels, previewLength: PreviewLength = defaultPreviewLength): Array<Record<string, unknown> & {line: number}> {
	switch (view) {
		case 'events':
			return [{line: row.line, event: row.raw}];
		case 'dialogue':
			return dialogueRecords(row, labels);
		case 'context':
			return row.events.map(event => contextRecord(event, labels, previewLength)).filter((record): record is ContextRecord => record !== undefined);
		case 'index':
			// A meta event with no session facts only keeps a record's place in the tree.
			return row.events.filter(event => event.kind !== 'meta' || event.session !== undefined).map(event => ({line: event.line, kind: event.kind, preview: indexPreview(event)}));
		default:
			return [];
	}
}
