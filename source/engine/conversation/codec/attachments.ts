import {sha256Hex} from '../../../lib/hash.js';
import {encodingNames, isPlainObject} from './decode.js';

/** `media`: any other base64 medium (a PDF, an audio file). */
export type AttachmentKind = 'image' | 'media' | 'encrypted_reasoning';

export type AttachmentEntry = {
	/** Index of the record in the page's records (0-based). */
	record: number;
	/** The record's source line, for `--lines` when asking for the value back. */
	line: number;
	/** JSON pointer of the value inside the record's native event. */
	pointer: string;
	kind: AttachmentKind;
	/** UTF-8 bytes of the value left out. */
	bytes: number;
	sha256: string;
};

export type AttachmentsLayer = {encoding: typeof encodingNames.attachments; attachments: AttachmentEntry[]; page: unknown};

const base64 = /^[A-Za-z\d+/=\r\n_-]+$/;
const dataUri = /^data:([\w.+-]+)\/[\w.+-]+;base64,/i;
/** Values shorter than these stay inline: a reference and its table entry cost about 150 bytes. */
const minImage = 256;
const minReasoning = 128;

/** One step of a JSON pointer (RFC 6901), escaped. */
export const pointerPart = (key: string | number) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/**
 * What a value at this place is, if it is an attachment: a standalone base64 medium (a data URI,
 * an Anthropic `{type: "base64", media_type, data}` source, an MCP `{data, mimeType}` content
 * block, a Gemini `inlineData`), an image or any other (a PDF, an audio file), or an opaque
 * reasoning blob (Codex `encrypted_content`, Claude thinking `signature` and `redacted_thinking`
 * data). Nothing else is ever left out.
 */
function kindAt(parent: Record<string, unknown>, key: string, value: string): AttachmentKind | undefined {
	const uri = dataUri.exec(value);
	if (uri && value.length >= minImage && base64.test(value.slice(value.indexOf(',') + 1))) {
		return mediaKind(uri[1]!);
	}

	if (!base64.test(value)) {
		return undefined;
	}

	const mediaType = parent['media_type'] ?? parent['mimeType'] ?? parent['mime_type'];
	if (key === 'data' && value.length >= minImage && typeof mediaType === 'string' && mediaType.includes('/') && (parent['type'] === 'base64' || 'mimeType' in parent)) {
		return mediaKind(mediaType);
	}

	const reasoning = key === 'encrypted_content' || (key === 'signature' && parent['type'] === 'thinking') || (key === 'data' && parent['type'] === 'redacted_thinking');
	return reasoning && value.length >= minReasoning ? 'encrypted_reasoning' : undefined;
}

/** An image's kind by its media type (`image/png`, or just its top-level type); any other medium is `media`. */
const mediaKind = (type: string): AttachmentKind => (type.toLowerCase().split('/')[0] === 'image' ? 'image' : 'media');

type Found = {pointer: string; kind: AttachmentKind; value: string};

/**
 * A native event with each attachment replaced by `{"attachment": n}`, n counted from `first`;
 * only the objects on the way to a replacement are copied, the rest is shared.
 */
function replaceIn(value: unknown, at: string, found: Found[], first: number): unknown {
	if (Array.isArray(value)) {
		let copy: unknown[] | undefined;
		value.forEach((item, index) => {
			const replaced = replaceIn(item, at + pointerPart(index), found, first);
			if (replaced !== item) {
				copy ??= [...value];
				copy[index] = replaced;
			}
		});
		return copy ?? value;
	}

	if (!isPlainObject(value)) {
		return value;
	}

	let copy: Record<string, unknown> | undefined;
	for (const [key, child] of Object.entries(value)) {
		const where = at + pointerPart(key);
		const kind = typeof child === 'string' ? kindAt(value, key, child) : undefined;
		const replaced = kind === undefined ? replaceIn(child, where, found, first) : {attachment: first + found.push({pointer: where, kind, value: child as string}) - 1};
		if (replaced !== child) {
			copy ??= Object.fromEntries(Object.entries(value));
			Object.defineProperty(copy, key, {value: replaced, enumerable: true, writable: true, configurable: true});
		}
	}

	return copy ?? value;
}

/**
 * The attachments layer over a page of native records (`{line, event}`): base64 media and
 * encrypted reasoning are replaced by `{"attachment": n}`, and `attachments[n]` says where each
 * was, what it was, its size and its SHA-256, so the exact value can be asked for again.
 * Undefined when the page holds none.
 */
export function encodeAttachments(page: Record<string, unknown>): AttachmentsLayer | undefined {
	const records = page['records'];
	if (!Array.isArray(records)) {
		return undefined;
	}

	const attachments: AttachmentEntry[] = [];
	const replaced = records.map((record: unknown, index) => {
		if (!isPlainObject(record) || typeof record['line'] !== 'number' || !('event' in record)) {
			return record;
		}

		const found: Found[] = [];
		const event = replaceIn(record['event'], '', found, attachments.length);
		for (const item of found) {
			attachments.push({record: index, line: record['line'], pointer: item.pointer, kind: item.kind, bytes: Buffer.byteLength(item.value), sha256: sha256Hex(item.value)});
		}

		return found.length === 0 ? record : {...record, event};
	});
	if (attachments.length === 0) {
		return undefined;
	}

	return {encoding: encodingNames.attachments, attachments, page: {...page, records: replaced}};
}
