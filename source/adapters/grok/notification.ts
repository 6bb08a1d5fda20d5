import {epochIso} from '../shared/epoch.js';
import {mediaNote, withNoteLines} from '../shared/media.js';
import {isRecord, outputText, textOf} from '../shared/text.js';
import {grokEnvelopeSchema, grokNotificationSchema, type GrokUpdate} from './schema.js';

/** Reading one `updates.jsonl` line: its envelope, its update, and the facts tool updates carry. */

/** The two notification methods `updates.jsonl` stores: standard ACP updates and Grok's own. */
export const acpMethod = 'session/update';
export const xaiMethod = '_x.ai/session/update';

export type Notification = {method: string; sessionId: string | undefined; update: GrokUpdate; timestamp: string | undefined};

/** Unix seconds (milliseconds from some writers) or an ISO string, as an ISO string. */
export function isoTime(value: number | string | undefined): string | undefined {
	if (typeof value === 'string') {
		return Number.isNaN(Date.parse(value)) ? undefined : value;
	}

	return epochIso(value);
}

/** The notification a line holds, or undefined when it is no session update. */
export function notificationOf(value: unknown): Notification | undefined {
	const envelope = grokEnvelopeSchema.safeParse(value);
	if (!envelope.success) {
		return undefined;
	}

	// Very old writers stored the bare ACP notification, with no envelope.
	const legacy = envelope.data.method === undefined;
	const params = grokNotificationSchema.safeParse(legacy ? value : envelope.data.params);
	if (!params.success) {
		return undefined;
	}

	// The envelope's `timestamp` is whole seconds, shared by every update of a second; the agent
	// stamps each update in milliseconds in `params._meta.agentTimestampMs`, preferred.
	const timestamp = epochIso(params.data._meta?.['agentTimestampMs']) ?? isoTime(envelope.data.timestamp);
	return {method: envelope.data.method ?? acpMethod, sessionId: params.data.sessionId ?? undefined, update: params.data.update, timestamp};
}

export function metaNumber(update: GrokUpdate, key: string): number | undefined {
	const value = update._meta?.[key];
	return typeof value === 'number' ? value : undefined;
}

export function isHostTurn(update: GrokUpdate): boolean {
	return update._meta?.['hostTurn'] === true;
}

/** Text of a tool call's `content` (ACP `{type:"content", content:{type:"text",text}}` items), else its raw output; its media blocks noted after. */
export function toolOutput(update: GrokUpdate): string {
	const content = Array.isArray(update.content) ? update.content : [];
	const blocks = content.flatMap(item => (isRecord(item) && item['type'] === 'content' ? [item['content']] : []));
	const text = blocks.map(block => textOf(block)).join('');
	// A picture the tool returned (ACP image, audio or blob resource block) is noted after the text, never copied.
	return withNoteLines(text !== '' ? text : rawOutputText(update.rawOutput), blocks.flatMap(block => mediaNote(block) ?? []));
}

/** A byte array no longer than this is decoded as output; a longer one is not output worth copying whole. */
const maxOutputBytes = 1_000_000;

/**
 * Grok's own record of a tool's output. A shell call's is `{type: "Bash", command, output,
 * output_for_prompt, exit_code, …}`: `output_for_prompt` is the text the model read, `output` the
 * command's raw bytes as an array of numbers. Either is the output; the JSON of the record is not.
 */
function rawOutputText(raw: unknown): string {
	if (isRecord(raw)) {
		const prompt = raw['output_for_prompt'];
		if (typeof prompt === 'string') {
			return prompt;
		}

		const output = raw['output'];
		if (typeof output === 'string') {
			return output;
		}

		const decoded = decodedBytes(output);
		if (decoded !== undefined) {
			return decoded;
		}
	}

	return outputText(raw);
}

/** An array of byte values (0–255) as UTF-8 text; anything else is not bytes. */
function decodedBytes(value: unknown): string | undefined {
	if (!Array.isArray(value) || value.length > maxOutputBytes || !value.every(byte => Number.isInteger(byte) && byte >= 0 && byte <= 255)) {
		return undefined;
	}

	return Buffer.from(value as number[]).toString('utf8');
}

export function structuredExitCode(raw: unknown): number | undefined {
	if (!isRecord(raw)) {
		return undefined;
	}

	const code = raw['exit_code'] ?? raw['exitCode'];
	return typeof code === 'number' ? code : undefined;
}

export function isTerminal(status: string | null | undefined): boolean {
	return status === 'completed' || status === 'failed';
}

