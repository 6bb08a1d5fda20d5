import {peekValue} from '../../lib/sqlite.js';

/**
 * The `agy` CLI's step database, `<app>/conversations/<id>.db`, keeps the conversation's metadata
 * in `trajectory_metadata_blob` (row `main`): a protobuf message whose field 1 is the workspace
 * the conversation ran in, holding its `file://` URI in field 1 (field 2 is when it was created).
 * The message also states the URI as a plain string in its field 7, which a blob may hold
 * alone. No `.proto` is published; only that URI is read, by walking the wire format.
 */
export function conversationWorkspace(path: string): string | undefined {
	// Not a step database (or one being rewritten): no workspace from it.
	const blob = peekValue(path, "SELECT data FROM trajectory_metadata_blob ORDER BY id = 'main' DESC LIMIT 1");
	return Buffer.isBuffer(blob) ? workspaceOfMetadata(blob) : undefined;
}

/** The workspace in field 1's nested URI, else in the plain URI of field 7. */
function workspaceOfMetadata(blob: Buffer): string | undefined {
	const workspace = lengthDelimited(blob, 1);
	const nested = workspace ? lengthDelimited(workspace, 1) : undefined;
	const fromNested = nested ? pathOfFileUri(nested.toString('utf8')) : undefined;
	if (fromNested !== undefined) {
		return fromNested;
	}

	const flat = lengthDelimited(blob, 7);
	return flat ? pathOfFileUri(flat.toString('utf8')) : undefined;
}

/** The first length-delimited field numbered `field` of a protobuf message; undefined on any damage. */
function lengthDelimited(message: Buffer, field: number): Buffer | undefined {
	let offset = 0;
	while (offset < message.length) {
		const key = readVarint(message, offset);
		if (!key) {
			return undefined;
		}

		offset = key.next;
		const wire = key.value % 8;
		if (wire === 0) {
			const skipped = readVarint(message, offset);
			if (!skipped) {
				return undefined;
			}

			offset = skipped.next;
		} else if (wire === 1 || wire === 5) {
			offset += wire === 1 ? 8 : 4;
		} else if (wire === 2) {
			const length = readVarint(message, offset);
			if (!length || length.next + length.value > message.length) {
				return undefined;
			}

			if (Math.floor(key.value / 8) === field) {
				return message.subarray(length.next, length.next + length.value);
			}

			offset = length.next + length.value;
		} else {
			return undefined; // Groups (3, 4) are not written by current encoders; anything else is damage.
		}
	}

	return undefined;
}

/**
 * A base-128 varint, of up to ten bytes: a key or a length of a small blob takes a few, but a
 * value passed over may be any 64-bit number (a timestamp in microseconds takes eight bytes, a
 * negative int64 ten). Past 2^53 the value is inexact, which only a value passed over can be.
 */
function readVarint(bytes: Buffer, start: number): {value: number; next: number} | undefined {
	let value = 0;
	for (let index = 0; index < 10 && start + index < bytes.length; index++) {
		const byte = bytes[start + index]!;
		value += (byte & 0x7f) * 2 ** (7 * index);
		if (byte < 0x80) {
			return {value, next: start + index + 1};
		}
	}

	return undefined;
}

/** `file:///home/a/b` → `/home/a/b`; `file:///c%3A/Users/a` → `c:/Users/a`. Other schemes name no local folder. */
export function pathOfFileUri(uri: string): string | undefined {
	if (!uri.startsWith('file://')) {
		return undefined;
	}

	let path: string;
	try {
		path = decodeURIComponent(uri.slice('file://'.length));
	} catch {
		return undefined;
	}

	if (/^\/[A-Za-z]:/.test(path)) {
		return path.slice(1);
	}

	return path.startsWith('/') && path.length > 1 ? path : undefined;
}
