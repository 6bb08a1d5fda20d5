/**
 * Credential-shaped strings. Anything engi stores or shows from a transcript or a staged note is
 * checked against these first: a match is masked in indexes and snippets, and refuses an ingest
 * unless the user asks for redaction. The patterns are named so reports can say which fired
 * without repeating the secret.
 */
export type SecretPattern = {readonly name: string; readonly pattern: RegExp};

export const secretPatterns: readonly SecretPattern[] = [
	{name: 'private_key_block', pattern: /-----BEGIN (?:[A-Z ]+ )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z ]+ )?PRIVATE KEY-----|$)/g},
	{name: 'aws_access_key_id', pattern: /\b(?:AKIA|ASIA|AIDA|AROA)[0-9A-Z]{16}\b/g},
	{name: 'aws_secret_access_key', pattern: /\baws_secret_access_key\s*[:=]\s*["']?[A-Za-z0-9/+=]{40}\b/gi},
	{name: 'google_api_key', pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g},
	{name: 'github_token', pattern: /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}\b|\bgithub_pat_[A-Za-z0-9_]{22,255}\b/g},
	{name: 'gitlab_token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}\b/g},
	{name: 'slack_token', pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,}\b/g},
	{name: 'slack_webhook', pattern: /https:\/\/hooks\.slack\.com\/services\/[A-Za-z0-9/_-]{20,}/g},
	{name: 'anthropic_api_key', pattern: /\bsk-ant-[A-Za-z0-9_-]{20,}\b/g},
	{name: 'openai_api_key', pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}\b/g},
	{name: 'stripe_key', pattern: /\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}\b/g},
	{name: 'jwt', pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g},
	{name: 'password_assignment', pattern: /\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret)\b\s*[:=]\s*["']?[^\s"'`,;]{6,}/gi},
	{name: 'secret_named_value', pattern: /\b[A-Z][A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD|API_KEY|PRIVATE_KEY)[A-Z0-9_]*\s*[:=]\s*["']?[A-Za-z0-9/+_.=-]{16,}/g},
];

export type SecretFinding = {readonly pattern: string; readonly index: number; readonly length: number};

export function findSecrets(text: string): SecretFinding[] {
	const findings: SecretFinding[] = [];
	for (const {name, pattern} of secretPatterns) {
		pattern.lastIndex = 0;
		for (const match of text.matchAll(pattern)) {
			findings.push({pattern: name, index: match.index ?? 0, length: match[0].length});
		}
	}

	return findings.sort((a, b) => a.index - b.index);
}

/** Replaces every secret-shaped span with `[redacted:<pattern>]`. */
export function maskSecrets(text: string): string {
	let masked = text;
	for (const {name, pattern} of secretPatterns) {
		pattern.lastIndex = 0;
		masked = masked.replace(pattern, `[redacted:${name}]`);
	}

	return masked;
}

/** Cheap pre-check: most text has none of the characters every pattern needs. */
export function mayContainSecret(text: string): boolean {
	return /(?:KEY|key|Key|TOKEN|token|Token|sk-|gh[pousr]_|github_pat|glpat|xox|eyJ|AKIA|ASIA|AIza|PASSWORD|password|passwd|pwd|secret|SECRET|hooks\.slack)/.test(text);
}
