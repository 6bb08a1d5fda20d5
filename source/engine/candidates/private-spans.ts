/**
 * `<private>…</private>` marks text a person typed but did not mean to keep. Whatever engi
 * takes from a session's user text (a candidate's first request, evidence turns) leaves such a
 * span out, says where one was, and counts it. A span never closed runs to the end of the text:
 * when in doubt, more stays out.
 */
const privateSpan = /<private>[\s\S]*?(?:<\/private>|$)/gi;

export const privateMarker = '[private]';

export function withoutPrivateSpans(text: string): {text: string; spans: number} {
	if (!/<private>/i.test(text)) {
		return {text, spans: 0};
	}

	let spans = 0;
	const kept = text.replaceAll(privateSpan, () => {
		spans++;
		return privateMarker;
	});
	return {text: kept, spans};
}

/** True when nothing of the person's own is left once the private spans are out. */
export function onlyPrivate(text: string): boolean {
	return text.replaceAll(privateMarker, '').trim() === '';
}
