/**
 * Antigravity wraps what a person typed as `<USER_REQUEST>…</USER_REQUEST>` and appends
 * host blocks (`<ADDITIONAL_METADATA>`, `<USER_SETTINGS_CHANGE>`) to the same step.
 */
const requestBlock = /<USER_REQUEST>([\s\S]*?)<\/USER_REQUEST>/g;
const hostBlock = /<(ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>[\s\S]*?(?:<\/\1>|$)/g;
const hostOpening = /<(?:ADDITIONAL_METADATA|USER_SETTINGS_CHANGE)>/;
const modelChange = /`?Model Selection`? from .*? to ([^\n]+?)\.?[ \t]*$/m;

/**
 * The request a person typed, without the host blocks; undefined when the step carries only
 * host blocks (a settings change with no request) or an empty request block (a plan approval). A
 * request cut short by `truncated_fields` ends at the first host block.
 */
export function userRequestText(content: string): string | undefined {
	const blocks = [...content.matchAll(requestBlock)];
	if (blocks.length > 0) {
		// A closed block is the whole request, even an empty one: approving a plan writes the IDE's
		// own words ("The user has approved this document.") around an empty block.
		const requests = blocks.map(match => (match[1] ?? '').trim()).filter(Boolean);
		return requests.length > 0 ? requests.join('\n\n') : undefined;
	}

	const opened = content.indexOf('<USER_REQUEST>');
	if (opened !== -1) {
		const rest = content.slice(opened + '<USER_REQUEST>'.length);
		const text = rest.split(hostOpening)[0]?.trim() ?? '';
		return text === '' ? undefined : text;
	}

	const text = content.replace(hostBlock, '').trim();
	return text === '' ? undefined : text;
}

/** The model a `<USER_SETTINGS_CHANGE>` block switched to, e.g. "Gemini 3.1 Pro (High)". */
export function modelFromSettings(content: string): string | undefined {
	const settings = /<USER_SETTINGS_CHANGE>([\s\S]*?)(?:<\/USER_SETTINGS_CHANGE>|$)/.exec(content)?.[1];
	const model = settings === undefined ? undefined : modelChange.exec(settings)?.[1]?.trim();
	return model === '' ? undefined : model;
}
