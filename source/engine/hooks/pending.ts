import {readdirSync, readFileSync} from 'node:fs';
import {join, relative} from 'node:path';
import * as z from 'zod/mini';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {nextOffset} from '../../lib/words.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {readQueue} from '../candidates/queue.js';
import {harvestCommand, isPendingNoteName, parsePendingNote, type PendingNote} from './pending-note.js';

export const hookPendingOutputSchema = z.object({
	root: z.string(),
	folder: z.string(),
	counts: z.object({queued: z.number(), harvested: z.number(), unreadable: z.number()}),
	/** Every pending note; `pending` is the page of them from `offset`. */
	total: z.number(),
	offset: z.number(),
	next_offset: z.nullable(z.number()),
	/** Newest first. */
	pending: z.array(z.object({
		/** The note's path, relative to the knowledge base root. */
		path: z.string(),
		/**
		 * queued: no candidate note of the session was harvested since the hook ran; harvested: one
		 * was (for a note without a session id: a note of that agent); unreadable: the note's
		 * frontmatter is not what engi writes.
		 */
		status: z.enum(['queued', 'harvested', 'unreadable']),
		agent: z.nullable(z.string()),
		event: z.nullable(z.string()),
		session_id: z.nullable(z.string()),
		transcript_path: z.nullable(z.string()),
		project: z.nullable(z.string()),
		queued_at: z.nullable(z.string()),
		/** The candidate note harvested from the session since it was queued. */
		candidate: z.nullable(z.string()),
		/** The command that harvests it (null when unreadable). */
		harvest: z.nullable(z.string()),
	})),
	warnings: z.array(z.string()),
});

export type HookPendingOutput = z.infer<typeof hookPendingOutputSchema>;
type Row = HookPendingOutput['pending'][number];

/** Rows per page of `engi hook pending` unless --limit says otherwise. */
export const pendingPageSize = 50;

function pendingFiles(folder: string): string[] {
	try {
		return readdirSync(folder).filter(name => isPendingNoteName(name)).sort();
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return [];
		}

		throw new EngiError('inbox_unreadable', `cannot list ${folder} (${systemErrorCode(error) ?? 'error'})`, {hint: 'check the folder\'s permissions'});
	}
}

/**
 * Every note hooks queued, newest first, each with whether a candidate harvest has taken it
 * since, read from the pending notes and the candidate notes alone (no index). The queue is the
 * notes: a harvest of the session (the `harvest` command of each row) is what consumes one.
 */
export async function readPending(paths: KbPaths): Promise<Pick<HookPendingOutput, 'counts' | 'pending' | 'warnings'>> {
	requireKnowledgeBase(paths);
	const warnings: string[] = [];
	const notes: Array<{file: string; note: PendingNote | undefined}> = [];
	for (const name of pendingFiles(paths.harvest)) {
		const file = join(paths.harvest, name);
		try {
			notes.push({file, note: parsePendingNote(readFileSync(file, 'utf8'))});
		} catch (error) {
			warnings.push(`${relative(paths.root, file)}: cannot be read (${systemErrorCode(error) ?? 'error'})`);
		}
	}

	const queue = notes.length === 0 ? {notes: [], warnings: []} : await readQueue(paths.candidates);
	warnings.push(...queue.warnings);
	const candidateOf = (note: PendingNote) =>
		queue.notes.find(candidate => candidate.summary && candidate.summary.source === note.agent && (note.session_id === null || candidate.summary.native_id === note.session_id) && candidate.summary.harvested_at >= note.queued_at)?.ref ?? null;
	const rows: Row[] = notes.map(({file, note}) => {
		const path = relative(paths.root, file);
		if (!note) {
			return {path, status: 'unreadable', agent: null, event: null, session_id: null, transcript_path: null, project: null, queued_at: null, candidate: null, harvest: null};
		}

		const candidate = candidateOf(note);
		return {path, status: candidate ? 'harvested' : 'queued', agent: note.agent, event: note.event, session_id: note.session_id, transcript_path: note.transcript_path, project: note.project, queued_at: note.queued_at, candidate, harvest: harvestCommand(note)};
	});
	rows.sort((a, b) => ((a.queued_at ?? '') < (b.queued_at ?? '') ? 1 : (a.queued_at ?? '') > (b.queued_at ?? '') ? -1 : a.path < b.path ? -1 : 1));
	const count = (status: Row['status']) => rows.filter(row => row.status === status).length;
	return {counts: {queued: count('queued'), harvested: count('harvested'), unreadable: count('unreadable')}, pending: rows, warnings};
}

/** `engi hook pending`: a page of what readPending finds, counted whole. */
export async function listPending(paths: KbPaths, input: {limit?: number; offset?: number} = {}): Promise<HookPendingOutput> {
	const {counts, pending, warnings} = await readPending(paths);
	const offset = input.offset ?? 0;
	const page = pending.slice(offset, offset + (input.limit ?? pendingPageSize));
	return {root: paths.root, folder: paths.harvest, counts, total: pending.length, offset, next_offset: nextOffset(offset, page.length, pending.length), pending: page, warnings};
}
