import type {SessionEvent} from '../events.js';
import {isRecord, outputText} from './text.js';

/**
 * Images and other binary content among a tool result's blocks. Each is noted by its media type
 * ("[image: image/png]"), its payload never copied: a base64 string is no text to read or search,
 * and one screenshot outweighs the rest of a session. Kept apart from text.ts, which discovery
 * loads, since only the readers need it.
 *
 * The shapes the agents write: Anthropic's `{type: "image" | "document", source: {type: "base64",
 * media_type, data}}`, MCP's `{type: "image" | "audio", data, mimeType}` and `{type: "resource", resource:
 * {blob, mimeType}}`, and the Responses API's `{type: "input_image", image_url}` and Codex's
 * `{type: "input_audio", audio_url}` (a `data:` URL, or a web address, which is noted as it is),
 * and the Gemini API's parts (Gemini CLI, Qwen Code):
 * `{inlineData: {mimeType, data}}` and `{fileData: {mimeType, fileUri}}`.
 */
export function mediaNote(block: unknown): string | undefined {
	if (!isRecord(block)) {
		return undefined;
	}

	const gemini = geminiPartNote(block);
	if (gemini !== undefined) {
		return gemini;
	}

	const kind = block['type'];
	if (kind === 'input_image') {
		return urlNote('image', block['image_url']);
	}

	if (kind === 'input_audio') {
		return urlNote('audio', block['audio_url']);
	}

	if (kind === 'image' || kind === 'audio') {
		const source = isRecord(block['source']) ? block['source'] : {};
		return note(kind, source['media_type'] ?? block['mimeType'] ?? block['mime_type']);
	}

	// A file read whole into the result (Read of a PDF): a document block; one of plain text stays text.
	const document = kind === 'document' && isRecord(block['source']) ? block['source'] : undefined;
	if (document && document['type'] === 'base64') {
		return note('document', document['media_type']);
	}

	// An embedded resource's bytes are any medium: a pasted image (Grok's clipboard paste) is an image.
	const resource = kind === 'resource' && isRecord(block['resource']) ? block['resource'] : undefined;
	return resource && typeof resource['blob'] === 'string' ? mediaTypeNote(resource['mimeType']) : undefined;
}

/** Tool output as text, as `outputText` gives it, with each media block noted instead of copied. */
export function mediaAwareOutput(value: unknown): string {
	const blocks = Array.isArray(value) ? value : [value];
	if (!blocks.some(block => mediaNote(block) !== undefined)) {
		return outputText(value);
	}

	return blocks
		.map(block => mediaNote(block) ?? outputText(block))
		.filter(Boolean)
		.join('\n');
}

/**
 * Text with a note of each medium its prompt attached after it, one a line: the typed text stays
 * as it was, the notes say what else was sent (`[image: image/png]`), and media sent without a
 * word are a text of their notes alone. Blank pieces are dropped so no empty line leads or trails.
 * Gemini CLI and Qwen Code join a prompt's text this way, and Codex its request's.
 */
export function withNoteLines(text: string, notes: readonly string[]): string {
	return notes.length === 0 ? text : [text, ...notes].filter(piece => piece.trim() !== '').join('\n');
}

export type PromptMediaPlace = {
	/** The events a prompt's notes may join; the last of them takes them all. */
	readonly isRequest: (event: SessionEvent) => boolean;
	/** The events to add when the prompt gave no request: its media sent alone, as the notes' text. */
	readonly alone: (text: string) => SessionEvent[];
};

/**
 * A prompt's events with its media notes after the text of its last request, so a prompt with
 * pictures stays one turn and its title reads the words then the notes on one line; a prompt that
 * gave no request gets the events `alone` makes of the notes. Which events are requests is each
 * reader's own (a queued copy, a runtime-written prompt), so it says.
 */
export function notePromptMedia(events: SessionEvent[], notes: readonly string[], place: PromptMediaPlace): SessionEvent[] {
	if (notes.length === 0) {
		return events;
	}

	const at = events.findLastIndex(place.isRequest);
	if (at === -1) {
		return [...events, ...place.alone(notes.join('\n'))];
	}

	return events.map((event, index) => (index === at ? {...event, text: withNoteLines(event.text ?? '', notes)} : event));
}

/**
 * A Gemini API media part, its kind read off its media type. `inlineData` holds the bytes in
 * base64 and is noted by its type; `fileData` names the file by address, which is noted as it is.
 */
function geminiPartNote(part: Record<string, unknown>): string | undefined {
	const inline = part['inlineData'];
	if (isRecord(inline)) {
		return note(kindOf(inline['mimeType']), inline['mimeType']);
	}

	const file = part['fileData'];
	if (!isRecord(file)) {
		return undefined;
	}

	const uri = file['fileUri'];
	const kind = kindOf(file['mimeType']);
	return typeof uri === 'string' && uri !== '' && !uri.startsWith('data:') ? `[${kind}: ${uri}]` : note(kind, file['mimeType']);
}

/**
 * A note of an attachment known only by its media type (the bytes held elsewhere, or inline and
 * never copied): its kind read off the type, `[image: image/png]`, `[file: application/pdf]`, or
 * the kind the source states. A type that is no media type (not a string, or any other text: a
 * field a writer misused must not put a line break or a payload into the note) gives the kind
 * alone, `[image]`, `[file]`.
 */
export function mediaTypeNote(type: unknown, kind?: string): string {
	return note(kind ?? kindOf(type), type);
}

/** `type/subtype` in the characters RFC 6838 allows in a media type's names. */
const mediaTypePattern = /^[\w!#$&^.+-]{1,64}\/[\w!#$&^.+-]{1,64}$/;

function kindOf(type: unknown): string {
	const kind = isMediaType(type) ? /^(image|audio|video)\//.exec(type)?.[1] : undefined;
	return kind ?? 'file';
}

/** A note of one medium by its kind and media type; a type that is none (see mediaTypeNote) is left out. */
function note(kind: string, type: unknown): string {
	return isMediaType(type) ? `[${kind}: ${type}]` : `[${kind}]`;
}

function isMediaType(type: unknown): type is string {
	return typeof type === 'string' && mediaTypePattern.test(type);
}

/** `data:<media type>[;base64],…` noted by its media type; a web address kept. */
function urlNote(kind: 'image' | 'audio', value: unknown): string {
	const url = isRecord(value) ? value['url'] : value;
	if (typeof url !== 'string' || url === '') {
		return `[${kind}]`;
	}

	if (!url.startsWith('data:')) {
		return `[${kind}: ${url}]`;
	}

	return note(kind, dataUrlType(url));
}

/** The media type a `data:` URL states (`data:image/png;base64,…` → `image/png`); undefined for any other address. */
export function dataUrlType(url: string): string | undefined {
	return /^data:([^;,]*)/.exec(url)?.[1];
}
