import * as z from 'zod/mini';
import {EngiError} from '../../lib/errors.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {exactTokenCounter} from '../tokens.js';
import {loadRequest} from './request.js';
import {selectItems, type MiddlewarePacket} from './select.js';

const packetSchema = lazySchema(() => z.object({stable_prefix: z.unknown(), task: z.unknown(), items: z.array(z.object({id: z.string(), content: z.unknown()}))}));

export const prepareOutputSchema = lazySchema(() => z.object({
	resolution: z.literal('prepared'),
	reference_tokenizer: z.literal('o200k_base'),
	budget_tokens: z.number(),
	/** Exact o200k_base tokens of `packet` as --packet-only prints it (without the final newline). */
	packet_tokens: z.number(),
	/** The packet with the required items only. */
	required_tokens: z.number(),
	/** Chosen items, in input order. */
	selected_ids: z.array(z.string()),
	/** Optional items left out for the budget, in input order. */
	omitted_ids: z.array(z.string()),
	/** SHA-256 of the request file's bytes: `engi middleware expand --expect-source-sha256` checks it. */
	source_sha256: z.string(),
	packet: packetSchema,
}));

export type PrepareOutput = z.infer<typeof prepareOutputSchema>;

export type PrepareResult = {output: PrepareOutput; packetText: string};

/** `engi middleware prepare`: the packet that fits the budget, and the receipt that says what it holds. */
export async function prepareMiddleware(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<PrepareResult> {
	const {request, sourceSha256} = await loadRequest(file, stdin, cwd);
	const selection = selectItems(request, await exactTokenCounter());
	return {
		packetText: selection.text,
		output: {
			resolution: 'prepared',
			reference_tokenizer: 'o200k_base',
			budget_tokens: request.budget_tokens,
			packet_tokens: selection.tokens,
			required_tokens: selection.requiredTokens,
			selected_ids: request.items.filter(item => selection.chosen.has(item)).map(item => item.id),
			omitted_ids: request.items.filter(item => !selection.chosen.has(item)).map(item => item.id),
			source_sha256: sourceSha256,
			packet: selection.packet as MiddlewarePacket,
		},
	};
}

export const expandOutputSchema = lazySchema(() => z.object({
	source_sha256: z.string(),
	items: z.array(z.object({id: z.string(), content: z.unknown()})),
}));

export type ExpandOutput = z.infer<typeof expandOutputSchema>;

/**
 * `engi middleware expand`: the content of the items asked for, in input order, from the very
 * request a packet was prepared from. A request whose bytes changed (another SHA-256) is refused
 * with exit 2: the ids may no longer mean what the packet meant.
 */
export async function expandMiddleware(input: {file: string; expectSha256: string; ids: readonly string[]}, stdin: NodeJS.ReadableStream, cwd: string): Promise<ExpandOutput> {
	const {request, sourceSha256} = await loadRequest(input.file, stdin, cwd);
	if (sourceSha256 !== input.expectSha256) {
		throw new EngiError('source_hash_mismatch', `the request has SHA-256 ${sourceSha256}, not ${input.expectSha256}`, {
			hint: 'expand from the exact file the packet was prepared from (prepare prints its source_sha256)',
			exitCode: 2,
			details: {resolution: 'unknown', reason: 'source_hash_mismatch'},
		});
	}

	const known = new Set(request.items.map(item => item.id));
	const unknown = input.ids.filter(id => !known.has(id));
	if (unknown.length > 0) {
		throw new EngiError('unknown_item', `no item ${unknown.map(id => `"${id}"`).join(', ')} in the request`, {hint: 'ids come from the request\'s items (prepare lists them in selected_ids and omitted_ids)'});
	}

	const wanted = new Set(input.ids);
	return {source_sha256: sourceSha256, items: request.items.filter(item => wanted.has(item.id)).map(item => ({id: item.id, content: item.content}))};
}
