import {mkdirSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {withExclusiveLock} from '../kb/lock.js';
import type {KbPaths} from '../kb/paths.js';
import {createFileAtomic, writeFileAtomic} from '../../lib/atomic.js';
import type {QueueEntry} from './queue.js';

/**
 * Writes a new note, never over an existing one (a note may be under review): false when the
 * name is taken. Written atomically (temp and rename, read back before it is placed), owner-only.
 */
export function createNote(paths: KbPaths, stem: string, text: string): boolean {
	try {
		mkdirSync(paths.candidates, {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(paths.candidates, error);
	}

	return createFileAtomic(join(paths.candidates, `${stem}.md`), text);
}

/**
 * Runs `work` holding the candidates lock over a note that was read as `entry`, but only if the
 * note still holds exactly what was read: a person editing it, or another review step, meanwhile
 * wins, and this one is refused with `candidate_changed` before `work` writes anything. `work`
 * ends by writing the note through `write` (atomically, after confirming the lock is still ours);
 * what it writes before that (a promotion's journal batch and checkpoint) is thereby written by
 * one review step only.
 */
export async function withUnchangedNote<T>(paths: KbPaths, entry: QueueEntry, work: (write: (text: string) => void) => T | Promise<T>): Promise<T> {
	return withExclusiveLock(paths.engi, 'candidates', lock => {
		let now: string;
		try {
			now = readFileSync(entry.file, 'utf8');
		} catch (error) {
			throw new EngiError('candidate_changed', `${entry.file} could not be read again (${systemErrorCode(error) ?? 'error'}); nothing was written`, {hint: 'engi candidates list shows the queue as it is now'});
		}

		if (now !== entry.text) {
			throw new EngiError('candidate_changed', `${entry.file} changed while this command ran; nothing was written to it`, {hint: 'run the command again to act on the note as it is now'});
		}

		return work(text => {
			lock.confirm();
			writeFileAtomic(entry.file, text);
		});
	});
}

/** Replaces a note that was read as `entry`, atomically, unless it changed meanwhile (see withUnchangedNote). */
export async function replaceNote(paths: KbPaths, entry: QueueEntry, text: string): Promise<void> {
	await withUnchangedNote(paths, entry, write => write(text));
}
