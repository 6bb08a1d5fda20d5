import {relative} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {nextOffset} from '../../lib/words.js';
import {defaultMaxTurns} from './evidence.js';
import {candidateNoteSchema, candidateStatuses, renderNote, type CandidateStatus} from './note.js';
import {replaceNote} from './note-store.js';
import {candidateRowSchema, findEntry, noteOf, pendingNote, readEntry, readQueue, reviewNotesOf, rowOf, type QueuedNote} from './queue.js';

export const listStatuses = [...candidateStatuses, 'all'] as const;

/** What `candidates list` shows unless told otherwise: the pending queue, 50 notes a page. */
export const defaultListStatus = 'pending';
export const candidatesPageSize = 50;

export const candidatesListOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	folder: z.string(),
	/** The status listed (`all` for every note). */
	filter: z.enum(listStatuses),
	/** Notes of each status in the whole queue; `unreadable`: notes whose first lines do not say what they are (counted as pending too). */
	counts: z.object({pending: z.number(), promoted: z.number(), rejected: z.number(), unreadable: z.number()}),
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	candidates: z.array(candidateRowSchema),
	warnings: z.array(z.string()),
}));

export type CandidatesListOutput = z.infer<typeof candidatesListOutputSchema>;

/** `engi candidates list`: the queue, newest harvest first, one page of one status; only that page is read whole. */
export async function listCandidates(paths: KbPaths, input: {status?: (typeof listStatuses)[number]; limit?: number; offset?: number} = {}): Promise<CandidatesListOutput> {
	requireKnowledgeBase(paths);
	const status = input.status ?? defaultListStatus;
	const offset = input.offset ?? 0;
	const limit = input.limit ?? candidatesPageSize;
	const queue = await readQueue(paths.candidates);
	const statusOf = (note: QueuedNote) => note.summary?.status ?? 'pending';
	const matching = status === 'all' ? queue.notes : queue.notes.filter(note => statusOf(note) === status);
	const page = await Promise.all(matching.slice(offset, offset + limit).map(note => readEntry(note)));
	const count = (status: CandidateStatus) => queue.notes.filter(note => statusOf(note) === status).length;
	return {
		status: 'ok',
		folder: paths.candidates,
		filter: status,
		counts: {pending: count('pending'), promoted: count('promoted'), rejected: count('rejected'), unreadable: queue.notes.filter(note => note.summary === undefined).length},
		total: matching.length,
		offset,
		next_offset: nextOffset(offset, page.length, matching.length),
		candidates: page.map(entry => rowOf(entry, relative(paths.root, entry.file))),
		warnings: queue.warnings,
	};
}

export const candidateShowOutputSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	candidate: candidateRowSchema,
	/** The whole frontmatter: facts, claims with the turns they cite, what promotion wrote; null when unreadable. */
	note: z.nullable(candidateNoteSchema),
	/** What a person wrote under the note's review heading. */
	review_notes: z.string(),
	/** Every turn a kept claim cites, and the command that shows them. */
	cited_turns: z.array(z.number()),
	commands: z.object({evidence: z.string(), cited: z.nullable(z.string()), promote: z.nullable(z.string()), reject: z.nullable(z.string())}),
}));

export type CandidateShowOutput = z.infer<typeof candidateShowOutputSchema>;

/** `engi candidates show`: one note, everything it says; an unreadable one with what is wrong. */
export async function showCandidate(paths: KbPaths, input: {ref: string}): Promise<CandidateShowOutput> {
	requireKnowledgeBase(paths);
	const entry = await findEntry(paths.candidates, input.ref);
	const note = noteOf(entry) ?? null;
	const cited = note === null ? [] : [...new Set([...note.verified, ...note.failed, ...note.blockers, ...note.decided].flatMap(claim => claim.turns))].sort((a, b) => a - b);
	const pending = note?.status === 'pending';
	const maxTurns = note?.max_turns ?? defaultMaxTurns;
	return {
		status: 'ok',
		candidate: rowOf(entry, relative(paths.root, entry.file)),
		note,
		review_notes: reviewNotesOf(entry),
		cited_turns: cited,
		commands: {
			evidence: `engi candidates evidence ${entry.ref} --max-turns ${maxTurns}`,
			cited: cited.length === 0 ? null : `engi candidates evidence ${entry.ref} --turns ${cited.join(',')}`,
			promote: pending ? `engi candidates promote ${entry.ref}` : null,
			reject: pending ? `engi candidates reject ${entry.ref}` : null,
		},
	};
}

export const candidateRejectOutputSchema = lazySchema(() => z.object({status: z.literal('rejected'), ref: z.string(), path: z.string(), reviewed_at: z.string()}));

export type CandidateRejectOutput = z.infer<typeof candidateRejectOutputSchema>;

/**
 * `engi candidates reject`: the note is kept, its status rewritten, so the queue no longer offers
 * it: the record that a session was seen and dismissed is worth keeping. Nothing else is written.
 */
export async function rejectCandidate(paths: KbPaths, input: {ref: string}, deps: Deps): Promise<CandidateRejectOutput> {
	requireKnowledgeBase(paths);
	const entry = await findEntry(paths.candidates, input.ref);
	const note = pendingNote(entry);
	const reviewedAt = deps.now().toISOString();
	await replaceNote(paths, entry, renderNote({...note, status: 'rejected', reviewed_at: reviewedAt}, reviewNotesOf(entry)));
	return {status: 'rejected', ref: entry.ref, path: relative(paths.root, entry.file), reviewed_at: reviewedAt};
}
