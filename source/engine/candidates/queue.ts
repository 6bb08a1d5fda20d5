import {closeSync, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent, type Stats} from 'node:fs';
import {basename, sep} from 'node:path';
import * as z from 'zod/mini';
import {isSourceId} from '../../adapters/types.js';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {clipMasked} from '../search/secrets.js';
import {commandCountsSchema} from './session-facts.js';
import type {QueueCache} from './queue-cache.js';
import {candidateStatuses, loadYamlParser, needsYamlParser, parseNote, readNoteSummary, type CandidateNote, type NoteSummary, type ParsedNote} from './note.js';

/**
 * The review queue: every note in `00-inbox/candidates/`, read from the notes alone. Every call
 * reads the start of each note for its summary (see readNoteSummary) and the whole of only the
 * notes it shows or changes. A note that no longer parses stays in the queue, flagged
 * unreadable, under the session its file name names; it never silently drops out.
 */
export type Named = {readonly source: string | null; readonly nativeId: string; readonly suffix: string | null};

/** A note as the queue lists it. */
export type QueuedNote = {
	/** The note's file name without `.md`: what every candidates command takes as <ref>. */
	readonly ref: string;
	readonly file: string;
	/** What the file name says: the source, the native id, and the hash suffix of a sibling. */
	readonly named: Named;
	/** Undefined when the note does not say it (unreadable). */
	readonly summary: NoteSummary | undefined;
};

/** A note read whole. */
export type QueueEntry = QueuedNote & {readonly text: string; readonly parsed: ParsedNote};

/** Separates a sibling's hash suffix: never a character of a session id (see listableSessionId). */
const siblingMark = '+';

/** `<source>-<native id>` (or `…+<sha256 prefix>` for a sibling), the id spelled safely for any file system. */
export function noteStem(source: string, nativeId: string, suffix?: string): string {
	const id = [...new TextEncoder().encode(nativeId)].map(byte => (/[\w.@-]/.test(String.fromCharCode(byte)) && byte < 0x80 ? String.fromCharCode(byte) : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
	return `${source}-${id}${suffix === undefined ? '' : `${siblingMark}${suffix}`}`;
}

function namedBy(ref: string): Named {
	const dash = ref.indexOf('-');
	const source = dash > 0 && isSourceId(ref.slice(0, dash)) ? ref.slice(0, dash) : null;
	const rest = source === null ? ref : ref.slice(dash + 1);
	const mark = rest.lastIndexOf(siblingMark);
	let nativeId = mark === -1 ? rest : rest.slice(0, mark);
	try {
		nativeId = decodeURIComponent(nativeId);
	} catch {}

	return {source, nativeId, suffix: mark === -1 ? null : rest.slice(mark + 1)};
}

export type Queue = {readonly notes: QueuedNote[]; readonly warnings: string[]};

/** How much of a note the summary is read from; engi writes the summary in its first lines. */
const headBytes = 1024;
let headBuffer: Buffer | undefined;

/** The start of a file (all of it when short), read with one call. */
function readHead(file: string): {text: string; whole: boolean} {
	const fd = openSync(file, 'r');
	try {
		headBuffer ??= Buffer.allocUnsafe(headBytes);
		const buffer = headBuffer;
		const read = readSync(fd, buffer, 0, headBytes, 0);
		// A cut inside a multi-byte character decodes to a replacement mark in the last line only.
		return {text: buffer.toString('utf8', 0, read), whole: read < headBytes};
	} finally {
		closeSync(fd);
	}
}

/** A file's mtime as ISO text, for ordering a note that does not say when it was harvested. */
function mtimeOf(file: string): string {
	try {
		return statSync(file).mtime.toISOString();
	} catch {
		return '';
	}
}

/**
 * Every note of the folder with its summary, newest harvest first (one harvest's notes newest
 * session first; an unreadable note by its file's time). What cannot be read is a warning, never
 * a silent gap; the YAML parser is loaded only for notes a person reformatted. With a cache
 * (queue-cache.ts), a note whose file is as it was when last read costs a stat, not a read.
 */
export async function readQueue(folder: string, cache?: QueueCache): Promise<Queue> {
	let listed: Dirent[];
	try {
		listed = readdirSync(folder, {withFileTypes: true});
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return {notes: [], warnings: []};
		}

		throw new EngiError('candidates_unreadable', `cannot list ${folder} (${systemErrorCode(error) ?? 'error'})`, {hint: 'check the folder\'s permissions'});
	}

	const warnings: string[] = [];
	const prefix = folder.endsWith(sep) ? folder : folder + sep;
	const read: Array<{ref: string; file: string; summary: ReturnType<typeof readNoteSummary>; stats?: Stats}> = [];
	for (const entry of listed) {
		// Temporary files of a write in progress start with a dot.
		if (!entry.name.endsWith('.md') || entry.name.startsWith('.')) {
			continue;
		}

		// A plain concatenation: path.join's normalising, a thousand times over, cost more than the reads.
		const file = `${prefix}${entry.name}`;
		if (!entry.isFile()) {
			warnings.push(`${file}: not a regular file; left out of the queue`);
			continue;
		}

		try {
			// Stat'ed before it is read: a write in between leaves a state the cache will not match.
			const stats = cache ? statSync(file) : undefined;
			const cached = stats && cache!.summary(entry.name, stats);
			if (cached) {
				read.push({ref: entry.name.slice(0, -'.md'.length), file, summary: cached.summary});
				continue;
			}

			const head = readHead(file);
			let summary = readNoteSummary(head.text, {whole: head.whole});
			if (summary === 'needs_text') {
				summary = readNoteSummary(readFileSync(file, 'utf8'), {whole: true});
			}

			read.push({ref: entry.name.slice(0, -'.md'.length), file, summary, stats});
		} catch (error) {
			warnings.push(`${file}: cannot be read (${systemErrorCode(error) ?? 'error'}); left out of the queue`);
		}
	}

	if (read.some(note => note.summary === 'needs_yaml')) {
		const yaml = await loadYamlParser();
		for (const note of read.filter(candidate => candidate.summary === 'needs_yaml')) {
			note.summary = readNoteSummary(readFileSync(note.file, 'utf8'), {yaml, whole: true});
		}
	}

	if (cache) {
		for (const note of read) {
			if (note.stats) {
				cache.remember(`${note.ref}.md`, note.stats, typeof note.summary === 'object' ? note.summary : undefined);
			}
		}

		cache.save();
	}

	const notes = read.map(({ref, file, summary}) => ({ref, file, named: namedBy(ref), summary: typeof summary === 'object' ? summary : undefined}));
	const keyed = notes.map(note => ({note, key: note.summary ? `${note.summary.harvested_at}\u0000${note.summary.ended ?? ''}` : mtimeOf(note.file)}));
	keyed.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : a.note.ref < b.note.ref ? -1 : a.note.ref > b.note.ref ? 1 : 0));
	return {notes: keyed.map(({note}) => note), warnings};
}

/** A listed note read whole and parsed (the YAML parser loaded only if it needs one). */
export async function readEntry(note: QueuedNote): Promise<QueueEntry> {
	let text: string;
	try {
		text = readFileSync(note.file, 'utf8');
	} catch (error) {
		throw new EngiError('candidate_unreadable', `${note.file} cannot be read (${systemErrorCode(error) ?? 'error'})`, {hint: 'check the file\'s permissions'});
	}

	let parsed = parseNote(text);
	if (needsYamlParser(parsed)) {
		parsed = parseNote(text, await loadYamlParser());
	}

	return {...note, text, parsed};
}

export function noteOf(entry: QueueEntry): CandidateNote | undefined {
	return 'note' in entry.parsed ? entry.parsed.note : undefined;
}

/** The note of a candidate still waiting for review: the only kind a review step may change. */
export function pendingNote(entry: QueueEntry): CandidateNote {
	const note = noteOf(entry);
	if (!note) {
		throw new EngiError('candidate_unreadable', `${entry.file} cannot be read as a candidate note`, {hint: 'engi candidates show says what is wrong with it; nothing was changed'});
	}

	if (note.status !== 'pending') {
		throw new EngiError('candidate_not_pending', `${entry.ref} is ${note.status}, not pending`, {hint: 'only a pending candidate can be distilled, promoted or rejected; nothing was changed'});
	}

	return note;
}

/** What a person wrote under the note's review heading, kept whenever engi rewrites the note. */
export function reviewNotesOf(entry: QueueEntry): string {
	return 'reviewNotes' in entry.parsed ? entry.parsed.reviewNotes : '';
}

/**
 * The one note a reference names: its file name (with or without `.md`, or a path to it), else
 * the native id of exactly one note. Several notes of one session (a transcript that grew) are
 * named by their file names; engi never guesses between them.
 */
export function findNote(queue: Queue, ref: string): QueuedNote {
	const wanted = basename(ref.trim()).replace(/\.md$/, '');
	if (!/^[\w.:@%+-]{1,300}$/.test(wanted)) {
		throw new EngiError('invalid_ref', `not a candidate reference: ${JSON.stringify(ref.slice(0, 80))}`, {hint: 'name a note by its file name (engi candidates list shows them) or its session id'});
	}

	const exact = queue.notes.find(note => note.ref === wanted);
	if (exact) {
		return exact;
	}

	const bySession = queue.notes.filter(note => (note.summary?.native_id ?? note.named.nativeId) === wanted);
	if (bySession.length === 1) {
		return bySession[0]!;
	}

	if (bySession.length > 1) {
		throw new EngiError('candidate_ambiguous', `${bySession.length} candidate notes are of session ${wanted}: ${bySession.map(note => note.ref).join(', ')}`, {
			hint: 'name one by its file name',
			details: {candidates: bySession.map(note => note.ref)},
		});
	}

	throw new EngiError('candidate_not_found', `no candidate note ${wanted}`, {hint: 'engi candidates list --status all lists every note'});
}

/** The note a reference names, read whole. */
export async function findEntry(folder: string, ref: string): Promise<QueueEntry> {
	return readEntry(findNote(await readQueue(folder), ref));
}

export const candidateRowSchema = lazySchema(() => z.object({
	ref: z.string(),
	/** The note, relative to the knowledge base root. */
	path: z.string(),
	source: z.nullable(z.string()),
	native_id: z.string(),
	project: z.nullable(z.string()),
	/** An unreadable note is listed under the status its first lines give, else as pending: it stays in the queue until someone looks. */
	status: z.enum(candidateStatuses),
	tier: z.nullable(z.enum(['harvest', 'distilled'])),
	unreadable: z.boolean(),
	/** Why the note is unreadable: the line and what is wrong, never its content. */
	problem: z.nullable(z.string()),
	turns: z.nullable(z.number()),
	commands: z.nullable(commandCountsSchema),
	files: z.nullable(z.number()),
	/** The first request, on one line, shortened. */
	first_request: z.nullable(z.string()),
	started: z.nullable(z.string()),
	ended: z.nullable(z.string()),
	harvested_at: z.nullable(z.string()),
	model: z.nullable(z.string()),
}));

export type CandidateRow = z.infer<typeof candidateRowSchema>;

export function rowOf(entry: QueueEntry, relativePath: string): CandidateRow {
	const note = noteOf(entry);
	if (!note) {
		const problem = 'problem' in entry.parsed ? entry.parsed.problem : {line: null, message: 'unreadable'};
		return {
			ref: entry.ref,
			path: relativePath,
			source: entry.summary?.source ?? entry.named.source,
			native_id: entry.summary?.native_id ?? entry.named.nativeId,
			project: null,
			status: entry.summary?.status ?? 'pending',
			tier: null,
			unreadable: true,
			problem: `${problem.line === null ? '' : `line ${problem.line}: `}${problem.message}`,
			turns: null,
			commands: null,
			files: null,
			first_request: null,
			started: null,
			ended: null,
			harvested_at: null,
			model: null,
		};
	}

	return {
		ref: entry.ref,
		path: relativePath,
		source: note.source,
		native_id: note.native_id,
		project: note.project,
		status: note.status,
		tier: note.tier,
		unreadable: false,
		problem: null,
		turns: note.turns,
		commands: note.command_counts,
		files: note.files_total,
		first_request: note.first_request === null ? null : clipMasked(note.first_request.text, 160, {oneLine: true}).text,
		started: note.started,
		ended: note.ended,
		harvested_at: note.harvested_at,
		model: note.model,
	};
}
