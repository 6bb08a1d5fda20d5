/** Every object key used anywhere in a JSON value (walked with a stack: transcripts nest deeply). */
export function keysIn(value: unknown): Set<string> {
	const keys = new Set<string>();
	const stack: unknown[] = [value];
	while (stack.length > 0) {
		const current = stack.pop();
		if (Array.isArray(current)) {
			for (const item of current) {
				stack.push(item);
			}
		} else if (current !== null && typeof current === 'object') {
			for (const [key, child] of Object.entries(current)) {
				keys.add(key);
				if (child !== null && typeof child === 'object') {
					stack.push(child);
				}
			}
		}
	}

	return keys;
}

/**
 * A reference key no object of the document uses, so `{<key>: …}` can only be the encoder's: the
 * first free one-character candidate, else the first free `<stem><n>`.
 */
export function freeKey(used: ReadonlySet<string>, candidates: readonly string[], stem: string): string {
	const free = candidates.find(candidate => !used.has(candidate));
	if (free !== undefined) {
		return free;
	}

	for (let index = 0; ; index++) {
		if (!used.has(`${stem}${index}`)) {
			return `${stem}${index}`;
		}
	}
}

/** Serialised size in UTF-8 bytes: what "the page gets smaller" is measured in. */
export function jsonBytes(value: unknown): number {
	return Buffer.byteLength(JSON.stringify(value));
}

/**
 * Whether `value` is a layer's own string field (`encoding`, `ref_key`, `join_key`): its header,
 * which a reader and the validator take literally, so an outer layer never rewrites it. `layer`
 * says `value`'s parent is a layer: the document itself, or the `page` of a layer, while each has
 * an `encoding` (a page never has one).
 */
const isLayer = (value: unknown, layer: boolean): value is Record<string, unknown> => layer && value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, 'encoding');

/** A copy with every string value (not key) but the layers' headers passed through `map`; keys keep their own-property form. */
export function mapStrings(value: unknown, map: (text: string) => unknown, layer = true): unknown {
	if (typeof value === 'string') {
		return map(value);
	}

	if (Array.isArray(value)) {
		return value.map(item => mapStrings(item, map, false));
	}

	if (value !== null && typeof value === 'object') {
		const header = isLayer(value, layer);
		const copy: Record<string, unknown> = {};
		for (const [key, child] of Object.entries(value)) {
			const mapped = header && typeof child === 'string' ? child : mapStrings(child, map, header && key === 'page');
			Object.defineProperty(copy, key, {value: mapped, enumerable: true, writable: true, configurable: true});
		}

		return copy;
	}

	return value;
}

/** Calls `visit` on every string value (not key) but the layers' headers, in document order. */
export function eachString(value: unknown, visit: (text: string) => void, layer = true): void {
	if (typeof value === 'string') {
		visit(value);
	} else if (Array.isArray(value)) {
		for (const item of value) {
			eachString(item, visit, false);
		}
	} else if (value !== null && typeof value === 'object') {
		const header = isLayer(value, layer);
		for (const [key, child] of Object.entries(value)) {
			if (!(header && typeof child === 'string')) {
				eachString(child, visit, header && key === 'page');
			}
		}
	}
}
