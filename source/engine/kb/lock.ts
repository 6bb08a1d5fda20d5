import {closeSync, existsSync, linkSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, utimesSync, writeSync, type Stats} from 'node:fs';
import {hostname} from 'node:os';
import {join} from 'node:path';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {processAlive} from '../../lib/process-alive.js';

/**
 * The lock a writer holds while it changes a knowledge base's journal (or a project's
 * checkpoints). The work under it is mostly synchronous, so no timer could refresh it meanwhile:
 * long work calls `heartbeat()` between chunks, and every step that changes the file calls
 * `confirm()` first, which fails with `lock_lost` if another process has taken the lock over.
 */
export type HeldLock = {
	/** Throws `lock_lost` unless the lock file still holds our token; marks the lock fresh. */
	confirm(): void;
	/** `confirm()`, at most once a second: cheap enough to call on every line of a long scan. */
	heartbeat(): void;
};

/**
 * A lock nobody refreshed for this long belongs to a process that stopped (SIGSTOP, a laptop
 * lid) or to another host. Holders refresh at least every second while they work, so this is
 * far above any real gap; a holder that died on this host is seen at once by its pid.
 */
const staleMs = 30_000;
/** How long a writer waits for a live holder before giving up with `lock_timeout`. */
const waitMs = 60_000;
const heartbeatMs = 1000;

type Owner = {readonly pid: number; readonly host: string; readonly token: string};

/**
 * Runs `work` holding an exclusive cross-process lock: the file `<directory>/<name>.lock`,
 * created with O_EXCL and holding the owner's pid, host and a random token. A lock whose owner
 * died on this host, or that nobody refreshed for `staleMs`, is taken over; a knowledge base
 * that cannot be written is refused at once with `read_only` instead of waiting for a lock
 * that can never be taken. (Older engi versions locked with a directory of the same name; one
 * left behind is honoured, and taken over once stale.)
 */
export async function withExclusiveLock<T>(directory: string, name: string, work: (lock: HeldLock) => T): Promise<T> {
	try {
		mkdirSync(directory, {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(directory, error);
	}

	const path = join(directory, `${name}.lock`);
	// Unique among every lock ever taken here (node:crypto would cost a few ms of start-up for it).
	const owner: Owner = {pid: process.pid, host: hostname(), token: `${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`};
	await acquire(path, owner);
	let refreshed = Date.now();
	const lock: HeldLock = {
		confirm() {
			const lost = () =>
				new EngiError('lock_lost', `another process took over the lock ${path} while this one worked; nothing more was written`, {
					hint: 'this process was stalled longer than the lock stays valid; run the command again',
				});
			if (readOwner(path)?.token !== owner.token) {
				throw lost();
			}

			const now = new Date();
			try {
				utimesSync(path, now, now);
			} catch (error) {
				throw systemErrorCode(error) === 'ENOENT' ? lost() : writeError(path, error);
			}

			refreshed = now.getTime();
		},
		heartbeat() {
			if (Date.now() - refreshed >= heartbeatMs) {
				lock.confirm();
			}
		},
	};
	try {
		const result = work(lock);
		if (!(result instanceof Promise)) {
			return result;
		}

		// Work that waits (for another lock, say) lets timers run: keep the lock fresh meanwhile.
		// A lock lost on the way is not thrown here but by the work's own next confirm().
		const keepFresh = setInterval(() => {
			try {
				lock.heartbeat();
			} catch {}
		}, heartbeatMs);
		try {
			return await result;
		} finally {
			clearInterval(keepFresh);
		}
	} finally {
		release(path, owner);
	}
}

async function acquire(path: string, owner: Owner): Promise<void> {
	const deadline = Date.now() + waitMs;
	for (let attempt = 0; ; attempt++) {
		if (tryCreate(path, owner)) {
			return;
		}

		const seen = inspect(path);
		if (seen === undefined) {
			continue; // Released between our attempt and the look: try again at once.
		}

		if (isStale(seen)) {
			takeOver(path, seen, owner.token);
			continue;
		}

		if (Date.now() >= deadline) {
			const holder = seen.owner ? `pid ${seen.owner.pid} on ${seen.owner.host}` : 'an unknown process';
			throw new EngiError('lock_timeout', `could not take the lock ${path} within ${waitMs / 1000} s: held by ${holder}`, {
				hint: `another engi process is writing; retry, or remove ${path} if no engi process is running`,
			});
		}

		const delay = Math.min(150, 5 * 1.15 ** attempt) * (1 + Math.random());
		await new Promise(resolve => setTimeout(resolve, delay));
	}
}

/** True when we created the lock file; false when one exists. Anything else is a typed error. */
function tryCreate(path: string, owner: Owner): boolean {
	let fd: number;
	try {
		fd = openSync(path, 'wx', 0o600);
	} catch (error) {
		if (systemErrorCode(error) === 'EEXIST') {
			return false;
		}

		throw writeError(path, error);
	}

	try {
		writeSync(fd, JSON.stringify(owner));
	} catch (error) {
		// A full disk takes the empty file but not its few bytes: leave no ownerless lock behind.
		closeSync(fd);
		rmSync(path, {force: true});
		throw writeError(path, error);
	}

	closeSync(fd);
	return true;
}

type Seen = {readonly stats: Stats; readonly owner: Owner | undefined};

function inspect(path: string): Seen | undefined {
	let stats: Stats;
	try {
		stats = lstatSync(path);
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return undefined;
		}

		throw writeError(path, error);
	}

	return {stats, owner: stats.isFile() ? readOwner(path) : undefined};
}

function readOwner(path: string): Owner | undefined {
	try {
		const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>;
		return typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.token === 'string' ? (value as Owner) : undefined;
	} catch {
		// Missing, a directory (an older engi's lock), or caught between creation and its one write.
		return undefined;
	}
}

function isStale(seen: Seen): boolean {
	if (seen.owner && seen.owner.host === hostname() && !processAlive(seen.owner.pid)) {
		return true;
	}

	return Date.now() - seen.stats.mtimeMs > staleMs;
}

/**
 * Removes a stale lock without ever removing a live one: two writers may judge the same lock
 * stale, and the slower must not delete the lock the faster has just created. So the lock is
 * renamed aside (only one rename can win), and if what was moved is not the lock judged stale,
 * it is linked back where it was.
 */
function takeOver(path: string, seen: Seen, token: string): void {
	const aside = `${path.slice(0, -'.lock'.length)}.stale-${token}.lock`;
	try {
		renameSync(path, aside);
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return;
		}

		throw writeError(path, error);
	}

	const moved = lstatSync(aside);
	const same = moved.ino === seen.stats.ino && moved.mtimeMs === seen.stats.mtimeMs && (moved.isDirectory() || readOwner(aside)?.token === seen.owner?.token);
	if (!same) {
		try {
			// Back without replacing anything: if yet another writer holds the path by now, the
			// owner we displaced finds its lock lost at its next confirm() and writes nothing more.
			if (moved.isDirectory()) {
				if (!existsSync(path)) {
					renameSync(aside, path);
				}
			} else {
				linkSync(aside, path);
			}
		} catch {}
	}

	rmSync(aside, {recursive: true, force: true});
}

/** Removes the lock if it is still ours; a lock another process took over is left to it. */
function release(path: string, owner: Owner): void {
	if (readOwner(path)?.token === owner.token) {
		rmSync(path, {force: true});
	}
}
