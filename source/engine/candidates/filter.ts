import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {claimFields, type ClaimField, type Distillation} from './distillation.js';
import type {ServedTurn} from './evidence.js';

export const dropReasons = ['empty_text', 'no_turns', 'unknown_turn', 'unserved_turn', 'no_observed_success'] as const;
export type DropReason = (typeof dropReasons)[number];

export const droppedClaimSchema = lazySchema(() => z.object({
	field: z.enum(claimFields),
	/** Position of the claim in its list as the distiller sent it, from 0. */
	index: z.number(),
	/** The claim, masked and shortened. */
	text: z.string(),
	turns: z.array(z.number()),
	reason: z.enum(dropReasons),
	detail: z.string(),
}));

export type DroppedClaim = z.infer<typeof droppedClaimSchema>;

/** What a distiller was shown: how many turns the session has, and the ones served by number. */
export type Window = {readonly total: number; readonly served: ReadonlyMap<number, ServedTurn>};

type Claim = Distillation['verified'][number];

/** A turn whose tool call ran and succeeded: the only thing that can make a claim verified. */
const succeeded = (turn: ServedTurn | undefined) => turn?.tool?.status === 'ok';

/** What a citation check needs of a window: how many units exist, and which were served (by number). */
export type CitedWindow = {readonly total: number; readonly served: ReadonlyMap<number, unknown>};

/**
 * Why a claim's citations do not hold, if they do not: it says something, cites at least one
 * unit (a turn, an evidence unit), and each cited unit exists and was served. Shared by every
 * reply engi takes from a model: distillations here, dream's contradiction proposals.
 */
export function citationRefusal(claim: {readonly text: string; readonly turns: readonly number[]}, window: CitedWindow, words = {noun: 'turn', whole: 'the session', reader: 'the distiller'}): Pick<DroppedClaim, 'reason' | 'detail'> | undefined {
	const {noun, whole, reader} = words;
	if (claim.text.trim() === '') {
		return {reason: 'empty_text', detail: 'the claim says nothing'};
	}

	if (claim.turns.length === 0) {
		return {reason: 'no_turns', detail: `a claim must cite at least one ${noun}`};
	}

	const unknown = claim.turns.filter(n => !Number.isInteger(n) || n < 1 || n > window.total);
	if (unknown.length > 0) {
		return {reason: 'unknown_turn', detail: `${noun} ${unknown.join(', ')} does not exist (${whole} has ${window.total})`};
	}

	const unserved = claim.turns.filter(n => !window.served.has(n));
	if (unserved.length > 0) {
		return {reason: 'unserved_turn', detail: `${noun} ${unserved.join(', ')} was not served to ${reader}`};
	}

	return undefined;
}

function judge(field: ClaimField, claim: Claim, window: Window): Pick<DroppedClaim, 'reason' | 'detail'> | undefined {
	const refused = citationRefusal(claim, window);
	if (refused) {
		return refused;
	}

	if (field === 'verified' && !claim.turns.some(n => succeeded(window.served.get(n)))) {
		return {reason: 'no_observed_success', detail: 'a verified claim must cite a turn whose command or tool call succeeded'};
	}

	return undefined;
}

/**
 * The citation filter: every claim cites at least one turn; each cited turn exists and was
 * served; a `verified` claim cites a turn where a command or tool call was seen to succeed (a
 * distiller may summarise evidence, not supply it: "the build passes" on an assistant's word
 * alone is the claim that makes the next agent skip the build). `next` is a proposal and is not
 * filtered. Claims that fail are returned with the reason, never dropped silently.
 */
export function filterDistillation(distillation: Distillation, window: Window): {kept: Pick<Distillation, ClaimField | 'next'>; dropped: DroppedClaim[]} {
	const dropped: DroppedClaim[] = [];
	const kept = {verified: [] as Claim[], failed: [] as Claim[], blockers: [] as Claim[], decided: [] as Claim[], next: distillation.next?.trim() ? distillation.next : null};
	for (const field of claimFields) {
		for (const [index, claim] of distillation[field].entries()) {
			const refused = judge(field, claim, window);
			if (refused) {
				dropped.push({field, index, text: claim.text, turns: claim.turns, ...refused});
			} else {
				kept[field].push({text: claim.text, turns: [...new Set(claim.turns)].sort((a, b) => a - b)});
			}
		}
	}

	return {kept, dropped};
}
