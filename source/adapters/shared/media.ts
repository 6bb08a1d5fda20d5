import {isRecord, outputText} from './text.js';

/**
 * Images and other binary content among a tool result's blocks. Each is noted by its media type
 * ("[image: image/png]"), its payload never copied: a base64 string is no text to read or search,
 * and one screenshot outweighs the rest of a session. Kept apart from text.ts, which discovery
 * loads, since only the readers need it.
 *
 * The shapes the agents write: Anthropic's `{type: "image" | "document", source: {type: "base64",
 * media_type, data}}`, MCP's `{type: "image" | "audio", data, mimeType}` and `{type: "resource", resource:
 * {blob, mimeType}}`, and the Responses API's `{type: "input_image", image_url}` (a `data:` URL,
 * or a web address, which is noted as it is), and the Gemini API's parts (Gemini CLI, Qwen Code):
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
		return imageUrlNote(block['image_url']);
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

	const resource = kind === 'resource' && isRecord(block['resource']) ? block['resource'] : undefined;
	return resource && typeof resource['blob'] === 'string' ? note('file', resource['mimeType']) : undefined;
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
	return note(kindOf(file['mimeType']), typeof uri === 'string' && uri !== '' && !uri.startsWith('data:') ? uri : file['mimeType']);
}

function kindOf(type: unknown): string {
	const kind = typeof type === 'string' ? /^(image|audio|video)\//.exec(type)?.[1] : undefined;
	return kind ?? 'file';
}

function note(kind: string, type: unknown): string {
	return typeof type === 'string' && type !== '' ? `[${kind}: ${type}]` : `[${kind}]`;
}

/** `data:<media type>[;base64],…` noted by its media type; a web address kept. */
function imageUrlNote(value: unknown): string {
	const url = isRecord(value) ? value['url'] : value;
	if (typeof url !== 'string' || url === '') {
		return '[image]';
	}

	if (!url.startsWith('data:')) {
		return `[image: ${url}]`;
	}

	return note('image', /^data:([^;,]*)/.exec(url)?.[1]);
}
