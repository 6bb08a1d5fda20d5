import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import {filesTouched} from '../conversation/tool-calls.js';
import {maxRowText, type TextDoc} from './line-doc.js';
import {maskedHead} from './secrets.js';

/**
 * What of a transcript row is searchable: what people and assistants wrote, which tools ran and
 * which files they touched. Raw tool output stays out (it is most of the bytes, and mostly noise),
 * and secret-shaped strings are masked before anything is indexed.
 */
export function searchableText(events: readonly SessionEvent[]): string {
	const parts: string[] = [];
	for (const event of events) {
		if ((event.kind === 'user' || event.kind === 'assistant') && event.text) {
			parts.push(event.text);
		} else if (event.kind === 'tool_call' && event.tool) {
			parts.push(event.tool.name, ...filesTouched(event));
			const input = event.tool.input;
			if (input && typeof input === 'object' && !Array.isArray(input)) {
				for (const key of ['file_path', 'path', 'filePath', 'file', 'pattern', 'query']) {
					const value = (input as Record<string, unknown>)[key];
					if (typeof value === 'string' && value.length < 500) {
						parts.push(value);
					}
				}
			}
		}
	}

	// Masked before the cut, so a secret straddling it is not indexed in part.
	return maskedHead(parts.join('\n'), maxRowText).slice(0, maxRowText);
}

export function rowDoc(row: SessionRow, offset: number | null = row.offset ?? null): TextDoc | undefined {
	const text = searchableText(row.events);
	return text.trim() === '' ? undefined : {line: row.line, offset, text};
}
