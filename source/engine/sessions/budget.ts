import {EngiError} from '../errors.js';
import type {Brief} from './brief-schema.js';

type Section = 'files_touched' | 'commands' | 'tool_failures' | 'pending_calls' | 'unresolved';
const sections: readonly Section[] = ['files_touched', 'commands', 'tool_failures', 'pending_calls', 'unresolved'];

/** Ever shorter caps for the three quoted texts, tried once every optional item is gone. */
const textSteps: ReadonlyArray<{first: number; user: number; assistant: number; title: number}> = [
	{first: 400, user: 600, assistant: 900, title: 200},
	{first: 160, user: 240, assistant: 360, title: 120},
	{first: 60, user: 80, assistant: 120, title: 60},
];

function cap(excerpt: Brief['latest_user'], limit: number): Brief['latest_user'] {
	if (!excerpt || excerpt.text.length <= limit) {
		return excerpt;
	}

	return {line: excerpt.line, text: excerpt.text.slice(0, limit - 1) + '…', truncated: true};
}

function citedLines(brief: Brief): number[] {
	const lines = [
		brief.first_request?.line,
		brief.latest_user?.line,
		brief.latest_assistant?.line,
		...brief.unresolved.map(item => item.line),
		...brief.tool_failures.map(item => item.line),
		...brief.pending_calls.map(item => item.line),
		...brief.files_touched.map(item => item.line),
		...brief.commands.map(item => item.line),
	].filter((line): line is number => typeof line === 'number');
	return [...new Set(lines)].sort((a, b) => a - b);
}

type Placed = {section: Section; index: number; line: number};

/** Every optional item, least recent first (items without a line last; ties in section order). */
function oldestFirst(brief: Brief): Placed[] {
	const items = sections.flatMap(section => (brief[section] as Array<{line: number | null}>).map((item, index) => ({section, index, line: item.line ?? Number.POSITIVE_INFINITY})));
	// Array.prototype.sort is stable: equal lines keep section order, then item order.
	return items.sort((a, b) => a.line - b.line);
}

/** The brief without its `count` least recent optional items, and how many each section lost. */
function withoutOldest(brief: Brief, order: readonly Placed[], count: number): {brief: Brief; dropped: Map<Section, number>} {
	// Sections are listed as omitted in the order they first lost an item.
	const gone = new Map<Section, Set<number>>();
	for (const item of order.slice(0, count)) {
		gone.set(item.section, (gone.get(item.section) ?? new Set()).add(item.index));
	}

	const trimmed = {...brief};
	for (const [section, indexes] of gone) {
		(trimmed as Record<Section, unknown[]>)[section] = (brief[section] as unknown[]).filter((_, index) => !indexes.has(index));
	}

	return {brief: trimmed, dropped: new Map([...gone].map(([section, indexes]) => [section, indexes.size]))};
}

/**
 * Fits a brief to a token budget, measured on the whole printed document. The least recent
 * optional items (files, commands, failures, pending calls, markers) go first, then the quoted
 * texts are shortened; every omission is listed. It never returns a brief over the budget:
 * when even the skeleton does not fit, that is an error with exit 2.
 *
 * How many items to drop is found by bisection (the document shrinks as items go), so a brief
 * of a session with thousands of commands is measured a dozen times, not thousands: that
 * matters most with exact counts, where each measure encodes the whole document.
 */
export function fitBrief(
	full: Brief,
	budget: number,
	count: (text: string) => number,
	options: {exact: boolean; schema: string; expandCommands: (lines: number[]) => string[]},
): Brief {
	const start: Brief = {...full, budget, tokens_exact: options.exact};
	let dropped = new Map<Section, number>();
	const measureWith = (candidate: Brief, lost: Map<Section, number>): number => {
		const expand = options.expandCommands(citedLines(candidate));
		const omitted = [...lost].map(([section, items]) => ({section, items}));
		// Measured with a five-digit placeholder, so writing the real (smaller) count cannot grow it.
		return count(JSON.stringify({schema: options.schema, ...candidate, expand, omitted, tokens: 99_999}));
	};

	const measure = (candidate: Brief): number => measureWith(candidate, dropped);
	const finish = (candidate: Brief, tokens: number): Brief => ({
		...candidate,
		expand: options.expandCommands(citedLines(candidate)),
		omitted: [...dropped].map(([section, items]) => ({section, items})),
		tokens,
	});

	let brief = start;
	let tokens = measure(brief);
	if (tokens > budget) {
		const order = oldestFirst(start);
		const fits = new Map<number, {brief: Brief; dropped: Map<Section, number>; tokens: number}>();
		const attempt = (drop: number) => {
			const trial = withoutOldest(start, order, drop);
			const measured = {...trial, tokens: measureWith(trial.brief, trial.dropped)};
			fits.set(drop, measured);
			return measured;
		};

		// The fewest drops that fit: every drop below `low` was over budget, `high` fits (or is all).
		let low = 1;
		let high = order.length;
		while (low < high) {
			const middle = Math.floor((low + high) / 2);
			if (attempt(middle).tokens <= budget) {
				high = middle;
			} else {
				low = middle + 1;
			}
		}

		const chosen = fits.get(high) ?? attempt(high);
		brief = chosen.brief;
		dropped = chosen.dropped;
		tokens = chosen.tokens;
	}

	for (const step of textSteps) {
		if (tokens <= budget) {
			break;
		}

		const title = brief.title !== null && brief.title.length > step.title ? brief.title.slice(0, step.title - 1) + '…' : brief.title;
		brief = {...brief, title, first_request: cap(brief.first_request, step.first), latest_user: cap(brief.latest_user, step.user), latest_assistant: cap(brief.latest_assistant, step.assistant), warnings: []};
		tokens = measure(brief);
	}

	if (tokens > budget) {
		throw new EngiError('budget_too_small', `the smallest brief of this session needs about ${tokens} tokens, more than --budget ${budget}`, {
			hint: `raise --budget to at least ${tokens}`,
			exitCode: 2,
		});
	}

	if (!options.exact) {
		return finish(brief, tokens);
	}

	// Exact counts are exact for the document as printed: measure again with the real number,
	// which is never longer than the placeholder, so the result still fits.
	let exact = tokens;
	for (let round = 0; round < 3; round++) {
		const next = count(JSON.stringify({schema: options.schema, ...finish(brief, exact)}));
		if (next === exact) {
			break;
		}

		exact = next;
	}

	return finish(brief, exact);
}
