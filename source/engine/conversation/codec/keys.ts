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

/** A copy with every string value (not key) passed through `map`; keys keep their own-property form. */
export function mapStrings(value: unknown, map: (text: string) => unknown): unknown {
	if (typeof value === 'string') {
		return map(value);
	}

	if (Array.isArray(value)) {
		return value.map(item => mapStrings(item, map));
	}

	if (value !== null && typeof value === 'object') {
		const copy: Record<string, unknown> = {};
		for (const [key, child] of Object.entries(value)) {
			Object.defineProperty(copy, key, {value: mapStrings(child, map), enumerable: true, writable: true, configurable: true});
		}

		return copy;
	}

	return value;
}

/** Calls `visit` on every string value (not key), in document order. */
export function eachString(value: unknown, visit: (text: string) => void): void {
	if (typeof value === 'string') {
		visit(value);
	} else if (Array.isArray(value)) {
		for (const item of value) {
			eachString(item, visit);
		}
	} else if (value !== null && typeof value === 'object') {
		for (const child of Object.values(value)) {
			eachString(child, visit);
		}
	}
}
