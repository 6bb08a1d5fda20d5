import {statSync} from 'node:fs';

/**
 * A file's status as discovery reads it, without node's Stats object.
 *
 * A warm call at L stats ~15,000 session files to see which changed. Node 20's statSync turns
 * each answer into a Stats object with four Dates: 13 MB of the ~58 MB such a call allocates,
 * and ~20 ms of its time, before the garbage that follows. Node's own fs binding hands the same
 * numbers back as a shared Float64Array; fileStatus reads the four it needs from there.
 *
 * That binding is internal (process.binding is deprecated, documentation-only), so it is used
 * only once a probe has shown it answers exactly as statSync does for a file and a missing path,
 * never where asking for it would print a deprecation warning, and never on Windows (where
 * statSync also rewrites the path). Anything else gets statSync itself: same answers, slower.
 */

/** What discovery needs of a status. fs.Stats has each, so statSync's answer is one too. */
export type FileStatus = {
	readonly size: number;
	readonly mtimeMs: number;
	readonly ino: number;
	isFile(): boolean;
	isDirectory(): boolean;
};

/** Node's fs binding: stat(path, bigint, request, throwIfNoEntry) as statSync calls it. */
type StatBinding = {stat(path: string, bigint: false, request: undefined, throwIfNoEntry: false): unknown};

/** Offsets in the binding's array (node's src/node_file.h FsStatsOffset). */
const field = {mode: 1, ino: 7, size: 8, mtimeSeconds: 12, mtimeNanoseconds: 13} as const;
const fieldCount = 14;

const typeMask = 0o170_000;
const regularFile = 0o100_000;
const directory = 0o040_000;

class StatusFields implements FileStatus {
	constructor(
		readonly size: number,
		readonly mtimeMs: number,
		readonly ino: number,
		private readonly mode: number,
	) {}

	isFile(): boolean {
		return (this.mode & typeMask) === regularFile;
	}

	isDirectory(): boolean {
		return (this.mode & typeMask) === directory;
	}
}

/** statSync's own arithmetic (msFromTimeSpec), so both give the same float. */
const millisecondsOf = (seconds: number, nanoseconds: number) => seconds * 1e3 + nanoseconds / 1e6;

/** A status from the binding's answer, or undefined when it is not a stat array. */
function statusOf(values: unknown): StatusFields | undefined {
	if (!(values instanceof Float64Array) || values.length < fieldCount) {
		return undefined;
	}

	return new StatusFields(values[field.size]!, millisecondsOf(values[field.mtimeSeconds]!, values[field.mtimeNanoseconds]!), values[field.ino]!, values[field.mode]!);
}

/**
 * Whether node would warn on process.binding. Under --pending-deprecation (by flag, in either
 * spelling, or NODE_PENDING_DEPRECATION=1) node swaps process.binding for a wrapper that warns,
 * named `deprecated`; the name is checked as well as the flags, so a spelling missed here still
 * leaves statSync serving.
 */
function bindingWouldWarn(): boolean {
	const binding = (process as unknown as {binding?: unknown}).binding;
	if (typeof binding !== 'function' || binding.name !== 'binding') {
		return true;
	}

	const pending = /--pending[-_]deprecation/;
	return process.execArgv.some(flag => pending.test(flag)) || pending.test(process.env['NODE_OPTIONS'] ?? '') || process.env['NODE_PENDING_DEPRECATION'] === '1';
}

/**
 * The binding, if it may be used and answers as statSync does: the same size, time, inode and
 * type for node's own executable, and no answer (not an exception) for a name beside it that
 * does not exist (should one exist, the probe fails: statSync serves).
 */
function probeBinding(): StatBinding | undefined {
	if (process.platform === 'win32' || bindingWouldWarn()) {
		return undefined;
	}

	try {
		const binding = (process as unknown as {binding(name: string): Partial<StatBinding>}).binding('fs');
		if (typeof binding.stat !== 'function') {
			return undefined;
		}

		const candidate = binding as StatBinding;
		const probe = process.execPath;
		const ours = statusOf(candidate.stat(probe, false, undefined, false));
		const node = statSync(probe);
		const same = ours !== undefined && ours.size === node.size && ours.mtimeMs === node.mtimeMs && ours.ino === node.ino && ours.isFile() === node.isFile() && ours.isDirectory() === node.isDirectory();
		return same && candidate.stat(`${probe}.engi-probe-${process.pid}`, false, undefined, false) === undefined ? candidate : undefined;
	} catch {
		// A node without it, or one that refuses it (the permission model): statSync serves.
		return undefined;
	}
}

let binding: StatBinding | undefined | null = null;

/** The binding fileStatus reads through, probed once; undefined where statSync serves instead. */
export function statusBinding(): StatBinding | undefined {
	if (binding === null) {
		binding = probeBinding();
	}

	return binding;
}

const quietly = {throwIfNoEntry: false} as const;

/**
 * The status of `path` (following symbolic links), or undefined when it does not exist:
 * statSync(path, {throwIfNoEntry: false}), with every other error (ENOTDIR, EACCES, ELOOP…)
 * thrown as statSync throws it.
 */
export function fileStatus(path: string): FileStatus | undefined {
	const fast = statusBinding();
	// statSync refuses a path holding NUL; the system call would stop reading it there.
	if (fast === undefined || path.includes('\u0000')) {
		return statSync(path, quietly);
	}

	const values = fast.stat(path, false, undefined, false);
	return values === undefined ? undefined : (statusOf(values) ?? statSync(path, quietly));
}
