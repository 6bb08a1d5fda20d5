import {fileFingerprint, statOrUndefined} from './fs.js';

/** What was worked out from each file, with the version of the file it was worked out from. */
export type VersionMemo<T> = Map<string, {readonly stamp: string; readonly value: T}>;

/**
 * A sidecar a reader consults for many sessions (an app's summary table or list), worked out once
 * per version of the file in this process: again only when its status (or, `withWal`, its
 * write-ahead log's) changes. Undefined when there is no such file, or it is larger than
 * `maxBytes` (then it is not the file its reader knows).
 */
export function readPerVersion<T>(memo: VersionMemo<T>, path: string, read: () => T, options: {readonly withWal?: boolean; readonly maxBytes?: number} = {}): T | undefined {
	const stats = statOrUndefined(path);
	if (!stats?.isFile() || (options.maxBytes !== undefined && stats.size > options.maxBytes)) {
		return undefined;
	}

	const wal = options.withWal ? statOrUndefined(`${path}-wal`) : undefined;
	const stamp = `${fileFingerprint(stats)}|${wal?.isFile() ? fileFingerprint(wal) : ''}`;
	const known = memo.get(path);
	if (known?.stamp === stamp) {
		return known.value;
	}

	const value = read();
	memo.set(path, {stamp, value});
	return value;
}
