import * as z from 'zod/mini';
import type {SessionEvent, SessionRow} from '../../../adapters/events.js';
import type {SourceId} from '../../../adapters/types.js';
import {parseBoundedJson} from '../../../lib/json-depth.js';
import {lazySchema} from '../../../lib/lazy-schema.js';
import {defaultPreviewLength, type PreviewLength} from '../preview.js';
import {shapeRow, type SessionLabels, type View} from '../views.js';
import {isEmptyResult, isPruneNote, pruneDecisions, type PruneRule} from './rules.js';
import {classifyCall} from './tools.js';
import {dropPreEditFile, preEditReason} from './unseen.js';

export const pruneReceiptSchema = lazySchema(() => z.object({
	/** Records on the page. */
	total_records: z.number(),
	/** Records whose tool output was replaced by a note. */
	pruned_count: z.number(),
	superseded_reads: z.number(),
	/** Reads repeated with no write between, and repeated status checks. */
	duplicate_reads: z.number(),
	empty_searches: z.number(),
	/** Outputs kept once on the page, their further copies (a store's structured duplicates) replaced by a note. */
	repeated_outputs: z.number(),
	/** Whole files as they were before an edit, which the store keeps beside the edit's result and the model was never shown (Claude's `toolUseResult.originalFile`). */
	pre_edit_files: z.number(),
	/** Characters of tool output the notes replaced, less the notes themselves. */
	saved_chars_estimate: z.number(),
}));

export type PruneReceipt = z.infer<typeof pruneReceiptSchema>;

/** The newest records of a session are never pruned: what an agent did last is what the next one needs. */
export const preserveRecent = 4;

type PageRecord = Record<string, unknown> & {line: number};

export type PruneContext = {
	readonly source: SourceId;
	readonly project: string | undefined;
	/** Events after the page (a bounded look ahead): a write or read there can make the page's output obsolete. */
	readonly later: readonly SessionEvent[];
	/** The page ends the session, so its last records are the newest ones, which are kept. */
	readonly newest: boolean;
};
type Unit = {record: PageRecord; events: readonly SessionEvent[]};

/**
 * Whether a string of a native record holds (a copy of) a tool's output: the output itself, a
 * piece of it, or its lines in another layout (Claude keeps a read's file both numbered, in the
 * message, and raw, in `toolUseResult`).
 */
function carries(text: string, output: string): boolean {
	if (text === output) {
		return true;
	}

	if (text.length >= 24 && output.includes(text)) {
		return true;
	}

	// The output inside a small frame of the store's own (Codex's `Chunk ID: …\nOutput:\n`).
	if (output.length >= 24 && text.length - output.length <= 512 && text.includes(output)) {
		return true;
	}

	if (text.length < 64) {
		return false;
	}

	const lines = text.split('\n').map(line => line.trim()).filter(line => line.length >= 4).slice(0, 40);
	return lines.length >= 2 && lines.every(line => output.includes(line));
}

/** Strings an event holds that are not a result's output: its text and every string of a call's input. */
function ownTexts(event: SessionEvent): string[] {
	const texts = [event.text ?? ''];
	const collect = (value: unknown) => {
		if (typeof value === 'string') {
			texts.push(value);
		} else if (value !== null && typeof value === 'object') {
			for (const item of Object.values(value)) {
				collect(item);
			}
		}
	};

	collect(event.tool?.input);
	return texts.filter(Boolean);
}

/** What a record's rewrite leaves alone: its calls' own strings and its kept results' outputs, and the results it holds by call id. */
type Kept = {readonly inputs: readonly string[]; readonly outputs: readonly string[]; readonly results: ReadonlyMap<string, SessionEvent>};

const noOwners: ReadonlySet<string> = new Set();

type Replacement = {
	readonly result: SessionEvent;
	readonly output: string;
	/** An empty search: its own record's framed "nothing found" is what goes. */
	readonly empty: boolean;
	readonly note: string;
	readonly echo: string;
};

/** The value of a string that is itself a JSON object or array (Codex's 2025 shell output, MCP results), else undefined. */
function embeddedJson(text: string): unknown {
	if (text.length < 2 || !/^\s*[[{]/.test(text) || !/[\]}]\s*$/.test(text)) {
		return undefined;
	}

	try {
		const value = parseBoundedJson(text);
		return value !== null && typeof value === 'object' ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Maps one string of a native record. `owner` is the call id of the tool result the string sits
 * under, when the record says (an object naming the id, as Claude's `tool_use_id`, OpenCode's
 * `callID` or Codex's `call_id`, or a key that is the id, as VS Code's `toolCallResults`).
 */
type StringMap = (text: string, owner: string | undefined) => string;

/** The call id an object names among its own values, if it is one of `owners`. */
function ownerOf(value: object, owners: ReadonlySet<string>): string | undefined {
	for (const item of Object.values(value)) {
		if (typeof item === 'string' && owners.has(item)) {
			return item;
		}
	}

	return undefined;
}

/**
 * A copy of a native record with each string mapped, in document order (keys as they are,
 * `__proto__` included). A string holding JSON text is mapped inside, where its strings are
 * whole (escaped in the outer text, an output would never be found), and serialised again
 * only when one of them changed.
 */
function mapStrings(value: unknown, map: StringMap, owners: ReadonlySet<string>, owner?: string): unknown {
	if (typeof value === 'string') {
		const inner = embeddedJson(value);
		if (inner !== undefined) {
			const mapped = mapStrings(inner, map, owners, owner);
			if (JSON.stringify(mapped) !== JSON.stringify(inner)) {
				return JSON.stringify(mapped);
			}
		}

		return map(value, owner);
	}

	if (Array.isArray(value)) {
		return value.map(item => mapStrings(item, map, owners, owner));
	}

	if (value !== null && typeof value === 'object') {
		const own = ownerOf(value, owners) ?? owner;
		const copy: Record<string, unknown> = {};
		for (const [key, item] of Object.entries(value)) {
			Object.defineProperty(copy, key, {value: mapStrings(item, map, owners, owners.has(key) ? key : own), enumerable: true, writable: true, configurable: true});
		}

		return copy;
	}

	return value;
}

/**
 * A copy of a native record with every string carrying a pruned output replaced: the first
 * copy of each output by its note, further copies by a shorter echo of it; a string is only
 * replaced by something shorter. Returns which results lost a copy, and how many characters.
 */
function rewriteNative(raw: unknown, replacements: readonly Replacement[], keep: Kept): {raw: unknown; saved: number; results: Set<SessionEvent>} {
	let saved = 0;
	const results = new Set<SessionEvent>();
	const visit = (value: string, owner: string | undefined): string => {
		// A string under a result the record names is that result's: a kept one's stays, a pruned one's goes even when a kept output reads the same.
		const scoped = owner === undefined ? undefined : keep.results.get(owner);
		const candidates = scoped ? replacements.filter(candidate => candidate.result === scoped) : replacements;
		const replacement = candidates.find(candidate => value.length > candidate.echo.length && (candidate.empty ? isEmptyResult(value) : carries(value, candidate.output)));
		const kept = (text: string) => text === value || carries(value, text);
		// A note (of this pass or an earlier one: "0 matches" in it reads as empty) is never replaced.
		if (!replacement || isPruneNote(value) || keep.inputs.some(kept) || (!scoped && keep.outputs.some(kept))) {
			return value;
		}

		const note = results.has(replacement.result) || value.length <= replacement.note.length ? replacement.echo : replacement.note;
		results.add(replacement.result);
		saved += value.length - note.length;
		return note;
	};

	return {raw: mapStrings(raw, visit, new Set(keep.results.keys())), saved, results};
}

/** A kept output, and where on the page its first whole copy is. */
type Copy = {readonly result: SessionEvent; readonly output: string};

/**
 * A copy of a native record in which each string carrying a kept output is replaced by a note
 * pointing at the output's first whole copy on the page (`first`, filled as the page is read):
 * stores keep an output two to four times (Claude the numbered text and the raw file, Codex
 * stdout, aggregated and formatted output and the framed text the model saw), and one is all a
 * reader needs. A string is replaced only after a whole copy was seen, so a piece never stands
 * in for the whole; a frame around a copy stays.
 */
function rewriteCopies(raw: unknown, copies: readonly Copy[], first: Map<SessionEvent, number>, line: number, keep: readonly string[]): {raw: unknown; saved: number; results: Set<SessionEvent>} {
	let saved = 0;
	const results = new Set<SessionEvent>();
	const visit = (value: string): string => {
		const copy = copies.find(candidate => carries(value, candidate.output));
		if (!copy || isPruneNote(value) || keep.some(text => text === value || carries(value, text))) {
			return value;
		}

		const at = first.get(copy.result);
		const whole = value === copy.output || value.includes(copy.output);
		if (at === undefined) {
			if (whole) {
				first.set(copy.result, line);
			}

			return value;
		}

		const framed = value !== copy.output && value.includes(copy.output);
		const note = `[omitted: copy of the output at line ${at}; ${framed ? copy.output.length : value.length} chars]`;
		const replaced = framed ? value.replace(copy.output, () => note) : note;
		if (replaced.length >= value.length) {
			return value;
		}

		results.add(copy.result);
		saved += value.length - replaced.length;
		return replaced;
	};

	return {raw: mapStrings(raw, visit, noOwners), saved, results};
}

/** Whether a native record names one of these call ids anywhere (Codex repeats an output in its `exec_command_end` event). */
function namedCalls(raw: unknown, ids: ReadonlyMap<string, SessionEvent>): SessionEvent[] {
	const found: SessionEvent[] = [];
	const visit = (value: unknown) => {
		if (typeof value === 'string') {
			const result = ids.get(value);
			if (result && !found.includes(result)) {
				found.push(result);
			}
		} else if (value !== null && typeof value === 'object') {
			for (const item of Object.values(value)) {
				visit(item);
			}
		}
	};

	visit(raw);
	return found;
}

/** The page's records with the events behind each: one per row in the events view, one per shown event elsewhere. */
function unitsOf(view: View, rows: readonly SessionRow[], labels: SessionLabels, previewLength: PreviewLength): Unit[] {
	if (view === 'events') {
		return rows.map(row => ({record: {line: row.line, event: row.raw}, events: row.events}));
	}

	return rows.flatMap(row => row.events.flatMap(event => shapeRow(view, {...row, events: [event]}, labels, previewLength).map(record => ({record, events: [event]}))));
}

type Preview = {preview: string; preview_tail: string; preview_truncated: boolean; chars: number};

/**
 * `--prune`: the page's records with the output of prunable tool results (rules.ts) replaced by
 * a note that says why and how much was left out, the newest records and every error kept
 * whole. In the events view the strings of the native record that carry the output become the
 * note; in the context and index views the output preview does. A note replaces an output only
 * where it is shorter, and no field the record lacked is added except the `pruned` and
 * `prune_reason` marks beside the record's own.
 */
export function prunePage(view: View, rows: readonly SessionRow[], labels: SessionLabels, session: PruneContext, previewLength: PreviewLength = defaultPreviewLength): {records: PageRecord[]; receipt: PruneReceipt} {
	const units = unitsOf(view, rows, labels, previewLength);
	// The newest records stay whole: their own results are never chosen, and they are never rewritten for repeating an older one.
	const newestFrom = session.newest ? Math.max(0, units.length - preserveRecent) : units.length;
	const kept = new Set(units.slice(newestFrom).flatMap(unit => unit.events));
	const pageEvents = new Set(rows.flatMap(row => row.events));
	const decisions = new Map([...pruneDecisions([...pageEvents, ...session.later], session.source, session.project, kept)].filter(([event]) => pageEvents.has(event)));
	const receipt: PruneReceipt = {total_records: units.length, pruned_count: 0, superseded_reads: 0, duplicate_reads: 0, empty_searches: 0, repeated_outputs: 0, pre_edit_files: 0, saved_chars_estimate: 0};
	const counters: Record<PruneRule, 'superseded_reads' | 'duplicate_reads' | 'empty_searches'> = {superseded_read: 'superseded_reads', duplicate_read: 'duplicate_reads', empty_search: 'empty_searches'};
	const notes = new Map([...decisions].map(([result, decision]) => [result, {
		result,
		output: result.result!.output,
		empty: decision.rule === 'empty_search',
		note: `[omitted: ${decision.reason}; ${result.result!.output.length} chars]`,
		echo: `[omitted; ${result.result!.output.length} chars]`,
	}]));
	const byCallId = new Map([...decisions.keys()].filter(result => result.result?.call_id).map(result => [result.result!.call_id!, result]));
	// Outputs the page keeps whole (not pruned, not errors, not the newest records), long enough for a note to pay.
	const copyable = (event: SessionEvent) => event.kind === 'tool_result' && !event.result!.is_error && !decisions.has(event) && !kept.has(event) && event.result!.output.length >= 64;
	const keptByCallId = new Map([...pageEvents].filter(event => copyable(event) && event.result!.call_id).map(result => [result.result!.call_id!, result]));
	// Results of the page's successful writes (their calls on the page, paired by explicit id): only those may carry a pre-edit file.
	const writeCalls = new Set([...pageEvents].filter(event => event.kind === 'tool_call' && event.tool?.call_id && classifyCall(session.source, event, session.project).kind === 'write').map(event => event.tool!.call_id!));
	const writeResults = new Set([...pageEvents].filter(event => event.kind === 'tool_result' && event.result?.call_id && writeCalls.has(event.result.call_id)));
	const first = new Map<SessionEvent, number>();
	const done = new Set<SessionEvent>();
	const repeated = new Set<SessionEvent>();
	const records = units.map(({record, events}, index) => {
		if (index >= newestFrom) {
			return record;
		}

		let rewritten: PageRecord | undefined;
		let saved = 0;
		let pruned: SessionEvent[] = [];
		let copied: SessionEvent[] = [];
		const otherReasons: string[] = [];
		if (view === 'events') {
			// A result's own record, and records that repeat it under its call id (but not the call itself).
			const calls = new Set(events.filter(event => event.kind === 'tool_call').map(event => event.tool?.call_id));
			const elsewhere = (ids: ReadonlyMap<string, SessionEvent>) => namedCalls(record.event, ids).filter(result => !events.includes(result) && !calls.has(result.result!.call_id));
			const targets = [...events.filter(event => decisions.has(event)), ...elsewhere(byCallId)];
			let event = record.event;
			if (targets.length > 0) {
				const results = [...events.filter(event => event.kind === 'tool_result'), ...targets].filter(result => result.result?.call_id);
				const keep: Kept = {
					inputs: events.flatMap(event => (event.kind === 'tool_result' ? [] : ownTexts(event))),
					outputs: events.flatMap(event => (event.kind === 'tool_result' && !decisions.has(event) ? [event.result!.output] : [])),
					results: new Map(results.map(result => [result.result!.call_id!, result])),
				};
				const result = rewriteNative(event, targets.map(target => notes.get(target)!), keep);
				if (result.saved > 0) {
					event = result.raw;
					saved = result.saved;
					pruned = [...result.results];
				}
			}

			const copies = [...events.filter(event => copyable(event)), ...elsewhere(keptByCallId)];
			if (copies.length > 0) {
				const keep = events.flatMap(event => (event.kind === 'tool_result' ? [] : ownTexts(event)));
				const result = rewriteCopies(event, copies.map(copy => ({result: copy, output: copy.result!.output})), first, record.line, keep);
				// The note and the marks ride beside what is left: a copy goes only when that pays.
				if (result.saved > 80) {
					event = result.raw;
					saved += result.saved;
					copied = [...result.results];
				}
			}

			// The store's copy of an edited file as it was before the edit, which the model was never shown.
			const edited = events.some(result => result.kind === 'tool_result' && !result.result!.is_error && writeResults.has(result));
			const preEdit = edited ? dropPreEditFile(session.source, event) : undefined;
			if (preEdit) {
				event = preEdit.raw;
				saved += preEdit.saved;
				receipt.pre_edit_files++;
				otherReasons.push(preEditReason);
			}

			if (event !== record.event) {
				rewritten = {...record, event};
			}
		} else if (view === 'context' || view === 'index') {
			const event = events.find(candidate => decisions.has(candidate));
			if (!event) {
				return record;
			}

			const note = '[omitted]';
			const output = record['output'] as Preview | undefined;
			const shown = view === 'context' ? (output ? output.preview.length + output.preview_tail.length : 0) : String(record['preview']).length;
			// The reason rides beside the note: pruning pays only when both are shorter than what they replace.
			if (note.length + decisions.get(event)!.reason.length + 40 < shown) {
				rewritten = view === 'context'
					? {...record, output: {preview: note, preview_tail: '', preview_truncated: false, chars: note.length, omitted_chars: output!.chars}}
					: {...record, preview: note};
				saved = shown - note.length;
				pruned = [event];
			}
		}

		if (!rewritten) {
			return record;
		}

		receipt.pruned_count++;
		receipt.saved_chars_estimate += saved;
		for (const result of pruned) {
			if (!done.has(result)) {
				done.add(result);
				receipt[counters[decisions.get(result)!.rule]]++;
			}
		}

		for (const result of copied) {
			if (!repeated.has(result)) {
				repeated.add(result);
				receipt.repeated_outputs++;
			}
		}

		const reasons = [...pruned.map(result => decisions.get(result)!.reason), ...copied.map(result => `copy of the output at line ${first.get(result)!}`), ...otherReasons];
		return {...rewritten, pruned: true, prune_reason: reasons.join('; ')};
	});
	return {records, receipt};
}
