import {encodingNames} from './decode.js';
import {eachString, freeKey, keysIn, mapStrings} from './keys.js';

export type EdgesLayer = {encoding: typeof encodingNames.edges; join_key: string; fragments: string[]; page: unknown};

const joinCandidates = ['+', '&', '*', '|', '=', '!'];

/** Strings shorter than this are left whole: a join costs more than it could save. */
const minString = 32;
/** Shorter shared runs of lines are not worth a fragment. */
const minFragment = 24;

/** Lines of a text, each with its line break, so the lines joined are the text again. */
function linesOf(text: string): string[] {
	const lines: string[] = [];
	let start = 0;
	for (;;) {
		const end = text.indexOf('\n', start);
		if (end === -1) {
			if (start < text.length) {
				lines.push(text.slice(start));
			}

			return lines;
		}

		lines.push(text.slice(start, end + 1));
		start = end + 1;
	}
}

const unset = -1;
const mixed = -2;

/**
 * Cuts each string into runs of lines that always occur together (a de Bruijn-style compaction):
 * two neighbouring lines stay in one run when every occurrence of the first is followed by the
 * second and every occurrence of the second follows the first. Runs are therefore cut the same
 * way in every string they appear in, whatever their neighbours, so a file read twice with one
 * line changed shares everything but that line, and a snippet quoted from it shares its lines.
 */
function runsOf(texts: readonly string[]): string[][] {
	const ids = new Map<string, number>();
	const sequences = texts.map(text => linesOf(text).map(line => {
		let id = ids.get(line);
		if (id === undefined) {
			id = ids.size;
			ids.set(line, id);
		}

		return id;
	}));
	const next = new Int32Array(ids.size).fill(unset);
	const previous = new Int32Array(ids.size).fill(unset);
	const note = (table: Int32Array, id: number, neighbour: number) => {
		table[id] = table[id] === unset || table[id] === neighbour ? neighbour : mixed;
	};

	for (const sequence of sequences) {
		sequence.forEach((id, position) => {
			// The ends of a string are neighbours too: a line that ends one string cannot glue to what follows it elsewhere.
			note(next, id, position + 1 < sequence.length ? sequence[position + 1]! : mixed);
			note(previous, id, position > 0 ? sequence[position - 1]! : mixed);
		});
	}

	const lines = [...ids.keys()];
	return sequences.map(sequence => {
		const runs: string[] = [];
		let run = '';
		sequence.forEach((id, position) => {
			const glued = position > 0 && next[sequence[position - 1]!] === id && previous[id] === sequence[position - 1];
			if (!glued && run !== '') {
				runs.push(run);
				run = '';
			}

			run += lines[id];
		});
		if (run !== '') {
			runs.push(run);
		}

		return runs;
	});
}

type Part = string | number;

/** A string's parts: fragment indices where `fragment` knows the run, literal text (merged) elsewhere. */
function partsOf(runs: readonly string[], fragment: (run: string) => number | undefined): Part[] {
	const parts: Part[] = [];
	for (const run of runs) {
		const index = fragment(run);
		if (index !== undefined) {
			parts.push(index);
		} else if (typeof parts.at(-1) === 'string') {
			parts[parts.length - 1] += run;
		} else {
			parts.push(run);
		}
	}

	return parts;
}

/**
 * The edges layer (deltas): runs of lines that occur in more than one place are kept once in
 * `fragments`, and a string made of them becomes `{<join_key>: [part…]}`, its parts joined with
 * nothing between (a number n is fragments[n]). A string is rewritten only when that is shorter.
 * Undefined when nothing is shared.
 */
export function encodeEdges(document: unknown): EdgesLayer | undefined {
	const texts: string[] = [];
	const seen = new Set<string>();
	eachString(document, text => {
		if (text.length >= minString && !seen.has(text)) {
			seen.add(text);
			texts.push(text);
		}
	});
	if (texts.length === 0) {
		return undefined;
	}

	const cut = runsOf(texts);
	const runsByText = new Map(texts.map((text, index) => [text, cut[index]!]));
	const runs = (text: string) => runsByText.get(text)!;
	const uses = new Map<string, number>();
	eachString(document, text => {
		if (text.length >= minString) {
			for (const run of runs(text)) {
				uses.set(run, (uses.get(run) ?? 0) + 1);
			}
		}
	});
	// A fragment pays when the copies it replaces outweigh storing it once and citing it each time.
	const worth = (run: string, count: number) => run.length >= minFragment && (count - 1) * JSON.stringify(run).length > 8 + count * 5;
	let candidates = new Set([...uses].filter(([run, count]) => count > 1 && worth(run, count)).map(([run]) => run));
	if (candidates.size === 0) {
		return undefined;
	}

	// Runs used only by strings that stay whole would be stored for nothing: count real uses, drop the rest, once.
	for (let round = 0; round < 2; round++) {
		const used = new Map<string, number>();
		eachString(document, text => {
			if (text.length < minString) {
				return;
			}

			const parts = partsOf(runs(text), run => (candidates.has(run) ? 0 : undefined));
			if (rewriteGains(text, parts, 2)) {
				for (const run of runs(text)) {
					if (candidates.has(run)) {
						used.set(run, (used.get(run) ?? 0) + 1);
					}
				}
			}
		});
		candidates = new Set([...used].filter(([run, count]) => count > 1 && worth(run, count)).map(([run]) => run));
	}

	if (candidates.size === 0) {
		return undefined;
	}

	const fragments = [...candidates];
	const fragmentIndex = new Map(fragments.map((run, index) => [run, index]));
	const key = freeKey(keysIn(document), joinCandidates, '$join');
	const page = mapStrings(document, text => {
		if (text.length < minString) {
			return text;
		}

		const parts = partsOf(runs(text), run => fragmentIndex.get(run));
		return rewriteGains(text, parts, JSON.stringify(key).length) ? {[key]: parts} : text;
	});
	return {encoding: encodingNames.edges, join_key: key, fragments, page};
}

/** Whether `{"<key>": parts}` is shorter than the string itself. */
function rewriteGains(text: string, parts: readonly Part[], keyLength: number): boolean {
	if (parts.every(part => typeof part === 'string')) {
		return false;
	}

	return keyLength + 5 + JSON.stringify(parts).length < JSON.stringify(text).length;
}
