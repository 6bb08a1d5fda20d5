import type {SessionEvent} from '../../source/adapters/events.js';
import {withLocatedSession} from '../../source/engine/conversation/locate.js';
import {walkRows} from '../../source/engine/conversation/rows.js';
import type {Deps} from '../../source/engine/deps.js';

/**
 * Where the tokens of a pruned page are, and how far any note-based rewrite could go: the
 * token bench's ceiling and composition rows (issue 15). Bench-only; the engine never does this.
 */

/** A note pruning put in place of an output (prune/page.ts), wherever it sits in a string. */
const notes = /\[omitted(?:: [^\n]*?)?; \d+ chars\]/g;

type Page = {records: Array<Record<string, unknown>>; prune?: unknown};

function stripNotes(value: unknown): unknown {
	if (typeof value === 'string') {
		return value.replace(notes, '');
	}

	if (Array.isArray(value)) {
		return value.map(item => stripNotes(item));
	}

	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, stripNotes(item)]));
	}

	return value;
}

/**
 * The ceiling of a pruned page: every output the rules called obsolete removed outright (each
 * note becomes an empty string, a context preview an empty one), the `pruned`/`prune_reason`
 * marks and the receipt gone, every record otherwise as pruning left it. No rewrite that keeps
 * the records can print less of them.
 */
export function ceilingPage(pruned: Page): Page {
	const {prune: _receipt, ...page} = pruned;
	const records = pruned.records.map(record => {
		const {pruned: _mark, prune_reason: _reason, ...rest} = record;
		if (!record['pruned']) {
			return record;
		}

		const output = rest['output'] as {preview?: string; omitted_chars?: number} | undefined;
		if (output && 'omitted_chars' in output) {
			const {omitted_chars: _omitted, ...preview} = output;
			return {...rest, output: {...preview, preview: '', chars: 0}};
		}

		if (rest['preview'] === '[omitted]') {
			return {...rest, preview: ''};
		}

		return stripNotes(rest) as Record<string, unknown>;
	});
	return {...page, records};
}

export const parts = ['native field values', 'keys and punctuation', 'kept tool outputs', 'tool calls', 'dialogue', 'notes and receipt', 'page envelope'] as const;
export type Part = (typeof parts)[number];

/** Whether a string of a native record holds (a copy of) `text`: itself, a piece of it, it inside a small frame, or its lines. */
function holds(value: string, text: string): boolean {
	if (text === '' || value === '') {
		return false;
	}

	if (value === text || (value.length >= 24 && text.includes(value)) || (text.length >= 24 && value.includes(text))) {
		return true;
	}

	const lines = value.split('\n').map(line => line.trim()).filter(line => line.length >= 4).slice(0, 40);
	return value.length >= 64 && lines.length >= 2 && lines.every(line => text.includes(line));
}

function strings(value: unknown, into: string[] = []): string[] {
	if (typeof value === 'string') {
		into.push(value);
	} else if (value !== null && typeof value === 'object') {
		for (const item of Object.values(value)) {
			strings(item, into);
		}
	}

	return into;
}

/** What a string of an events-view record is, by the events its record stands for. */
function partOf(value: string, events: readonly SessionEvent[]): Part {
	if (events.some(event => event.kind === 'tool_result' && holds(value, event.result!.output))) {
		return 'kept tool outputs';
	}

	if (events.some(event => (event.kind === 'user' || event.kind === 'assistant' || event.kind === 'summary') && holds(value, event.text ?? ''))) {
		return 'dialogue';
	}

	for (const event of events.filter(candidate => candidate.kind === 'tool_call')) {
		const inputs = [event.tool!.name, ...strings(event.tool!.input)].filter(Boolean);
		if (inputs.includes(value) || (value.length >= 2 && /^[[{]/.test(value) && inputs.some(input => input.length >= 8 && value.includes(JSON.stringify(input).slice(1, -1))))) {
			return 'tool calls';
		}
	}

	return 'native field values';
}

/**
 * The tokens of a printed events-view page split by what they carry: each string and scalar
 * counted as its JSON (a string holding a note counted as notes for the note and by what it is
 * for the rest), the page's own fields apart, and what is left (keys, braces, commas, quotes
 * around keys) as keys and punctuation. `eventsAt` gives the events behind a record's line.
 */
export function composition(page: Page, printed: string, count: (text: string) => number, eventsAt: (line: number) => readonly SessionEvent[]): Record<Part, number> {
	const shares = Object.fromEntries(parts.map(part => [part, 0])) as Record<Part, number>;
	const add = (part: Part, value: unknown) => {
		shares[part] += count(JSON.stringify(value));
	};

	const visit = (value: unknown, events: readonly SessionEvent[]) => {
		if (typeof value === 'string') {
			const found = value.match(notes) ?? [];
			for (const note of found) {
				shares['notes and receipt'] += count(note);
			}

			const rest = value.replace(notes, '');
			if (rest !== '' || found.length === 0) {
				add(found.length > 0 && rest.trim() === '' ? 'notes and receipt' : partOf(rest, events), rest);
			}
		} else if (Array.isArray(value)) {
			for (const item of value) {
				visit(item, events);
			}
		} else if (value !== null && typeof value === 'object') {
			for (const item of Object.values(value)) {
				visit(item, events);
			}
		} else {
			add('native field values', value);
		}
	};

	for (const [key, value] of Object.entries(page)) {
		if (key === 'records') {
			continue;
		}

		if (key === 'prune') {
			add('notes and receipt', value);
		} else {
			add('page envelope', {[key]: value});
		}
	}

	for (const record of page.records) {
		const {line, event, pruned, prune_reason: reason, ...rest} = record as {line: number; event: unknown; pruned?: true; prune_reason?: string};
		if (pruned) {
			add('notes and receipt', {pruned, prune_reason: reason});
		}

		add('native field values', line);
		visit(event, eventsAt(line));
		visit(rest, eventsAt(line));
	}

	const counted = parts.reduce((sum, part) => sum + shares[part], 0);
	shares['keys and punctuation'] = Math.max(0, count(printed) - counted);
	return shares;
}

/** The events behind each line of a session, as the engine reads them (to tell what a page's strings carry). */
export async function sessionEvents(deps: Deps, source: string, id: string): Promise<Map<number, SessionEvent[]>> {
	const byLine = new Map<number, SessionEvent[]>();
	await withLocatedSession({id, source: [source as never]}, deps, located => {
		walkRows(located.view.db, located.adapter, located.unit, {fromLine: 1}, row => {
			byLine.set(row.line, [...(byLine.get(row.line) ?? []), ...row.events]);
		});
	});
	return byLine;
}
