import * as z from 'zod/mini';

/**
 * Field helpers every adapter's record schemas share. Tools that re-serialise transcripts
 * (Python, pydantic) write an absent field as an explicit `null` (formats.md, general rule 3):
 * that is the same absent field, never a reason to reject the record.
 */

/** An optional field; `null` reads as absent. */
export function optional<T extends z.core.SomeType>(schema: T) {
	return z.optional(z.pipe(z.nullable(schema), z.transform(value => value ?? undefined)));
}

/** An optional field that also reads as absent when a writer stored a value of another type. */
export function lenient<T extends z.core.SomeType>(schema: T) {
	return z.catch(optional(schema), undefined);
}

/** A record this adapter knows but cannot read, and why: the reason names a field, never its content. */
export type Unreadable = {readonly unreadable: string};

/** Why a record failed its schema: the first field that did not match (`invalid field isMeta`). */
export function unreadable(error: {readonly issues: ReadonlyArray<{readonly path: readonly PropertyKey[]}>}): Unreadable {
	const path = error.issues[0]?.path ?? [];
	return {unreadable: path.length === 0 ? 'not a record object' : `invalid field ${path.map(String).join('.')}`};
}

export function isUnreadable(value: unknown): value is Unreadable {
	return value !== null && typeof value === 'object' && !Array.isArray(value) && typeof (value as Unreadable).unreadable === 'string';
}
