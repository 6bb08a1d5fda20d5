/**
 * Credential-shaped strings. Anything engi stores or shows from a transcript or a staged note is
 * checked against these first: a match is masked in indexes, snippets, briefs and listings, and
 * refuses an ingest unless the user asks for redaction. The patterns are named so reports can
 * say which fired without repeating the secret.
 *
 * Most patterns recognise a secret by its shape (a key prefix, a PEM armour). Two recognise it by
 * its place: a password in a URL's userinfo, and the value of a key whose name says it holds a
 * secret (`"SecretAccessKey": "…"`, `DB_PASSWORD=…`, `api_key: …`). Those mask only the value,
 * and only a value shaped like a credential, so `token count: 5` or `password: string` stay.
 */
export type SecretPattern = {
	readonly name: string;
	readonly pattern: RegExp;
	/** Where the secret lies in a match and whether it is one; absent: the whole match is. */
	readonly locate?: (match: RegExpExecArray, text: string) => Span | undefined;
	/** The match must start a word (see startsWord): a token's prefix inside a longer word is not one. */
	readonly wordStart?: boolean;
};

type Span = {index: number; length: number};

/** Key-name segments that say the value is a secret (`SecretAccessKey` → secret, access, key). */
const secretWords = new Set(['secret', 'secrets', 'password', 'passwd', 'pwd', 'passphrase', 'credential', 'credentials', 'apikey', 'privatekey', 'secretkey', 'accesskey']);
/** The same run together with other words in one segment (`PGPASSWORD`, `mysqlpassword`). */
const embeddedWords = /password|passwd|passphrase|secret|credential|apikey|privatekey|accesskey/;
/** Two segments that name a secret together (`private key`, `session token`). */
const secretPairs = new Set(['private key', 'secret key', 'api key', 'access key', 'signing key', 'encryption key', 'master key', 'account key', 'client secret', 'access token', 'refresh token', 'session token', 'auth token', 'id token', 'bearer token']);
/** Segments that name a secret only weakly (`token`, `npmtoken`, `auth`): their values need a credential's mix of characters. */
const weakWord = /token$|^auth$/;
/** A final segment saying the value is about a secret, not the secret (`token_count`, `password_file`). */
const describingWords = new Set(['count', 'counts', 'type', 'types', 'limit', 'limits', 'length', 'len', 'size', 'max', 'min', 'budget', 'usage', 'used', 'total', 'estimate', 'name', 'names', 'file', 'path', 'dir', 'url', 'uri', 'endpoint', 'env', 'field', 'label', 'prompt', 'hint', 'policy', 'expiry', 'expires', 'ttl', 'kind', 'format', 'mode', 'source', 'required', 'enabled', 'hash', 'header', 'param', 'var']);

function keySegments(key: string): string[] {
	return key
		.replaceAll(/([a-z\d])([A-Z])/g, '$1 $2')
		.replaceAll(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
		.toLowerCase()
		.split(/[^a-z\d]+/)
		.filter(Boolean);
}

/** How plainly a key's name says it holds a secret: not at all, weakly (token, auth) or plainly. */
export function secretKeyStrength(key: string): 'none' | 'weak' | 'strong' {
	const segments = keySegments(key);
	if (segments.length === 0 || describingWords.has(segments.at(-1)!)) {
		return 'none';
	}

	let weak = false;
	for (const [index, segment] of segments.entries()) {
		if (secretWords.has(segment) || embeddedWords.test(segment) || (index > 0 && secretPairs.has(`${segments[index - 1]} ${segment}`))) {
			return 'strong';
		}

		weak ||= weakWord.test(segment);
	}

	return weak ? 'weak' : 'none';
}

/** Values that stand for a secret without being one: references, templates, placeholders, masks, paths and URLs. */
const placeholder = /^(?:\$|\{\{|<|%|\[redacted|~?\.{0,2}\/|\*+$|x+$|\.+$|null$|none$|nil$|undefined$|true$|false$|changeme$|redacted$|example$|your[_-])|:\/\//i;

function characterClasses(value: string): number {
	return Number(/[a-z]/.test(value)) + Number(/[A-Z]/.test(value)) + Number(/\d/.test(value)) + Number(/[^A-Za-z\d]/.test(value));
}

/**
 * Whether a value assigned to a secret-named key looks like a credential. A quoted value is a
 * literal someone wrote down; an unquoted one may be code or a type (`password: string`), so it
 * needs letters and digits. An env-file line (`DB_PASSWORD=…`) is a literal too.
 */
function credentialValue(value: string, options: {quoted: boolean; envLine: boolean; strength: 'weak' | 'strong'}): boolean {
	if (placeholder.test(value) || /^(.)\1*$/.test(value)) {
		return false;
	}

	if (options.strength === 'weak') {
		return value.length >= 8 && characterClasses(value) >= 2 && (options.quoted || /\d/.test(value));
	}

	if (options.quoted || options.envLine) {
		return value.length >= 6;
	}

	return value.length >= 8 && /\d/.test(value) && /[A-Za-z]/.test(value);
}

const keyCharacter = /[A-Za-z\d_.-]/;

/**
 * Whether `index` starts a word: nothing or a non-word character before it, or a JSON escape
 * (`\n`, `\t`, `\r`), since text that is itself JSON (tool arguments, printed documents) puts
 * secrets right after one.
 */
function startsWord(text: string, index: number): boolean {
	const before = text[index - 1];
	return before === undefined || !/\w/.test(before) || (text[index - 2] === '\\' && /[nrt]/.test(before));
}

/**
 * `<key>: <value>` where the key names a secret. The regex anchors on the secret word, so the
 * key's start is found by walking back over key characters (bounded: a long identifier costs
 * little). Quotes may be JSON-escaped (`\"`) inside text that is itself JSON.
 */
function locateAssignment(match: RegExpExecArray, text: string): Span | undefined {
	let start = match.index;
	const limit = Math.max(0, start - 64);
	while (start > limit && keyCharacter.test(text[start - 1]!) && !startsWord(text, start)) {
		start--;
	}

	const key = text.slice(start, match.index) + match[1]!;
	const strength = secretKeyStrength(key);
	if (strength === 'none') {
		return undefined;
	}

	const group = match[3] === undefined ? (match[4] === undefined ? 5 : 4) : 3;
	const value = match[group]!;
	const envLine = group === 5 && match[2] === '=' && /^[A-Z][A-Z\d_]*$/.test(key) && startsWord(text, start);
	if (!credentialValue(value, {quoted: group !== 5, envLine, strength})) {
		return undefined;
	}

	return {index: match.indices![group]![0], length: value.length};
}

function locateUserinfoPassword(match: RegExpExecArray): Span | undefined {
	const password = match[1]!;
	return placeholder.test(password) ? undefined : {index: match.indices![1]![0], length: password.length};
}

// A key's alphabet may hold `-` (and `/`, `+`, `=`), so a key can end in one: each shape ends
// where no character of a word follows, not at a word boundary (`\b` after a trailing `-` backs
// off and leaves it unmasked, or misses a fixed-length key altogether).
export const secretPatterns: readonly SecretPattern[] = [
	{name: 'private_key_block', pattern: /-----BEGIN (?:[A-Z\d]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z\d]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g},
	{name: 'aws_access_key_id', wordStart: true, pattern: /(?:AKIA|ASIA|AIDA|AROA)[\dA-Z]{16}\b/g},
	{name: 'aws_secret_access_key', wordStart: true, pattern: /aws_secret_access_key\s*[:=]\s*["']?[A-Za-z\d/+=]{40}(?![A-Za-z\d/+=])/gi},
	{name: 'google_api_key', wordStart: true, pattern: /AIza[\dA-Za-z_-]{35}(?!\w)/g},
	{name: 'github_token', wordStart: true, pattern: /(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z\d]{36,255}|github_pat_\w{22,255})\b/g},
	{name: 'gitlab_token', wordStart: true, pattern: /glpat-[\w-]{20,}(?!\w)/g},
	{name: 'slack_token', wordStart: true, pattern: /xox[abposr]-[A-Za-z\d-]{10,}(?!\w)/g},
	{name: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[\w/-]{20,}/g},
	{name: 'anthropic_api_key', wordStart: true, pattern: /sk-ant-[\w-]{20,}(?!\w)/g},
	{name: 'openai_api_key', wordStart: true, pattern: /sk-(?:proj-|svcacct-|admin-)?[\w-]{20,}(?!\w)/g},
	{name: 'stripe_key', wordStart: true, pattern: /(?:sk|rk)_(?:live|test)_[A-Za-z\d]{16,}\b/g},
	{name: 'jwt', wordStart: true, pattern: /eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{8,}(?!\w)/g},
	// An opaque token after `Bearer` has a digit somewhere; prose after the word has none.
	{name: 'bearer_token', wordStart: true, pattern: /[Bb]earer\s+(?=[\w~+/.=-]*\d)[\w~+/.=-]{20,}/g},
	// scheme://user:password@host — the password alone is masked, the host stays readable.
	{name: 'url_password', pattern: /:\/\/[^\s/:@"'<>]{0,128}:([^\s/"'<>]{1,256})@(?=[^\s/@])/dg, locate: locateUserinfoPassword},
	{
		name: 'secret_assignment',
		// Anchored on a word every secret word holds; the whole key around it is judged in locateAssignment.
		pattern: /((?:secret|token|passw|pwd|passphrase|credential|key|auth)[\w.-]{0,40})(?:\\?["'])?[ \t]*([:=])[ \t]*(?:\\?"([^"\\\n]{1,512})\\?"|\\?'([^'\\\n]{1,512})\\?'|([^\s"'`,;(){}[\]<>|\\]{1,512}))/dgi,
		locate: locateAssignment,
	},
];

export type SecretFinding = {readonly pattern: string; readonly index: number; readonly length: number};

/** Every secret in the text, earliest first; where patterns overlap, the one listed first wins. */
export function findSecrets(text: string): SecretFinding[] {
	const findings: SecretFinding[] = [];
	if (!mayContainSecret(text)) {
		return findings;
	}

	const taken = (index: number, length: number) => findings.some(finding => index < finding.index + finding.length && finding.index < index + length);
	for (const {name, pattern, locate, wordStart} of secretPatterns) {
		pattern.lastIndex = 0;
		for (let match = pattern.exec(text); match !== null; match = pattern.exec(text)) {
			const span = wordStart && !startsWord(text, match.index) ? undefined : locate ? locate(match, text) : {index: match.index, length: match[0].length};
			if (span === undefined) {
				// Not a secret after all (`token_count: 5`, `xsk-…`): a later one may start inside this match.
				pattern.lastIndex = match.index + 1;
			} else if (!taken(span.index, span.length)) {
				findings.push({pattern: name, index: span.index, length: span.length});
			}
		}
	}

	return findings.sort((a, b) => a.index - b.index);
}

/** Replaces every secret-shaped span with `[redacted:<pattern>]`; text without any comes back as it was, cheaply. */
export function maskSecrets(text: string): string {
	return maskSecretsReporting(text).text;
}

/** maskSecrets, also naming the pattern of each span it masked (never the span), for reports. */
export function maskSecretsReporting(text: string): {text: string; patterns: string[]} {
	const findings = findSecrets(text);
	if (findings.length === 0) {
		return {text, patterns: []};
	}

	let masked = '';
	let at = 0;
	for (const finding of findings) {
		masked += `${text.slice(at, finding.index)}[redacted:${finding.pattern}]`;
		at = finding.index + finding.length;
	}

	return {text: masked + text.slice(at), patterns: findings.map(finding => finding.pattern)};
}

/**
 * A cheap pre-check that never skips a pattern: each pattern above needs one of these words or
 * prefixes (every secret word of secret_assignment holds `key`, `token`, `secret`, `passw`,
 * `pwd`, `passphrase`, `credential` or `auth`; PEM armour says KEY). Most prose has none.
 */
const mayHold = /key|token|secret|passw|pwd|passphrase|credential|auth|earer|:\/\/|sk-|k_live_|k_test_|gh[opsru]_|github_pat_|glpat-|xox|eyJ|AKIA|ASIA|AIDA|AROA|AIza/i;

export function mayContainSecret(text: string): boolean {
	return mayHold.test(text);
}

/**
 * How far past a cut a secret can reach (the longest token shape, an assigned value). A PEM block
 * is longer, but one cut short still masks to the end of the text.
 */
const secretReach = 1024;

/** Text with the findings masked, from raw position `from` to `to`; a finding across either bound is masked whole. */
function maskedSpan(text: string, findings: readonly SecretFinding[], from: number, to: number): string {
	let masked = '';
	let at = from;
	for (const finding of findings) {
		if (finding.index >= to) {
			break;
		}

		if (finding.index + finding.length <= at) {
			continue;
		}

		masked += `${text.slice(at, Math.max(at, finding.index))}[redacted:${finding.pattern}]`;
		at = finding.index + finding.length;
	}

	return at < to ? masked + text.slice(at, to) : masked;
}

const keep = (text: string) => text;
const foldSpaces = (text: string) => text.replaceAll(/\s+/g, ' ').trim();

/**
 * The masked start of a text, read through a window that grows until the first `length`
 * characters shown come only from text a full secret's reach before the window's end. Masking
 * shrinks text (a long key block becomes one marker), so a fixed window would show raw text from
 * right at its cut, where a secret cut in two is no longer recognised.
 */
function safeHead(text: string, length: number, fold: (text: string) => string): {text: string; windowed: boolean; patterns: string[]} {
	for (let size = length + secretReach; ; size *= 2) {
		const windowed = text.length > size;
		const window = windowed ? text.slice(0, size) : text;
		const findings = findSecrets(window);
		if (!windowed || fold(maskedSpan(window, findings, 0, size - secretReach)).length >= length) {
			return {text: fold(maskedSpan(window, findings, 0, window.length)), windowed, patterns: findings.map(finding => finding.pattern)};
		}
	}
}

/** True when maskedHead(text, length) reads `text` whole, in one window (its first). */
export function maskedHeadReadsWhole(text: string, length: number): boolean {
	return text.length <= length + secretReach;
}

/** The masked start of a possibly huge text: enough of it to show `length` characters. */
export function maskedHead(text: string, length: number): string {
	return safeHead(text, length, keep).text;
}

/**
 * Text cut to `limit` characters, an ellipsis marking the cut, with secrets masked before the
 * cut (a secret straddling it goes whole). `oneLine` folds runs of whitespace after masking.
 */
export function clipMasked(text: string, limit: number, options: {oneLine?: boolean} = {}): {text: string; truncated: boolean} {
	const clipped = clipMaskedReporting(text, limit, options);
	return {text: clipped.text, truncated: clipped.truncated};
}

/** clipMasked, also naming the pattern of each span it masked in what it read (never the span). */
export function clipMaskedReporting(text: string, limit: number, options: {oneLine?: boolean} = {}): {text: string; truncated: boolean; patterns: string[]} {
	const head = safeHead(text, limit, options.oneLine ? foldSpaces : keep);
	return head.text.length <= limit && !head.windowed ? {text: head.text, truncated: false, patterns: head.patterns} : {text: head.text.slice(0, limit - 1) + '…', truncated: true, patterns: head.patterns};
}

/** The masked end of a possibly huge text; a PEM block that begins before the window is masked from its armour. */
export function maskedTail(text: string, length: number): string {
	return maskedTailReporting(text, length).text;
}

/** maskedTail, also naming the pattern of each span it masked (never the span). Grows its window as safeHead does. */
export function maskedTailReporting(text: string, length: number): {text: string; patterns: string[]} {
	for (let size = length + secretReach; ; size *= 2) {
		let start = Math.max(0, text.length - size);
		const armour = start > 0 ? text.lastIndexOf('-----BEGIN', start) : -1;
		if (armour !== -1) {
			start = armour;
		}

		const window = start > 0 ? text.slice(start) : text;
		const findings = findSecrets(window);
		if (start === 0 || maskedSpan(window, findings, Math.min(secretReach, window.length), window.length).length >= length) {
			return {text: maskedSpan(window, findings, 0, window.length), patterns: findings.map(finding => finding.pattern)};
		}
	}
}

/**
 * A JSON-like value with every string masked, and every string under a secret-named key masked
 * whole when it looks like a credential (a raw record's `{"SecretAccessKey": "…"}` has no
 * `key: value` text to recognise).
 */
export function maskValue(value: unknown, key?: string): unknown {
	if (typeof value === 'string') {
		if (key !== undefined) {
			const strength = secretKeyStrength(key);
			if (strength !== 'none' && credentialValue(value, {quoted: true, envLine: false, strength})) {
				return '[redacted:secret_assignment]';
			}
		}

		return maskSecrets(value);
	}

	if (Array.isArray(value)) {
		return value.map(item => maskValue(item));
	}

	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskValue(item, name)]));
	}

	return value;
}
