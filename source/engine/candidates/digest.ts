import {closeSync, openSync, readSync} from 'node:fs';
import type {SessionRow} from '../../adapters/events.js';
import {readerFor} from '../../adapters/rows.js';
import type {DiscoveredUnit, SourceAdapter} from '../../adapters/types.js';
import {sha256} from '../../lib/hash.js';

/**
 * What a candidate's knowledge was taken from, pinned by sha256 and size: the idempotence key of
 * a harvest, and what evidence checks before it serves a turn. A session that is one file of its
 * own (a JSONL transcript, a chat document) is pinned by that file's bytes, which is what
 * retention can check before it retires the file. A session inside a database, or spread over
 * many files, has no bytes of its own: it is pinned by its records as engi reads them (each
 * record's JSON on a line), which changes exactly when what can be cited changes.
 */
export type SourceDigest = {readonly sha256: string; readonly bytes: number; readonly kind: 'file' | 'records'};

export function digestKind(store: SourceAdapter, unit: DiscoveredUnit): SourceDigest['kind'] {
	const adapter = readerFor(store, unit);
	if (adapter.format === 'jsonl') {
		return 'file';
	}

	return adapter.format === 'document' && unit.key === unit.path && unit.paths.length === 1 ? 'file' : 'records';
}

/** One read buffer for every digest of a call: a harvest hashes thousands of files. */
let readBuffer: Buffer | undefined;

/** The sha256 and size of a whole file, read in pieces (a transcript may be gigabytes). */
export function fileDigest(path: string): SourceDigest {
	const hash = sha256();
	readBuffer ??= Buffer.allocUnsafe(1024 * 1024);
	const buffer = readBuffer;
	let bytes = 0;
	const fd = openSync(path, 'r');
	try {
		for (let read = readSync(fd, buffer, 0, buffer.length, null); read > 0; read = readSync(fd, buffer, 0, buffer.length, null)) {
			hash.update(buffer.subarray(0, read));
			bytes += read;
		}
	} finally {
		closeSync(fd);
	}

	return {sha256: hash.digest('hex'), bytes, kind: 'file'};
}

/** The digest of a session's records, fed row by row as they are read. */
export function recordsDigester() {
	const hash = sha256();
	let bytes = 0;
	return {
		add(row: SessionRow): void {
			const line = Buffer.from(`${JSON.stringify(row.raw) ?? 'null'}\n`);
			hash.update(line);
			bytes += line.length;
		},
		finish: (): SourceDigest => ({sha256: hash.digest('hex'), bytes, kind: 'records'}),
	};
}
