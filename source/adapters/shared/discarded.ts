import type {SessionRow} from '../events.js';

/**
 * Marks the rows from `first` on as discarded, for stores that keep a rewind as state rather than
 * as a record after what it discards (OpenCode's `session.revert`, the requests a VS Code log
 * truncates): a system marker on the last row kept (or on the first discarded one, when nothing
 * is kept) names the discarded lines, which run to the last row.
 */
export function markDiscardedTail(rows: SessionRow[], first: number, text: (count: number) => string): void {
	if (first < 0 || first >= rows.length) {
		return;
	}

	const host = rows[Math.max(first - 1, 0)]!;
	const timestamp = host.events.at(-1)?.timestamp;
	host.events.push({
		line: host.line,
		kind: 'system',
		text: text(rows.length - first),
		...(timestamp === undefined ? {} : {timestamp}),
		rewound_from: rows[first]!.line,
		rewound_through: rows.at(-1)!.line,
	});
}

/** "the last message is" / "the last 3 messages are": how a marker counts what it discarded. */
export function lastCount(count: number, noun: string): string {
	return count === 1 ? `the last ${noun} is` : `the last ${count} ${noun}s are`;
}
