import {EngiError} from '../../lib/errors.js';
import type {Brief} from './brief-schema.js';

type Section = 'files_touched' | 'commands' | 'tool_failures' | 'unresolved' | 'pending_calls';
type Caps = {readonly first: number; readonly user: number; readonly assistant: number; readonly title: number; readonly output: number};

/**
 * What an over-budget brief gives up, in order: the least telling evidence first. Files,
 * commands and the transcript's path go before any quoted text is shortened; the latest reply
 * goes before the failures; the pending calls, what the next agent most needs, go last. Within
 * a list the least recent items go first. The first request is shortened, never left out: it
 * says what the session was for.
 */
const steps: ReadonlyArray<{drop: Section} | {caps: Caps} | {without: 'latest_assistant' | 'warnings' | 'source_path' | 'resume_command'}> = [
	{drop: 'files_touched'},
	{drop: 'commands'},
	{without: 'source_path'},
	{caps: {first: 400, user: 600, assistant: 900, title: 200, output: 160}},
	{caps: {first: 160, user: 240, assistant: 360, title: 120, output: 80}},
	{without: 'warnings'},
	{without: 'latest_assistant'},
	{without: 'resume_command'},
	{caps: {first: 60, user: 80, assistant: 120, title: 60, output: 40}},
	{drop: 'tool_failures'},
	{drop: 'unresolved'},
	{drop: 'pending_calls'},
];

function cap(excerpt: Brief['latest_user'], limit: number): Brief['latest_user'] {
	if (!excerpt || excerpt.text.length <= limit) {
		return excerpt;
	}

	return {line: excerpt.line, text: excerpt.text.slice(0, limit - 1) + '…', truncated: true};
}

function capText(text: string, limit: number): string {
	return text.length <= limit ? text : text.slice(0, limit - 1) + '…';
}

function capped(brief: Brief, caps: Caps): Brief {
	return {
		...brief,
		title: brief.title === null ? null : capText(brief.title, caps.title),
		first_request: cap(brief.first_request, caps.first),
		latest_user: cap(brief.latest_user, caps.user),
		latest_assistant: cap(brief.latest_assistant, caps.assistant),
		tool_failures: brief.tool_failures.map(failure => ({...failure, output_head: capText(failure.output_head, caps.output), output_tail: capText(failure.output_tail, caps.output)})),
		pending_calls: brief.pending_calls.map(call => ({...call, input: call.input === null ? null : capText(call.input, caps.output * 2)})),
	};
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

/** The section without its `count` least recent items (items without a line count as the least recent). */
function withoutOldest(brief: Brief, section: Section, count: number): Brief {
	const items = brief[section] as Array<{line: number | null}>;
	const order = items.map((item, index) => ({index, line: item.line ?? Number.NEGATIVE_INFINITY})).sort((a, b) => a.line - b.line || a.index - b.index);
	const gone = new Set(order.slice(0, count).map(item => item.index));
	return {...brief, [section]: items.filter((_, index) => !gone.has(index))};
}

/**
 * Fits a brief to a token budget, measured on the whole printed document, by taking the steps
 * above one after another until it fits; every omission is listed. It never returns a brief over
 * the budget: when even the skeleton does not fit, that is an error with exit 2.
 *
 * How many items of a list to drop is found by bisection (the document shrinks as items go), so
 * a brief of a session with thousands of commands is measured a dozen times, not thousands:
 * that matters most with exact counts, where each measure encodes the whole document.
 */
export function fitBrief(
	full: Brief,
	budget: number,
	count: (text: string) => number,
	options: {exact: boolean; schema: string; expandCommands: (lines: number[]) => string[]},
): Brief {
	const omitted = new Map<string, number>();
	const omittedList = (extra?: readonly [string, number]) => {
		const list = new Map(omitted);
		if (extra) {
			list.set(extra[0], (list.get(extra[0]) ?? 0) + extra[1]);
		}

		return Object.fromEntries(list);
	};

	const finish = (candidate: Brief, tokens: number, extra?: readonly [string, number]): Brief => ({
		...candidate,
		expand: options.expandCommands(citedLines(candidate)),
		omitted: omittedList(extra),
		tokens,
	});
	// Measured with a five-digit placeholder, so writing the real (smaller) count cannot grow it.
	const measure = (candidate: Brief, extra?: readonly [string, number]) => count(JSON.stringify({schema: options.schema, ...finish(candidate, 99_999, extra)}));

	let brief: Brief = {...full, budget, tokens_exact: options.exact};
	let tokens = measure(brief);
	for (const step of steps) {
		if (tokens <= budget) {
			break;
		}

		if ('drop' in step) {
			const items = brief[step.drop].length;
			if (items === 0) {
				continue;
			}

			// The fewest drops that fit: every drop below `low` was over budget, `high` fits (or is all).
			const trials = new Map<number, number>();
			const attempt = (drop: number) => {
				const measured = measure(withoutOldest(brief, step.drop, drop), [step.drop, drop]);
				trials.set(drop, measured);
				return measured;
			};

			let low = 1;
			let high = items;
			while (low < high) {
				const middle = Math.floor((low + high) / 2);
				if (attempt(middle) <= budget) {
					high = middle;
				} else {
					low = middle + 1;
				}
			}

			tokens = trials.get(high) ?? attempt(high);
			brief = withoutOldest(brief, step.drop, high);
			omitted.set(step.drop, (omitted.get(step.drop) ?? 0) + high);
		} else if ('caps' in step) {
			brief = capped(brief, step.caps);
			tokens = measure(brief);
		} else if (step.without === 'warnings') {
			brief = {...brief, warnings: []};
			tokens = measure(brief);
		} else if (brief[step.without] !== null) {
			brief = {...brief, [step.without]: null};
			omitted.set(step.without, 1);
			tokens = measure(brief);
		}
	}

	if (tokens > budget) {
		// The budget is part of the document: say what suffices with that number written in it.
		let needed = tokens;
		for (let round = 0; round < 3; round++) {
			needed = Math.max(needed, measure({...brief, budget: needed}));
		}

		throw new EngiError('budget_too_small', `the smallest brief of this session needs about ${needed} tokens, more than --budget ${budget}`, {
			hint: `raise --budget to at least ${needed}`,
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
