import {mkdirSync} from 'node:fs';
import {join} from 'node:path';
import {EngiError} from '../errors.js';

/**
 * An exclusive cross-process lock on a knowledge base's journal. proper-lockfile keeps a lock
 * directory whose mtime the holder refreshes; a holder that crashed stops refreshing, so after
 * `stale` ms the next writer takes the lock over instead of waiting forever.
 */
export async function withExclusiveLock<T>(directory: string, name: string, work: () => T | Promise<T>): Promise<T> {
	const {default: lockfile} = await import('proper-lockfile');
	mkdirSync(directory, {recursive: true});
	const target = join(directory, name);
	let release: () => Promise<void>;
	try {
		release = await lockfile.lock(target, {
			realpath: false,
			lockfilePath: `${target}.lock`,
			stale: 5000,
			update: 1000,
			retries: {retries: 400, factor: 1.15, minTimeout: 5, maxTimeout: 150, randomize: true},
		});
	} catch (error) {
		throw new EngiError('lock_timeout', `could not take the lock ${target}.lock`, {
			hint: 'another engi process is writing; retry, or remove the lock directory if no engi process is running',
			cause: error,
		});
	}

	try {
		return await work();
	} finally {
		await release().catch(() => undefined);
	}
}
