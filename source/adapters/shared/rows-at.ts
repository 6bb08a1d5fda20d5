import type {SessionEvent, SessionRow} from '../events.js';
import type {RowPlace} from '../types.js';
import {readJsonLines} from './json-lines.js';

/**
 * Rows read back from single physical lines of a JSONL document, each value on a place's line
 * normalised by `toEvents` and numbered with the place's line. Undefined as soon as a place
 * holds nothing, or a value `toEvents` cannot normalise (null): the caller then loads the
 * session whole, so a snippet never shows anything a whole load would not.
 */
export function rowsAtLines(path: string, places: readonly RowPlace[], toEvents: (value: unknown, line: number) => SessionEvent[] | null): SessionRow[] | undefined {
	const rows: SessionRow[] = [];
	for (const place of places) {
		const before = rows.length;
		let readable = true;
		readJsonLines(
			path,
			raw => {
				const events = toEvents(raw, place.line);
				readable &&= events !== null;
				if (events !== null) {
					rows.push({line: place.line, raw, events, offset: place.offset});
				}

				return events !== null;
			},
			{fromOffset: place.offset, fromLine: place.line, onlyLines: new Set([place.line])},
		);
		if (!readable || rows.length === before) {
			return undefined;
		}
	}

	return rows;
}
