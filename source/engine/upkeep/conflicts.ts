/**
 * Conflict quarantine's two deterministic tests, made before a page is parsed (Akno's rules): a
 * complete merge block left in the text, and a file name a sync tool gives the copy it leaves
 * beside a conflict. The third, two pages claiming one id, needs every page and lives in sync.
 */

type Fence = {readonly marker: string; readonly line: number};

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Lines inside closed code fences: a merge block shown there is documentation. A fence never
 * closed protects nothing (it is read as text), so a conflict cannot hide behind one.
 */
function fencedLines(lines: readonly string[]): Set<number> {
	const fenced = new Set<number>();
	let open: Fence | undefined;
	for (let index = 0; index < lines.length; index++) {
		const line = lines[index]!;
		if (open === undefined) {
			const match = fenceOpen.exec(line);
			if (match) {
				open = {marker: match[1]!, line: index};
			}

			continue;
		}

		const close = fenceOpen.exec(line);
		if (close && close[1]![0] === open.marker[0] && close[1]!.length >= open.marker.length && line.trim() === close[1]) {
			for (let inside = open.line; inside <= index; inside++) {
				fenced.add(inside);
			}

			open = undefined;
		}
	}

	if (open !== undefined) {
		// Unclosed: look again from the line after it, as if the opening line were text.
		const rest = fencedLines(lines.slice(open.line + 1));
		for (const line of rest) {
			fenced.add(line + open.line + 1);
		}
	}

	return fenced;
}

/**
 * The 1-based lines of the first complete `<<<<<<<` / `=======` / `>>>>>>>` block outside closed
 * fences, or undefined. A lone marker is not a conflict: only the three in order are.
 */
export function conflictBlock(text: string): {start: number; end: number} | undefined {
	const lines = text.split(/\r?\n/);
	const fenced = fencedLines(lines);
	let start: number | undefined;
	let middle = false;
	for (let index = 0; index < lines.length; index++) {
		if (fenced.has(index)) {
			continue;
		}

		const line = lines[index]!;
		if (/^<{7}(?:\s|$)/.test(line)) {
			start = index;
			middle = false;
		} else if (start !== undefined && /^={7}\s*$/.test(line)) {
			middle = true;
		} else if (start !== undefined && middle && /^>{7}(?:\s|$)/.test(line)) {
			return {start: start + 1, end: index + 1};
		}
	}

	return undefined;
}

/**
 * Whether a file name matches a pattern in which `*` is any run of characters and everything
 * else is literal. Matched directly, never compiled: the patterns come from the knowledge base's
 * config, and a long one is a regular expression V8 refuses to compile ("too large"). Only the
 * last `*` is retried one character further when what follows it fails: at worst the name's
 * length times the pattern's steps, never the backtracking of a chain of `.*`.
 */
function matchesPattern(pattern: string, name: string): boolean {
	let at = 0;
	let position = 0;
	let star = -1;
	let resume = 0;
	while (position < name.length) {
		if (pattern[at] === '*') {
			star = at++;
			resume = position;
		} else if (at < pattern.length && pattern[at] === name[position]) {
			at++;
			position++;
		} else if (star === -1) {
			return false;
		} else {
			at = star + 1;
			position = ++resume;
		}
	}

	while (pattern[at] === '*') {
		at++;
	}

	return at === pattern.length;
}

/** The first of the patterns the file's name matches, or undefined. */
export function conflictPathPattern(name: string, patterns: readonly string[]): string | undefined {
	return patterns.find(pattern => matchesPattern(pattern, name));
}
