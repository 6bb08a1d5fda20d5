import {closeSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, statSync, writeSync, type Stats} from 'node:fs';
import {dirname} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import type {HeldLock} from '../kb/lock.js';
import {createAtomicFile, fsyncDirectory} from '../../lib/atomic.js';
import {appendDurably} from '../../lib/files.js';
import {decodeLine, forEachLineFd} from '../../lib/lines.js';
import {pauseAt} from '../../lib/test-pause.js';

export type MovedLine = {readonly line: number; readonly reason: string};

export type LineRepairOptions = {
	/** An append-only JSONL file engi owns: the journal, or a project's checkpoints. */
	readonly path: string;
	/** Why a non-blank line must leave the file, or undefined when it stays. */
	readonly classify: (text: string) => string | undefined;
	/** Where moved lines are appended, verbatim, one per line. */
	readonly quarantineFile: string;
	readonly lock: HeldLock;
	readonly deps: Deps;
};

export type LineRepair = {readonly moved: MovedLine[]; readonly quarantineFile: string | undefined};

type BadLine = MovedLine & {readonly bytes: Buffer};

/**
 * Moves every line `classify` rejects out of a line file, with the file's lock held. The lines
 * go to the quarantine first, durably: if anything later fails, they exist twice, never zero
 * times. Then the file is mended with the smallest step that does it: a torn last line is cut
 * off in place (ftruncate), a valid last line that only lacks its newline gets one, and only
 * bad lines in the middle make a rewrite, to a verified replacement renamed over the file. Each
 * step first confirms the lock is still ours and the file is still the one that was read, so a
 * writer that took the lock over meanwhile never loses a line to this one.
 */
export function repairLinesLocked(options: LineRepairOptions): LineRepair {
	const {path, lock} = options;
	let fd: number;
	try {
		fd = openSync(path, 'r+');
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return {moved: [], quarantineFile: undefined};
		}

		throw writeError(path, error);
	}

	try {
		const identity = fstatSync(fd);
		const bad: BadLine[] = [];
		let tail: {readonly offset: number; readonly keep: boolean} | undefined;
		forEachLineFd(fd, raw => {
			lock.heartbeat();
			const text = decodeLine(raw);
			const reason = text.trim() === '' ? undefined : options.classify(text);
			if (!raw.terminated) {
				tail = {offset: raw.offset, keep: reason === undefined};
			}

			if (reason !== undefined) {
				bad.push({line: raw.number, reason: raw.terminated ? reason : 'torn_tail', bytes: Buffer.from(raw.buffer.subarray(raw.start, raw.end))});
			}
		});
		if (bad.length === 0 && tail === undefined) {
			return {moved: [], quarantineFile: undefined};
		}

		if (bad.length > 0) {
			quarantineLines(options.quarantineFile, bad.map(line => line.bytes));
		}

		const moved = bad.map(({line, reason}) => ({line, reason}));
		const unchanged = () => {
			lock.confirm();
			assertSameFile(path, fd, identity);
		};

		if (tail && bad.every(line => line.reason === 'torn_tail')) {
			if (tail.keep) {
				unchanged();
				if (writeSync(fd, '\n', identity.size) !== 1) {
					throw new EngiError('write_failed', `could not end the last line of ${path}`, {hint: 'nothing was changed'});
				}
			} else {
				pauseAt(options.deps.env, 'repair.before_truncate');
				unchanged();
				ftruncateSync(fd, tail.offset);
			}

			fsyncSync(fd);
		} else {
			rewriteWithout(fd, path, new Set(bad.map(line => line.line)), identity, options, unchanged);
		}

		return {moved, quarantineFile: bad.length > 0 ? options.quarantineFile : undefined};
	} catch (error) {
		throw writeError(path, error, 'the file was left as it was; any lines already copied to the quarantine are still in it too');
	} finally {
		closeSync(fd);
	}
}

/** Copies every line but the dropped ones into a replacement (a valid last line gains its newline). */
function rewriteWithout(fd: number, path: string, dropped: ReadonlySet<number>, identity: Stats, options: LineRepairOptions, unchanged: () => void): void {
	const replacement = createAtomicFile(path, identity.mode & 0o7777);
	const newline = Buffer.from('\n');
	let batch: Buffer[] = [];
	let batched = 0;
	const flush = () => {
		replacement.write(Buffer.concat(batch, batched));
		batch = [];
		batched = 0;
	};

	try {
		forEachLineFd(fd, raw => {
			options.lock.heartbeat();
			if (dropped.has(raw.number)) {
				return;
			}

			batch.push(Buffer.from(raw.buffer.subarray(raw.start, raw.end)), newline);
			batched += raw.length + 1;
			if (batched >= 1024 * 1024) {
				flush();
			}
		});
		flush();
	} catch (error) {
		replacement.abort();
		throw error;
	}

	replacement.commit(() => {
		pauseAt(options.deps.env, 'repair.before_rename');
		unchanged();
	});
}

/** The path still names the file we opened, at the size and time we read it. */
function assertSameFile(path: string, fd: number, identity: Stats): void {
	const open = fstatSync(fd);
	let named: Stats | undefined;
	try {
		named = statSync(path);
	} catch {}

	if (named?.ino !== identity.ino || open.size !== identity.size || open.mtimeMs !== identity.mtimeMs) {
		throw new EngiError('file_changed', `${path} changed while it was being repaired`, {hint: 'nothing was changed; run the command again'});
	}
}

/** Appends lines verbatim to a quarantine file and makes them durable before anything else moves. */
function quarantineLines(file: string, lines: readonly Buffer[]): void {
	const directory = dirname(file);
	try {
		mkdirSync(directory, {recursive: true, mode: 0o700});
	} catch (error) {
		const code = systemErrorCode(error);
		if (code === 'EEXIST' || code === 'ENOTDIR') {
			throw new EngiError('quarantine_unwritable', `cannot quarantine lines: ${directory} is not a directory`, {hint: 'move that file out of the way; nothing was changed'});
		}

		throw writeError(directory, error);
	}

	let fd: number;
	try {
		fd = openSync(file, 'a', 0o600);
	} catch (error) {
		throw writeError(file, error);
	}

	try {
		appendDurably(fd, file, Buffer.concat(lines.flatMap(bytes => [bytes, Buffer.from('\n')])));
	} finally {
		closeSync(fd);
	}

	fsyncDirectory(directory);
}
