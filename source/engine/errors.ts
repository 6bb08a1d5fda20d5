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

export function isEngiError(error: unknown): error is EngiError {
	return error instanceof EngiError;
}

/** Node's system errors carry a `code` such as ENOENT; this narrows to them without `any`. */
export function systemErrorCode(error: unknown): string | undefined {
	if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') {
		return error.code;
	}

	return undefined;
}
