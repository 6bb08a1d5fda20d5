import {readFileSync} from 'node:fs';
import {statOrUndefined} from './fs.js';
import {isRecord} from './text.js';

/**
 * A small JSONL index a tool keeps beside its store, one record per line, several of which may
 * name the same key (Codex's `session_index.jsonl` of thread names, the `agy` CLI's prompt
 * `history.jsonl`): read whole and parsed once per version of the file (its size and time),
 * however many sessions ask. Read and split here, not through readJsonLines: discovery, which
 * every warm call loads, reads one of them, and the line reader would add 16 KB to it.
 */
type Parsed = {readonly stamp: string; readonly values: ReadonlyMap<string, string>};

const parsed = new Map<string, Parsed>();

/** An index far larger than any person's history is not read. */
const maxIndexBytes = 16 * 1024 * 1024;

/**
 * The key → value map of the index at `path`, or undefined when there is none (or it is too large
 * to be one). Only lines holding `marker` are parsed; `take` files each parsed record, deciding
 * whether an earlier or a later line wins.
 */
export function keyedIndex(path: string, marker: string, take: (record: Record<string, unknown>, values: Map<string, string>) => void): ReadonlyMap<string, string> | undefined {
	const stats = statOrUndefined(path);
	if (!stats?.isFile() || stats.size > maxIndexBytes) {
		return undefined;
	}

	const stamp = `${stats.size}:${stats.mtimeMs}`;
	const known = parsed.get(path);
	if (known?.stamp === stamp) {
		return known.values;
	}

	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch {
		return undefined;
	}

	const values = new Map<string, string>();
	for (const line of text.split('\n')) {
		const record = line.includes(marker) ? parseRecord(line) : undefined;
		if (record) {
			take(record, values);
		}
	}

	parsed.set(path, {stamp, values});
	return values;
}

function parseRecord(line: string): Record<string, unknown> | undefined {
	try {
		const value: unknown = JSON.parse(line);
		return isRecord(value) ? value : undefined;
	} catch {
		return undefined;
	}
}
