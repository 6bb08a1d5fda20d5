/**
 * How deeply nested JSON engi accepts from files it did not write itself (journal lines,
 * transcripts, store documents) and writes into its journal. V8's JSON.parse copes with any
 * depth, but JSON.stringify and every recursive walk over the value (key sorting, merging, text
 * extraction) overflow the stack a few thousand levels down. Real records nest under 20 levels;
 * 256 leaves room for odd but honest data while keeping every walk far from the stack's end.
 */
export const maxJsonDepth = 256;

/** Thrown by parseBoundedJson; a SyntaxError, so callers that treat all bad JSON alike need no change. */
export class JsonTooDeepError extends SyntaxError {
	constructor(limit: number) {
		super(`JSON nested deeper than ${limit} levels`);
		this.name = 'JsonTooDeepError';
	}
}

/**
 * True when a value nests more than `limit` arrays or objects inside each other. Walks with an
 * explicit stack, so the check cannot overflow itself, and visits containers only: a record's
 * cost is its number of objects and arrays, not its bytes (mostly long strings in transcripts).
 */
export function exceedsJsonDepth(value: unknown, limit = maxJsonDepth): boolean {
	if (value === null || typeof value !== 'object') {
		return false;
	}

	const containers: object[] = [value];
	const depths: number[] = [1];
	while (containers.length > 0) {
		const container = containers.pop()!;
		const depth = depths.pop()!;
		if (depth > limit) {
			return true;
		}

		const children = Array.isArray(container) ? (container as unknown[]) : Object.values(container);
		for (const child of children) {
			if (child !== null && typeof child === 'object') {
				containers.push(child);
				depths.push(depth + 1);
			}
		}
	}

	return false;
}

/**
 * JSON.parse for text engi did not write: nesting deeper than `limit` is a JsonTooDeepError. A
 * leading byte-order mark (a file saved by a Windows editor) is no part of the JSON.
 */
export function parseBoundedJson(text: string, limit = maxJsonDepth): unknown {
	const value = JSON.parse(text.charCodeAt(0) === 0xfe_ff ? text.slice(1) : text) as unknown;
	// Each level needs an opening and a closing bracket: short text cannot nest too deeply.
	if (text.length > limit * 2 && exceedsJsonDepth(value, limit)) {
		throw new JsonTooDeepError(limit);
	}

	return value;
}
