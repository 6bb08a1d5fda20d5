import {closeSync, constants, fstatSync, openSync, readdirSync, readFileSync, realpathSync, statSync, type Dirent} from 'node:fs';
import {join, relative, sep} from 'node:path';
import * as z from 'zod/mini';
import {systemErrorCode} from '../../lib/errors.js';
import {isPendingNoteName} from '../hooks/pending-note.js';

export const skippedEntrySchema = z.object({
	/** Relative to the knowledge base root. */
	path: z.string(),
	reason: z.enum(['directory', 'not_a_regular_file', 'symlink_outside_inbox', 'symlink_to_directory', 'symlink_unresolvable', 'unreadable']),
});

export type SkippedEntry = z.infer<typeof skippedEntrySchema>;

/** A staged note to read: where it is listed, and the file behind it (a symlink's target inside the inbox). */
export type StagedNote = {readonly listed: string; readonly file: string};

export type InboxListing = {readonly notes: StagedNote[]; readonly skipped: SkippedEntry[]};

/**
 * The staged notes under `00-inbox/harvest/`, in path order. Odd entries are skipped and
 * reported instead of aborting the walk: a directory named like a note (its contents are still
 * walked), a FIFO or device, a symlink that leads out of the inbox, to a directory (never
 * followed, so a loop cannot form) or nowhere. A symlinked note whose target lies inside the
 * inbox is read. The hooks' queue entries at the top of the inbox (`pending-<digest>.md`, see
 * engine/hooks/pending-note.ts) are not staged notes: a session queued for a harvest is not
 * knowledge, so they are not listed at all.
 */
export function listInbox(inbox: string, root: string): InboxListing {
	const notes: StagedNote[] = [];
	const skipped: SkippedEntry[] = [];
	let inboxReal: string;
	try {
		inboxReal = realpathSync(inbox);
	} catch {
		return {notes, skipped};
	}

	const skip = (path: string, reason: SkippedEntry['reason']) => skipped.push({path: relative(root, path), reason});
	const visit = (directory: string) => {
		let entries: Dirent[];
		try {
			entries = readdirSync(directory, {withFileTypes: true});
		} catch {
			skip(directory, 'unreadable');
			return;
		}

		for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
			if (directory === inbox && isPendingNoteName(entry.name)) {
				continue;
			}

			const path = join(directory, entry.name);
			const isNote = entry.name.endsWith('.md');
			if (entry.isDirectory()) {
				if (isNote) {
					skip(path, 'directory');
				}

				visit(path);
			} else if (entry.isSymbolicLink()) {
				const link = followLink(path, inboxReal);
				if (isNote && link.reason === undefined) {
					notes.push({listed: path, file: link.target!});
				} else if (isNote || link.directory) {
					// A link not named like a note matters only if it hides a directory of notes.
					skip(path, link.reason ?? 'not_a_regular_file');
				}
			} else if (isNote) {
				if (entry.isFile()) {
					notes.push({listed: path, file: path});
				} else {
					skip(path, 'not_a_regular_file');
				}
			}
		}
	};

	visit(inbox);
	return {notes, skipped};
}

/** Where a symlink leads, and why it is not followed (no reason: a regular file inside the inbox). */
function followLink(path: string, inboxReal: string): {target?: string; directory: boolean; reason?: SkippedEntry['reason']} {
	let target: string;
	let directory: boolean;
	let file: boolean;
	try {
		target = realpathSync(path);
		const stats = statSync(target);
		directory = stats.isDirectory();
		file = stats.isFile();
	} catch {
		return {directory: false, reason: 'symlink_unresolvable'};
	}

	if (target !== inboxReal && !target.startsWith(inboxReal + sep)) {
		return {directory, reason: 'symlink_outside_inbox'};
	}

	return directory ? {directory, reason: 'symlink_to_directory'} : file ? {target, directory} : {directory, reason: 'not_a_regular_file'};
}

/**
 * A staged note's text, or undefined when it cannot be read as a regular file now. It is opened
 * without following a symlink, so a note swapped for one after the walk is not read through it.
 */
export function readStagedNote(note: StagedNote): string | undefined {
	let descriptor: number | undefined;
	try {
		descriptor = openSync(note.file, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
		return fstatSync(descriptor).isFile() ? readFileSync(descriptor, 'utf8') : undefined;
	} catch (error) {
		if (systemErrorCode(error) === undefined) {
			throw error;
		}

		return undefined;
	} finally {
		if (descriptor !== undefined) {
			closeSync(descriptor);
		}
	}
}
