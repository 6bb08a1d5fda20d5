/**
 * How deep YAML text may nest, as a parser would reach it, counted without parsing: the deepest
 * run of open flow brackets (`[`, `{`, outside quoted scalars and comments), and the widest
 * block indentation (leading spaces, each compact `- `, `? ` or `: ` counted as its two columns).
 * An upper bound, not the document's depth: a plain scalar such as `a[b` counts its bracket.
 *
 * The `yaml` package parses nesting by recursion. Frontmatter nested thousands deep took it to
 * the stack's end, where V8, compiling a pattern there, aborted the process ("RegExpCompiler
 * Allocation failed") instead of throwing: a note's text must never get that far.
 */
/** Deeper than this, text is not handed to a YAML parser: real frontmatter nests a few levels. */
export const yamlNestingLimit = 64;

/** Why text was not parsed, for a reason line: "frontmatter nests deeper than …". */
export const tooDeepForYaml = `nests deeper than ${yamlNestingLimit} levels`;

export function tooDeepYaml(text: string): boolean {
	return yamlNesting(text) > yamlNestingLimit;
}

export function yamlNesting(text: string): number {
	let deepest = 0;
	let flow = 0;
	let quote: '"' | "'" | undefined;
	let lineStart = true;
	for (let at = 0; at < text.length; at++) {
		const character = text[at]!;
		if (lineStart) {
			lineStart = false;
			const column = blockColumn(text, at);
			deepest = Math.max(deepest, column.width);
			at = column.end - 1;
			continue;
		}

		if (character === '\n') {
			lineStart = true;
			continue;
		}

		if (quote !== undefined) {
			if (character === '\\' && quote === '"') {
				at++;
			} else if (character === quote) {
				quote = undefined;
			}

			continue;
		}

		// A quote opens a quoted scalar only where a scalar starts; `don't` in a plain one is a letter.
		if ((character === '"' || character === "'") && scalarMayStart(text[at - 1])) {
			quote = character;
		} else if (character === '#' && /\s/.test(text[at - 1] ?? ' ')) {
			at = skipToLineEnd(text, at);
		} else if (character === '[' || character === '{') {
			flow++;
			deepest = Math.max(deepest, flow);
		} else if ((character === ']' || character === '}') && flow > 0) {
			flow--;
		}
	}

	return deepest;
}

/** The indentation a line opens with, compact indicators included, and where its content starts. */
function blockColumn(text: string, start: number): {width: number; end: number} {
	let at = start;
	while (at < text.length) {
		if (text[at] === ' ') {
			at++;
		} else if ((text[at] === '-' || text[at] === '?' || text[at] === ':') && (text[at + 1] === ' ' || text[at + 1] === '\n' || at + 1 === text.length)) {
			at += 2;
		} else {
			break;
		}
	}

	return {width: at - start, end: Math.min(at, text.length)};
}

function scalarMayStart(before: string | undefined): boolean {
	return before === undefined || ' \t\n[{,:-?'.includes(before);
}

function skipToLineEnd(text: string, at: number): number {
	const end = text.indexOf('\n', at);
	return end === -1 ? text.length : end - 1;
}
