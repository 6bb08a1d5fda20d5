import {decodePacket, encodingNames, isPlainObject, PacketError, resolvePointer, type LayerName} from './decode.js';

const nameOf = new Map<string, LayerName>(Object.entries(encodingNames).map(([name, encoding]) => [encoding, name as LayerName]));

/** The encodings of a packet's layers, outermost first, as its nesting has them. */
function chainOf(packet: Record<string, unknown>): string[] {
	const chain: string[] = [];
	let current: unknown = packet;
	while (isPlainObject(current) && typeof current['encoding'] === 'string' && current['encoding'] !== encodingNames.rows) {
		chain.push(current['encoding']);
		current = current['page'];
	}

	if (isPlainObject(current) && current['encoding'] === encodingNames.rows) {
		chain.push(encodingNames.rows);
	}

	return chain;
}

function checkAttachments(decoded: Record<string, unknown>): void {
	const table = decoded['attachments'];
	const page = decoded['page'];
	const records = isPlainObject(page) ? page['records'] : undefined;
	if (!Array.isArray(table) || !Array.isArray(records)) {
		throw new PacketError('an attachments layer needs an "attachments" array over a page of records', '');
	}

	table.forEach((entry: unknown, index) => {
		const at = `/attachments/${index}`;
		const valid = isPlainObject(entry)
			&& Number.isInteger(entry['record']) && typeof entry['line'] === 'number' && typeof entry['pointer'] === 'string'
			&& (entry['kind'] === 'image' || entry['kind'] === 'media' || entry['kind'] === 'encrypted_reasoning') && Number.isInteger(entry['bytes'])
			&& typeof entry['sha256'] === 'string' && /^[\da-f]{64}$/.test(entry['sha256']);
		if (!valid) {
			throw new PacketError('an attachment is {record, line, pointer, kind: image|media|encrypted_reasoning, bytes, sha256}', at);
		}

		const record: unknown = records[entry['record'] as number];
		const placeholder = isPlainObject(record) && record['line'] === entry['line'] ? resolvePointer(record['event'], entry['pointer'] as string) : undefined;
		if (!isPlainObject(placeholder) || Object.keys(placeholder).length !== 1 || placeholder['attachment'] !== index) {
			throw new PacketError(`records[${String(entry['record'])}].event${String(entry['pointer'])} is not {"attachment": ${index}}`, at);
		}
	});
}

/**
 * Checks a packet strictly: the outermost layer carries its `guide` and a `layers` list that
 * names the layers as they nest, every layer decodes (all references in range, no stray keys),
 * the result is a page of records, and every attachment reference stands where its entry says.
 * Throws a PacketError naming the first problem; returns the decoded page.
 */
export function validatePacket(packet: unknown): unknown {
	if (!isPlainObject(packet) || !Object.hasOwn(packet, 'encoding')) {
		throw new PacketError('not a packet: it has no "encoding" (a plain page needs no decoding)', '');
	}

	if (typeof packet['guide'] !== 'string' || packet['guide'] === '') {
		throw new PacketError('the outermost layer must carry its "guide"', '/guide');
	}

	const chain = chainOf(packet);
	const listed = packet['layers'];
	const expected = chain.map(encoding => nameOf.get(encoding) ?? encoding);
	if (!Array.isArray(listed) || JSON.stringify(listed) !== JSON.stringify(expected)) {
		throw new PacketError(`"layers" must list the layers as they nest: ${JSON.stringify(expected)}`, '/layers');
	}

	const decoded = decodePacket(packet);
	if (isPlainObject(decoded) && decoded['encoding'] === encodingNames.attachments) {
		checkAttachments(decoded);
		return decoded;
	}

	if (!isPlainObject(decoded) || !Array.isArray(decoded['records'])) {
		throw new PacketError('the packet does not decode to a page with "records"', '', 'not_a_page');
	}

	return decoded;
}
