import {isRecord} from './text.js';

/**
 * Hand-written readers for record types a cold catalog scan parses millions of times, where zod's
 * general machinery (a result object and an issue list per field) costs more than reading the
 * transcript. Each reads what a zod `looseObject` of `lenient` fields (shared/schema.ts) gives:
 * the same keys in the same order, the same values, the same records refused. The zod schema
 * stays the record's definition and type; a test checks each reader against its schema.
 */
export type FieldReader = (value: unknown) => unknown;

/** A loose object's fields, in its schema's order: names and readers side by side, and the names as a set. */
export type Fields = {readonly names: readonly string[]; readonly readers: readonly FieldReader[]; readonly named: ReadonlyMap<string, number>};

/** `lenient(z.string())`: a string, else undefined. */
export const text: FieldReader = value => (typeof value === 'string' ? value : undefined);

/** `lenient(z.number())`: a finite number (zod refuses NaN and ±Infinity), else undefined. */
export const number: FieldReader = value => (typeof value === 'number' && Number.isFinite(value) ? value : undefined);

/** `lenient(z.boolean())`. */
export const flag: FieldReader = value => (typeof value === 'boolean' ? value : undefined);

/** `z.optional(z.unknown())`: the value as it is. */
export const any: FieldReader = value => value;

/** `lenient(z.record(z.string(), z.unknown()))`: a copy of an object's own keys, else undefined. */
export const record: FieldReader = value => {
	if (!isRecord(value)) {
		return undefined;
	}

	const copy: Record<string, unknown> = {};
	for (const key of Object.keys(value)) {
		if (key !== '__proto__') {
			copy[key] = value[key];
		}
	}

	return copy;
};

/** The fields of a loose object, in its schema's order. */
export function fields(entries: Record<string, FieldReader>): Fields {
	const names = Object.keys(entries);
	if (names.length > 96) {
		throw new RangeError('a loose object reads at most 96 fields'); // readFields' three words of bits.
	}

	return {names, readers: Object.values(entries), named: new Map(names.map((name, index) => [name, index]))};
}

/**
 * A loose object read field by field, as zod builds it: the schema's fields first (a field the
 * input lacks stays absent; one it has is set, to undefined if it does not read), then the
 * input's other keys as they are, except `__proto__`.
 */
export function looseObject(input: Record<string, unknown>, shape: Fields): Record<string, unknown> {
	return readFields(input, shape, false) as Record<string, unknown>; // Refuses nothing when not strict.
}

/**
 * looseObject and strictObject: which of the schema's fields the input has is found from the
 * input's own keys (a record has a few of the tens its schema names), then they are read in the
 * schema's order, then the input's other keys follow. With `strict`, a field that reads as
 * `refused` refuses the whole object.
 */
function readFields(input: Record<string, unknown>, shape: Fields, strict: boolean): Record<string, unknown> | typeof refused {
	const {names, readers, named} = shape;
	// Bit i of the word i >> 5 set: the input has field i (fields() allows up to 96).
	let low = 0;
	let middle = 0;
	let high = 0;
	let others = false;
	for (const key in input) {
		const index = named.get(key);
		if (index === undefined) {
			others = true;
		} else if (index < 32) {
			low |= 1 << index;
		} else if (index < 64) {
			middle |= 1 << (index - 32);
		} else {
			high |= 1 << (index - 64);
		}
	}

	const output: Record<string, unknown> = {};
	for (let index = 0; index < names.length; index++) {
		const word = index < 32 ? low : index < 64 ? middle : high;
		if ((word & (1 << (index & 31))) === 0) {
			continue;
		}

		const key = names[index]!;
		const value = readers[index]!(input[key]);
		if (strict && value === refused) {
			return refused;
		}

		output[key] = value;
	}

	if (others) {
		for (const key in input) {
			if (!named.has(key) && key !== '__proto__') {
				output[key] = input[key];
			}
		}
	}

	return output;
}

/**
 * A whole record as `z.looseObject(…)` of these fields reads it: undefined for anything but an
 * object, or for one whose `required` tag (`type`, `role`) is not a string.
 */
export function looseRecord(value: unknown, shape: Fields, required?: string): Record<string, unknown> | undefined {
	return isRecord(value) && (required === undefined || typeof value[required] === 'string') ? looseObject(value, shape) : undefined;
}

/** `lenient(z.looseObject(…))` of lenient fields: an object read as looseObject does, else undefined. */
export function object(shape: Fields): FieldReader {
	return value => (isRecord(value) ? looseObject(value, shape) : undefined);
}

/**
 * `lenient(z.array(z.looseObject(…)))` of lenient fields: an array of objects, each read as
 * looseObject does; undefined for anything else, a single element that is not an object included.
 */
export function objects(shape: Fields): FieldReader {
	return value => (Array.isArray(value) && value.every(item => isRecord(item)) ? value.map(item => looseObject(item as Record<string, unknown>, shape)) : undefined);
}

/**
 * Strict objects (shared/schema.ts `optional` fields, which refuse a value of another type): a
 * reader gives `refused` where zod would report an issue. A hand reader only ever takes the fast
 * path; whatever it refuses goes to the zod schema, which decides and names the field.
 */
export const refused = Symbol('refused');

/** `optional(z.<type>())`: absent or null reads as undefined, a value of another type is refused. */
export function optionalOf(accepts: (value: unknown) => boolean): FieldReader {
	return value => (value === null ? undefined : accepts(value) ? value : refused);
}

export const isString = (value: unknown): boolean => typeof value === 'string';
export const isBoolean = (value: unknown): boolean => typeof value === 'boolean';

/** `z.optional(z.nullable(z.string()))`: null stays null. */
export const nullableString: FieldReader = value => (value === null || typeof value === 'string' ? value : refused);

/** A strict loose object: looseObject's output, or `refused` when any field is. */
export function strictObject(input: Record<string, unknown>, shape: Fields): Record<string, unknown> | typeof refused {
	return readFields(input, shape, true);
}
