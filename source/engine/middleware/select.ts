import {EngiError} from '../../lib/errors.js';
import type {MiddlewareItem, MiddlewareRequest} from './request.js';

/** What a model is handed: the stable prefix first, so its bytes never move, then the task and the chosen items in input order. */
export type MiddlewarePacket = {stable_prefix: unknown; task: unknown; items: Array<{id: string; content: unknown}>};

export function packetOf(request: MiddlewareRequest, chosen: ReadonlySet<MiddlewareItem>): MiddlewarePacket {
	return {
		stable_prefix: request.stable_prefix,
		task: request.task,
		items: request.items.filter(item => chosen.has(item)).map(item => ({id: item.id, content: item.content})),
	};
}

export type Selection = {packet: MiddlewarePacket; text: string; tokens: number; requiredTokens: number; chosen: ReadonlySet<MiddlewareItem>};

/** Optional items in the order they are offered a place: higher priority first (absent is 0), then input order. */
export function offerOrder(items: readonly MiddlewareItem[]): MiddlewareItem[] {
	return items
		.map((item, index) => ({item, index}))
		.filter(({item}) => !item.required)
		.sort((a, b) => (b.item.priority ?? 0) - (a.item.priority ?? 0) || a.index - b.index)
		.map(({item}) => item);
}

/**
 * Chooses the items of a packet within `budget_tokens`, counting the whole packet as printed
 * (`count` is exact o200k_base): every required item, then each optional one in offer order
 * when the packet with it still fits; one that does not fit is passed over and the next is
 * tried. Nothing is ever truncated: when the required items alone exceed the budget, that is
 * an error with exit 2.
 */
export function selectItems(request: MiddlewareRequest, count: (text: string) => number): Selection {
	const chosen = new Set(request.items.filter(item => item.required));
	let packet = packetOf(request, chosen);
	let text = JSON.stringify(packet);
	let tokens = count(text);
	const requiredTokens = tokens;
	if (tokens > request.budget_tokens) {
		throw new EngiError('required_context_exceeds_budget', `the required items alone take ${tokens} o200k tokens, more than budget_tokens ${request.budget_tokens}`, {
			hint: 'raise budget_tokens or make fewer items required; nothing is truncated',
			exitCode: 2,
			details: {resolution: 'unknown', reason: 'required_context_exceeds_budget', required_tokens: tokens, budget_tokens: request.budget_tokens},
		});
	}

	for (const item of offerOrder(request.items)) {
		chosen.add(item);
		const candidate = packetOf(request, chosen);
		const candidateText = JSON.stringify(candidate);
		const candidateTokens = count(candidateText);
		if (candidateTokens <= request.budget_tokens) {
			packet = candidate;
			text = candidateText;
			tokens = candidateTokens;
		} else {
			chosen.delete(item);
		}
	}

	return {packet, text, tokens, requiredTokens, chosen};
}
