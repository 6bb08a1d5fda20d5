import {EngiError, systemFailure} from '../lib/errors.js';
import type {OutputFormat} from '../cli/define.js';
import {visible} from './text.js';

/** One printed document: the schema name first, then the command's result. */
export function jsonDocument(schema: string, data: unknown): Record<string, unknown> {
	return data !== null && typeof data === 'object' && !Array.isArray(data) ? {schema, ...data} : {schema, data};
}

/** Writes one JSON document (jsonDocument) on a line. */
export function printJson(stream: NodeJS.WritableStream, schema: string, data: unknown): void {
	stream.write(JSON.stringify(jsonDocument(schema, data)) + '\n');
}

/** Human text, with any control character a transcript brought along made visible (text.ts `visible`). */
export function printHuman(stream: NodeJS.WritableStream, text: string): void {
	if (text !== '') {
		stream.write(visible(text.endsWith('\n') ? text : text + '\n'));
	}
}

/** A diagnostic beside a result: one JSON line on stderr for agents, one plain line for people. */
export function printWarning(stream: NodeJS.WritableStream, format: OutputFormat, warning: string): void {
	stream.write(format === 'json' ? `${JSON.stringify({warning})}\n` : visible(`engi: warning: ${warning}\n`));
}

/** `{"error":{"code","message","hint",…}}`: what an agent gets for a typed error, on stderr or as an MCP tool error. */
export function errorEnvelope(error: EngiError, warnings: readonly string[] = []): {error: Record<string, unknown>} {
	return {error: {code: error.code, message: error.message, hint: error.hint ?? null, ...(error.details ?? {}), ...(warnings.length > 0 ? {warnings} : {})}};
}

/**
 * The error envelope: JSON on stderr for agents, two plain lines for people. Warnings noted
 * before the failure ride inside the envelope, so stderr stays one JSON document.
 */
export function printError(stream: NodeJS.WritableStream, format: OutputFormat, error: EngiError, warnings: readonly string[] = []): void {
	if (format === 'json') {
		stream.write(JSON.stringify(errorEnvelope(error, warnings)) + '\n');
		return;
	}

	// Messages can quote a title or a path from a transcript: shown, never sent to the terminal.
	const lines = [`engi: ${error.message}`, ...(error.hint ? [`hint: ${error.hint}`] : [])];
	const candidates = error.details?.['candidates'];
	if (Array.isArray(candidates)) {
		lines.push(...candidates.slice(0, 20).map(candidate => `  ${typeof candidate === 'string' ? candidate : JSON.stringify(candidate)}`));
	}

	stream.write(visible(lines.join('\n') + '\n'));
	for (const warning of warnings) {
		printWarning(stream, format, warning);
	}
}

/** Anything that is not an EngiError is a bug; it still gets an envelope, never a bare stack. */
export function asEngiError(error: unknown): EngiError {
	if (error instanceof EngiError) {
		return error;
	}

	const failure = systemFailure(error);
	if (failure) {
		return failure;
	}

	const message = error instanceof Error ? error.message : String(error);
	return new EngiError('internal_error', message, {hint: 'this is a bug in engi; set ENGI_DEBUG=1 to see the stack', cause: error});
}
