import type {SessionEvent, SessionRow} from '../../adapters/events.js';
import {filesTouched} from '../sessions/tool-calls.js';
import {maskSecrets, mayContainSecret} from './secrets.js';

/** The longest text of one row that goes into the session index; the rest of a huge paste adds little. */
const maxRowText = 8000;

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

	const text = parts.join('\n').slice(0, maxRowText);
	return mayContainSecret(text) ? maskSecrets(text) : text;
}

export type TextDoc = {readonly line: number; readonly text: string};

export function rowDoc(row: SessionRow): TextDoc | undefined {
	const text = searchableText(row.events);
	return text.trim() === '' ? undefined : {line: row.line, text};
}
