/**
 * The decoder of engi's page encodings (docs/encodings.md). It imports nothing, so an agent can
 * copy this one file and decode a packet without engi. Layers nest: each layer is an object with
 * an `encoding` and a `page` holding the next one; the outermost also carries `guide` and
 * `layers`. Decoding undoes them from the outside in and checks every reference on the way, so a
 * damaged packet fails with a PacketError naming where (a JSON pointer), never a wrong page.
 */

export const encodingNames = {
	attachments: 'engi.attachments.v1',
	edges: 'engi.edges.v1',
	strings: 'engi.strings.v1',
	rows: 'engi.rows.v1',
} as const;

export type LayerName = keyof typeof encodingNames;

export class PacketError extends Error {
	override readonly name = 'PacketError';
	/** `packet_invalid` for a malformed packet, `not_a_page` for a document that is no page at all. */
	readonly code: 'packet_invalid' | 'not_a_page';
	/** JSON pointer of the offending value inside the document. */
	readonly pointer: string;

	constructor(message: string, pointer: string, code: 'packet_invalid' | 'not_a_page' = 'packet_invalid') {
		super(`${pointer || '(document)'}: ${message}`);
		this.code = code;
		this.pointer = pointer;
	}
}

type Json = null | boolean | number | string | Json[] | {[key: string]: Json};
type JsonObject = {[key: string]: Json};

export function isPlainObject(value: unknown): value is JsonObject {
	return value !== null && typeof value === 'object' && !Array.isArray(value);
}

const pointerPart = (key: string | number) => `/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;

/** Sets a key as an own property, even `__proto__`, which plain assignment would not. */
function put(target: JsonObject, key: string, value: Json): void {
	Object.defineProperty(target, key, {value, enumerable: true, writable: true, configurable: true});
}

/**
 * The value a JSON pointer (RFC 6901) names inside `value`, or undefined when there is none:
 * how an attachment's `pointer` finds its place in `records[record].event`.
 */
export function resolvePointer(value: unknown, pointer: string): unknown {
	if (pointer === '') {
		return value;
	}

	if (!pointer.startsWith('/')) {
		return undefined;
	}

	let current = value;
	for (const raw of pointer.slice(1).split('/')) {
		const part = raw.replaceAll('~1', '/').replaceAll('~0', '~');
		if (Array.isArray(current) && /^(?:0|[1-9]\d*)$/.test(part)) {
			current = current[Number(part)];
		} else if (isPlainObject(current) && Object.hasOwn(current, part)) {
			current = current[part];
		} else {
			return undefined;
		}
	}

	return current;
}

/** Keys every layer may carry besides its own: the CLI's schema name and the outermost layer's guide and list. */
const envelopeKeys = new Set(['schema', 'encoding', 'guide', 'layers']);

function checkKeys(layer: JsonObject, own: readonly string[], at: string): void {
	for (const key of Object.keys(layer)) {
		if (!envelopeKeys.has(key) && !own.includes(key)) {
			throw new PacketError(`unexpected key "${key}" in a ${String(layer['encoding'])} layer`, at);
		}
	}

	for (const key of own) {
		if (!(key in layer)) {
			throw new PacketError(`a ${String(layer['encoding'])} layer needs "${key}"`, at);
		}
	}
}

function keyOf(layer: JsonObject, name: string, at: string): string {
	const key = layer[name];
	if (typeof key !== 'string' || key === '') {
		throw new PacketError(`"${name}" must be a non-empty string`, at + pointerPart(name));
	}

	return key;
}

/**
 * A copy of `value` where every object whose one key is `key` is replaced by `replace` of its
 * value. Any other object that has the key is an error: encoders pick a key the page never uses.
 */
function substitute(value: Json, key: string, at: string, replace: (inner: Json, at: string) => Json): Json {
	if (Array.isArray(value)) {
		return value.map((item, index) => substitute(item, key, at + pointerPart(index), replace));
	}

	if (!isPlainObject(value)) {
		return value;
	}

	const keys = Object.keys(value);
	if (Object.hasOwn(value, key)) {
		if (keys.length !== 1) {
			throw new PacketError(`an object with the reserved key "${key}" must have no other key`, at);
		}

		return replace(value[key]!, at + pointerPart(key));
	}

	const copy: JsonObject = {};
	for (const name of keys) {
		put(copy, name, substitute(value[name]!, key, at + pointerPart(name), replace));
	}

	return copy;
}

function indexInto(value: Json, length: number, what: string, at: string): number {
	if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value >= length) {
		throw new PacketError(`${JSON.stringify(value)} is not an index of ${what} (0 to ${length - 1})`, at);
	}

	return value;
}

function stringList(value: Json | undefined, what: string, at: string): string[] {
	if (!Array.isArray(value) || value.some(item => typeof item !== 'string')) {
		throw new PacketError(`"${what}" must be an array of strings`, at);
	}

	return value as string[];
}

/** engi.edges.v1: `{<join_key>: [part…]}` is the string of its parts joined, a number n meaning fragments[n]. */
export function decodeEdges(layer: JsonObject, at = ''): Json {
	checkKeys(layer, ['join_key', 'fragments', 'page'], at);
	const key = keyOf(layer, 'join_key', at);
	const fragments = stringList(layer['fragments'], 'fragments', at + '/fragments');
	return substitute(layer['page']!, key, at + '/page', (parts, where) => {
		if (!Array.isArray(parts) || parts.length === 0) {
			throw new PacketError('a join must be a non-empty array', where);
		}

		return parts.map((part, index) => (typeof part === 'string' ? part : fragments[indexInto(part, fragments.length, 'fragments', where + pointerPart(index))]!)).join('');
	});
}

/** engi.strings.v1: `{<ref_key>: n}` is texts[n]. */
export function decodeStrings(layer: JsonObject, at = ''): Json {
	checkKeys(layer, ['ref_key', 'texts', 'page'], at);
	const key = keyOf(layer, 'ref_key', at);
	const texts = stringList(layer['texts'], 'texts', at + '/texts');
	return substitute(layer['page']!, key, at + '/page', (index, where) => texts[indexInto(index, texts.length, 'texts', where)]!);
}

type Layout = {fields: string[]; shared: JsonObject; nest: string | undefined};

function readLayout(value: Json, at: string): Layout {
	if (!isPlainObject(value)) {
		throw new PacketError('a layout must be an object', at);
	}

	for (const key of Object.keys(value)) {
		if (key !== 'fields' && key !== 'shared' && key !== 'in') {
			throw new PacketError(`unexpected key "${key}" in a layout`, at);
		}
	}

	const fields = stringList(value['fields'], 'fields', at + '/fields');
	const shared = value['shared'];
	if (!isPlainObject(shared)) {
		throw new PacketError('"shared" must be an object', at + '/shared');
	}

	const nest = value['in'];
	if (nest !== undefined && (typeof nest !== 'string' || nest === 'line')) {
		throw new PacketError('"in" must be a key other than "line"', at + '/in');
	}

	const names = [...fields, ...Object.keys(shared)];
	if (new Set(names).size !== names.length || (nest === undefined && names.includes('line'))) {
		throw new PacketError('a layout names each key once, and never "line" outside "in"', at);
	}

	return {fields, shared, nest};
}

/** engi.rows.v1: each row `[line, layout, values]` is `{line, ...shared, fields[i]: values[i]}`, under `in` when the layout has one. */
export function decodeRows(layer: JsonObject, at = ''): Json {
	checkKeys(layer, ['layouts', 'rows', 'page'], at);
	const layoutsValue = layer['layouts'];
	if (!Array.isArray(layoutsValue)) {
		throw new PacketError('"layouts" must be an array', at + '/layouts');
	}

	const layouts = layoutsValue.map((layout, index) => readLayout(layout, `${at}/layouts/${index}`));
	const rows = layer['rows'];
	if (!Array.isArray(rows)) {
		throw new PacketError('"rows" must be an array', at + '/rows');
	}

	const page = layer['page'];
	if (!isPlainObject(page) || Object.hasOwn(page, 'records')) {
		throw new PacketError('"page" must be an object without "records"', at + '/page');
	}

	const records = rows.map((row, index) => {
		const where = `${at}/rows/${index}`;
		if (!Array.isArray(row) || row.length !== 3 || typeof row[0] !== 'number' || !Array.isArray(row[2])) {
			throw new PacketError('a row must be [line, layout, values]', where);
		}

		const layout = layouts[indexInto(row[1]!, layouts.length, 'layouts', where + '/1')]!;
		const values = row[2];
		if (values.length !== layout.fields.length) {
			throw new PacketError(`the row has ${values.length} values for ${layout.fields.length} fields`, where + '/2');
		}

		const body: JsonObject = {};
		for (const [name, value] of Object.entries(layout.shared)) {
			put(body, name, value);
		}

		layout.fields.forEach((name, field) => put(body, name, values[field]!));
		const record: JsonObject = {line: row[0]};
		if (layout.nest === undefined) {
			for (const [name, value] of Object.entries(body)) {
				put(record, name, value);
			}
		} else {
			put(record, layout.nest, body);
		}

		return record;
	});
	const decoded: JsonObject = {};
	for (const [name, value] of Object.entries(page)) {
		put(decoded, name, value);
	}

	put(decoded, 'records', records);
	return decoded;
}

/**
 * The page a packet encodes. Compact layers are undone completely; an attachments layer cannot
 * be (the values it left out are not in the packet), so it is kept around its decoded page:
 * `{encoding: "engi.attachments.v1", attachments, page}`. A document without `encoding` is
 * already a page and comes back as it is.
 */
export function decodePacket(packet: unknown): unknown {
	return decodeAt(packet as Json, '');
}

function decodeAt(document: Json, at: string): Json {
	let current = document;
	let where = at;
	while (isPlainObject(current) && Object.hasOwn(current, 'encoding')) {
		switch (current['encoding']) {
			case encodingNames.edges:
				current = decodeEdges(current, where);
				break;
			case encodingNames.strings:
				current = decodeStrings(current, where);
				break;
			case encodingNames.rows:
				return decodeRows(current, where);
			case encodingNames.attachments: {
				checkKeys(current, ['attachments', 'page'], where);
				const page = decodeAt(current['page']!, where + '/page');
				return {encoding: encodingNames.attachments, attachments: current['attachments']!, page};
			}

			default:
				throw new PacketError(`unknown encoding ${JSON.stringify(current['encoding'])}`, where + '/encoding');
		}

		where += '/page';
	}

	return current;
}
