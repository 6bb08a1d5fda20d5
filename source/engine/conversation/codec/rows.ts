import {encodingNames, isPlainObject} from './decode.js';

type Layout = {fields: string[]; shared: Record<string, unknown>; in?: string};

export type RowsLayer = {
	encoding: typeof encodingNames.rows;
	layouts: Layout[];
	rows: Array<[number, number, unknown[]]>;
	page: Record<string, unknown>;
};

type Group = {index: number; nest: string | undefined; keys: string[]; bodies: Array<Record<string, unknown>>; lines: number[]};

/** `{line, event: {…}}` (the events view) lays out the native record; any other record its own keys. */
function bodyOf(record: Record<string, unknown>): {nest: string | undefined; body: Record<string, unknown>} {
	const keys = Object.keys(record);
	if (keys.length === 2) {
		const other = keys[0] === 'line' ? keys[1]! : keys[0]!;
		const inner = record[other];
		if (isPlainObject(inner)) {
			return {nest: other, body: inner};
		}
	}

	const body: Record<string, unknown> = {};
	for (const key of keys) {
		if (key !== 'line') {
			Object.defineProperty(body, key, {value: record[key], enumerable: true, writable: true, configurable: true});
		}
	}

	return {nest: undefined, body};
}

/** Whether every body of a group holds the same value under `key` (compared as JSON, primitives directly). */
function constant(bodies: ReadonlyArray<Record<string, unknown>>, key: string): boolean {
	const first = bodies[0]![key];
	if (first === null || typeof first !== 'object') {
		return bodies.every(body => body[key] === first);
	}

	const text = JSON.stringify(first);
	return bodies.every(body => {
		const value = body[key];
		return value !== null && typeof value === 'object' && JSON.stringify(value) === text;
	});
}

/**
 * The rows layer: records that have the same keys share a layout naming them once, with the
 * values every such record has in common kept once in `shared`; each record becomes
 * `[line, layout, values]`. Undefined when the page has no records, or a record without a
 * numeric `line` (the layer cannot say it then).
 */
export function encodeRows(page: Record<string, unknown>): RowsLayer | undefined {
	const records = page['records'];
	if (!Array.isArray(records) || records.length === 0 || !records.every(record => isPlainObject(record) && typeof record['line'] === 'number')) {
		return undefined;
	}

	const groups = new Map<string, Group>();
	const order: Array<{group: Group; position: number}> = [];
	for (const record of records as Array<Record<string, unknown>>) {
		const {nest, body} = bodyOf(record);
		const keys = Object.keys(body);
		const id = JSON.stringify([nest ?? null, [...keys].sort()]);
		let group = groups.get(id);
		if (!group) {
			group = {index: groups.size, nest, keys, bodies: [], lines: []};
			groups.set(id, group);
		}

		order.push({group, position: group.bodies.length});
		group.bodies.push(body);
		group.lines.push(record['line'] as number);
	}

	const layouts: Layout[] = [];
	const fieldsOf: string[][] = [];
	for (const group of groups.values()) {
		const shared: Record<string, unknown> = {};
		const fields: string[] = [];
		for (const key of group.keys) {
			if (group.bodies.length > 1 && constant(group.bodies, key)) {
				Object.defineProperty(shared, key, {value: group.bodies[0]![key], enumerable: true, writable: true, configurable: true});
			} else {
				fields.push(key);
			}
		}

		layouts.push({fields, shared, ...(group.nest === undefined ? {} : {in: group.nest})});
		fieldsOf.push(fields);
	}

	const rows = order.map(({group, position}): [number, number, unknown[]] => {
		const body = group.bodies[position]!;
		return [group.lines[position]!, group.index, fieldsOf[group.index]!.map(key => body[key])];
	});
	const header: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(page)) {
		if (key !== 'records') {
			Object.defineProperty(header, key, {value, enumerable: true, writable: true, configurable: true});
		}
	}

	return {encoding: encodingNames.rows, layouts, rows, page: header};
}
