/**
 * A protobuf message's fields, read off the wire format without a `.proto` (Antigravity publishes
 * none): each field's number with its varint value or its length-delimited bytes. Fixed-width
 * fields are passed over. Undefined on any damage (a cut varint, a length past the end, a group),
 * so a reader never takes a guess from a torn blob.
 */
export type ProtoField = {readonly field: number; readonly varint?: number; readonly bytes?: Buffer};

export function protoFields(message: Buffer): ProtoField[] | undefined {
	const fields: ProtoField[] = [];
	let offset = 0;
	while (offset < message.length) {
		const key = readVarint(message, offset);
		if (!key || key.value < 8) {
			return undefined;
		}

		offset = key.next;
		const field = Math.floor(key.value / 8);
		const wire = key.value % 8;
		if (wire === 0) {
			const value = readVarint(message, offset);
			if (!value) {
				return undefined;
			}

			fields.push({field, varint: value.value});
			offset = value.next;
		} else if (wire === 1 || wire === 5) {
			offset += wire === 1 ? 8 : 4;
			if (offset > message.length) {
				return undefined;
			}
		} else if (wire === 2) {
			const length = readVarint(message, offset);
			if (!length || length.next + length.value > message.length) {
				return undefined;
			}

			fields.push({field, bytes: message.subarray(length.next, length.next + length.value)});
			offset = length.next + length.value;
		} else {
			return undefined; // Groups (3, 4) are not written by current encoders; anything else is damage.
		}
	}

	return fields;
}

/** The bytes of the first length-delimited field numbered `field`. */
export function protoBytes(fields: readonly ProtoField[] | undefined, field: number): Buffer | undefined {
	return fields?.find(item => item.field === field && item.bytes !== undefined)?.bytes;
}

/** The first varint field numbered `field`. */
export function protoVarint(fields: readonly ProtoField[] | undefined, field: number): number | undefined {
	return fields?.find(item => item.field === field && item.varint !== undefined)?.varint;
}

/** The first length-delimited field numbered `field` as UTF-8 text. */
export function protoText(fields: readonly ProtoField[] | undefined, field: number): string | undefined {
	return protoBytes(fields, field)?.toString('utf8');
}

/** The first length-delimited field numbered `field` of a protobuf message; undefined on any damage. */
export function lengthDelimited(message: Buffer, field: number): Buffer | undefined {
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

