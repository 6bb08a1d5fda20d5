/**
 * A fence no line of the text can close: longer than its longest run of backticks (CommonMark
 * closes a fence only with one at least as long), so quoted text cannot break out of it.
 */
export function fenceFor(text: string): string {
	const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map(match => match[0].length));
	return '`'.repeat(Math.max(3, longest + 1));
}

/** Text as one inline code span that none of its own backticks can end (CommonMark's rule for code spans). */
export function inlineCode(text: string): string {
	const single = text.replaceAll(/\s+/g, ' ').trim();
	const longest = Math.max(0, ...[...single.matchAll(/`+/g)].map(match => match[0].length));
	const ticks = '`'.repeat(longest + 1);
	// A span that starts or ends with a backtick needs a space inside its delimiters.
	const pad = single.startsWith('`') || single.endsWith('`') ? ' ' : '';
	return `${ticks}${pad}${single}${pad}${ticks}`;
}
