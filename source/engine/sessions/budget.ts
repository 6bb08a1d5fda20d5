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

/**
 * Fits a brief to a token budget, measured on the whole printed document. The least recent
 * optional items (files, commands, failures, pending calls, markers) go first, then the quoted
 * texts are shortened; every omission is listed. It never returns a brief over the budget:
 * when even the skeleton does not fit, that is an error with exit 2.
 */
export function fitBrief(
	full: Brief,
	budget: number,
	count: (text: string) => number,
	options: {exact: boolean; schema: string; expandCommands: (lines: number[]) => string[]},
): Brief {
	let brief: Brief = {...full, budget, tokens_exact: options.exact};
	const dropped = new Map<Section, number>();
	const measure = (candidate: Brief): number => {
		const expand = options.expandCommands(citedLines(candidate));
		const omitted = [...dropped].map(([section, items]) => ({section, items}));
		// Measured with a five-digit placeholder, so writing the real (smaller) count cannot grow it.
		return count(JSON.stringify({schema: options.schema, ...candidate, expand, omitted, tokens: 99_999}));
	};

	const finish = (candidate: Brief, tokens: number): Brief => ({
		...candidate,
		expand: options.expandCommands(citedLines(candidate)),
		omitted: [...dropped].map(([section, items]) => ({section, items})),
		tokens,
	});

	let tokens = measure(brief);
	while (tokens > budget) {
		let oldest: {section: Section; index: number; line: number} | undefined;
		for (const section of sections) {
			(brief[section] as Array<{line: number | null}>).forEach((item, index) => {
				const line = item.line ?? Number.POSITIVE_INFINITY;
				if (oldest === undefined || line < oldest.line) {
					oldest = {section, index, line};
				}
			});
		}

		if (oldest === undefined) {
			break;
		}

		const {section, index} = oldest;
		brief = {...brief, [section]: (brief[section] as unknown[]).filter((_, position) => position !== index)};
		dropped.set(section, (dropped.get(section) ?? 0) + 1);
		tokens = measure(brief);
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
