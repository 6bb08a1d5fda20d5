import * as z from 'zod/mini';
import {isCanonicalUtc} from '../lib/time.js';

/**
 * Flag value schemas. parseArgs hands over strings; these turn them into typed values with
 * messages that say what is accepted, so a bad value is a clear error rather than a surprise.
 */

/**
 * The JSON value a caller without a command line (an MCP client) sends for a flag, where that is
 * not the string argv carries: an integer for `--limit`, one of the choices for `--view`. A tool's
 * input schema shows it (z.toJSONSchema merges these entries in); the MCP face turns such a value
 * back into its argv string, which the flag's own schema then parses as on the command line.
 */
export const flagJsonShapes = z.registry<Record<string, unknown>>();

function withJsonShape<Schema extends z.ZodMiniType>(schema: Schema, shape: Record<string, unknown>): Schema {
	flagJsonShapes.add(schema, shape);
	return schema;
}

export function intFlag(min: number, max: number) {
	return withJsonShape(z.pipe(
		z.string(),
		z.transform((value, context) => {
			const number = Number(value);
			if (!/^-?\d+$/.test(value.trim()) || number < min || number > max) {
				context.issues.push({code: 'custom', message: `must be an integer from ${min} to ${max}, got "${value}"`, input: value});
				return z.NEVER;
			}

			return number;
		}),
	), {type: 'integer', minimum: min, maximum: max});
}

export function numberFlag() {
	return withJsonShape(z.pipe(
		z.string(),
		z.transform((value, context) => {
			const number = Number(value);
			if (value.trim() === '' || !Number.isFinite(number)) {
				context.issues.push({code: 'custom', message: `must be a number, got "${value}"`, input: value});
				return z.NEVER;
			}

			return number;
		}),
	), {type: 'number'});
}

export function choiceFlag<const Choices extends readonly [string, ...string[]]>(choices: Choices) {
	return withJsonShape(z.pipe(
		z.string(),
		z.transform((value, context) => {
			if (!choices.includes(value)) {
				context.issues.push({code: 'custom', message: `must be one of ${choices.join(', ')}; got "${value}"`, input: value});
				return z.NEVER;
			}

			return value as Choices[number];
		}),
	), {type: 'string', enum: [...choices]});
}

/** A string the engine reads itself (a count or a word, as `--preview-chars <n|all>`); `shape` tells an MCP client what it may send. */
export function spelledFlag(shape: Record<string, unknown>) {
	return withJsonShape(textFlag(), shape);
}

export function textFlag() {
	return z.pipe(
		z.string(),
		z.transform((value, context) => {
			if (value.trim() === '') {
				context.issues.push({code: 'custom', message: 'must not be empty', input: value});
				return z.NEVER;
			}

			return value;
		}),
	);
}

/** `a,b,c` (or the flag repeated) as a list of trimmed, non-empty items. */
export function listFlag() {
	return z.pipe(
		z.union([z.string(), z.array(z.string())]),
		z.transform(value => (Array.isArray(value) ? value : [value]).flatMap(item => item.split(',')).map(item => item.trim()).filter(Boolean)),
	);
}

/** `--lines 3,1,3` → [1, 3]: unique positive positions, sorted, at most 100. */
export function linesFlag() {
	return z.pipe(
		z.string(),
		z.transform((value, context) => {
			const parts = value.split(',').map(part => part.trim());
			const numbers = parts.map(part => (/^\d+$/.test(part) ? Number(part) : Number.NaN));
			if (parts.some(part => part === '') || numbers.some(number => !Number.isSafeInteger(number) || number < 1)) {
				context.issues.push({code: 'custom', message: `must be positive line numbers separated by commas, got "${value}"`, input: value});
				return z.NEVER;
			}

			const unique = [...new Set(numbers)].sort((a, b) => a - b);
			if (unique.length > 100) {
				context.issues.push({code: 'custom', message: `at most 100 positions, got ${unique.length}`, input: value});
				return z.NEVER;
			}

			return unique;
		}),
	);
}

export function utcFlag() {
	return z.pipe(
		z.string(),
		z.transform((value, context) => {
			if (!isCanonicalUtc(value)) {
				context.issues.push({code: 'custom', message: `must be a UTC time like 2026-01-31T09:00:00Z, got "${value}"`, input: value});
				return z.NEVER;
			}

			return value;
		}),
	);
}

/** A SHA-256 in hex, any case, as lowercase. */
export function sha256Flag() {
	return z.pipe(
		z.string(),
		z.transform((value, context) => {
			if (!/^[\dA-Fa-f]{64}$/.test(value)) {
				context.issues.push({code: 'custom', message: `must be a SHA-256 in 64 hex digits, got "${value}"`, input: value});
				return z.NEVER;
			}

			return value.toLowerCase();
		}),
	);
}
