/**
 * One error type for the whole engine. Every failure a user can cause or meet carries a stable
 * snake_case `code` (agents branch on it), a message that names files and lines but never echoes
 * private content, an optional hint saying what to do next, and the process exit code.
 */
export type ExitCode = 0 | 1 | 2;

export class EngiError extends Error {
	override readonly name = 'EngiError';
	readonly code: string;
	readonly hint: string | undefined;
	readonly exitCode: ExitCode;
	/** Structured extras for the JSON envelope, e.g. ambiguity candidates. */
	readonly details: Record<string, unknown> | undefined;

	constructor(
		code: string,
		message: string,
		options: {hint?: string; exitCode?: ExitCode; details?: Record<string, unknown>; cause?: unknown} = {},
	) {
		super(message, options.cause === undefined ? undefined : {cause: options.cause});
		this.code = code;
		this.hint = options.hint;
		this.exitCode = options.exitCode ?? 1;
		this.details = options.details;
	}
}

/** Node's system errors carry a `code` such as ENOENT; this narrows to them without `any`. */
export function systemErrorCode(error: unknown): string | undefined {
	if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
		return error.code;
	}

	return undefined;
}

const diskFullCodes = new Set(['ENOSPC', 'EDQUOT', 'SQLITE_FULL']);
const readOnlyCodes = new Set(['EROFS', 'EACCES', 'EPERM']);

/**
 * The typed error for a failed write to `path`: `disk_full` (no space or quota left),
 * `read_only` (a read-only file system or no write permission), else `write_failed` naming the
 * system's code. Writers throw it after undoing their partial work, so the hint can promise it.
 */
export function writeError(path: string, error: unknown, hint = 'nothing was changed'): EngiError {
	if (error instanceof EngiError) {
		return error;
	}

	const code = systemErrorCode(error) ?? 'error';
	if (diskFullCodes.has(code)) {
		return new EngiError('disk_full', `no space left to write ${path} (${code})`, {hint: `${hint}; free some space and retry`, cause: error});
	}

	if (readOnlyCodes.has(code) || code.startsWith('SQLITE_READONLY')) {
		return new EngiError('read_only', `${path} cannot be written (${code}): the knowledge base is read-only here`, {hint: `${hint}; writes need a writable copy`, cause: error});
	}

	return new EngiError('write_failed', `could not write ${path} (${code})`, {hint, cause: error});
}

/**
 * A system failure no engine step turned into a typed error (SQLite's own writes, mostly):
 * still typed by its code, so a full disk or a read-only mount is never reported as a bug.
 */
export function systemFailure(error: unknown): EngiError | undefined {
	const code = systemErrorCode(error) ?? '';
	if (diskFullCodes.has(code)) {
		return new EngiError('disk_full', `the disk is full (${code}): engi could not write its files`, {hint: 'free some space and retry', cause: error});
	}

	if (code === 'EROFS' || code.startsWith('SQLITE_READONLY')) {
		return new EngiError('read_only', `engi could not write its files: the file system is read-only (${code})`, {hint: 'writes need a writable copy', cause: error});
	}

	// SQLite reports a full disk under its shared-memory or WAL file as an I/O error.
	if (code.startsWith('SQLITE_IOERR')) {
		return new EngiError('io_error', `a disk I/O error stopped engi (${code}): the disk may be full or failing`, {hint: 'free some space or check the disk, then retry', cause: error});
	}

	// A cache found damaged where no caller could rebuild it (most rebuild it and go on).
	if (code.startsWith('SQLITE_CORRUPT') || code.startsWith('SQLITE_NOTADB')) {
		return new EngiError('cache_corrupt', `a cache engi keeps is damaged (${code}: ${error instanceof Error ? error.message : 'unreadable'})`, {
			hint: 'engi doctor checks the session catalog and the index, and deletes a damaged catalog; engi index rebuild replaces a damaged index. Both are rebuilt from the stores and the journal, so nothing is lost',
			cause: error,
		});
	}

	return undefined;
}
