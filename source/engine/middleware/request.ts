import * as z from 'zod/mini';
import {EngiError} from '../../lib/errors.js';
import {parseInputJson, readBoundedInput} from '../../lib/bounded-input.js';
import {sha256Hex} from '../../lib/hash.js';
import {lazySchema} from '../../lib/lazy-schema.js';

/** The most items one request may hold. */
export const maxItems = 256;

/** Any JSON value, present (an absent key is not `null`). */
const present = () => z.custom<unknown>(value => value !== undefined, {message: 'is required'});

/**
 * A middleware request (innen §5): a prefix that stays the same across calls (so a provider's
 * prompt cache keeps it), the task, the candidate context items and the budget. Unknown fields
 * are refused at every level: a misspelt `priorty` must not quietly mean "no priority".
 */
export const requestSchema = lazySchema(() => z.strictObject({
	stable_prefix: present(),
	task: present(),
	items: z.array(z.strictObject({
		id: z.string().check(z.minLength(1)),
		content: present(),
		required: z.boolean(),
		/** Higher goes first among optional items; absent counts as 0. */
		priority: z.optional(z.number()),
	})).check(z.maxLength(maxItems, `at most ${maxItems} items`)),
	budget_tokens: z.int().check(z.nonnegative()),
}));

export type MiddlewareRequest = z.infer<typeof requestSchema>;
export type MiddlewareItem = MiddlewareRequest['items'][number];

/** The request a file holds, with the SHA-256 of its exact bytes (what `expand` is bound to). */
export type LoadedRequest = {request: MiddlewareRequest; sourceSha256: string};

function issueText(issue: z.core.$ZodIssue): string {
	const where = issue.path.map(String).join('.') || 'request';
	if (issue.code === 'unrecognized_keys') {
		return `${where}: unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map(key => `"${key}"`).join(', ')}`;
	}

	if (issue.code === 'too_big') {
		return `${where}: ${issue.message}`;
	}

	return `${where}: ${issue.message === 'Invalid input' ? `expected ${'expected' in issue ? String(issue.expected) : 'another value'}` : issue.message}`;
}

/** Reads and checks a request file (`-` for stdin): at most 16 MiB, known fields only, unique ids. */
export async function loadRequest(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<LoadedRequest> {
	const name = file === '-' ? 'stdin' : file;
	const bytes = await readBoundedInput(file, stdin, cwd);
	const parsed = requestSchema.safeParse(parseInputJson(bytes, name));
	if (!parsed.success) {
		throw new EngiError('invalid_request', `${name}: ${issueText(parsed.error.issues[0]!)}`, {hint: 'a request is {stable_prefix, task, items: [{id, content, required, priority?}], budget_tokens}'});
	}

	const seen = new Set<string>();
	for (const item of parsed.data.items) {
		if (seen.has(item.id)) {
			throw new EngiError('invalid_request', `${name}: item id "${item.id}" is used twice`, {hint: 'ids name items for expand: each must be unique'});
		}

		seen.add(item.id);
	}

	return {request: parsed.data, sourceSha256: sha256Hex(bytes)};
}
