/**
 * One canary secret for every pattern engi masks (several for the key-name pattern, whose
 * shapes differ most), each written the way it turns up in a session: pasted config, a shell
 * line, AWS CLI output. `needles` are the parts that must never be stored or shown once
 * masked: distinctive fragments, so a secret shown cut short is caught too.
 */
export type Canary = {readonly pattern: string; readonly text: string; readonly needles: readonly string[]};

const pad = (prefix: string, length: number, fill = '0') => prefix.padEnd(length, fill);

export const canaries: readonly Canary[] = [
	{pattern: 'private_key_block', text: '-----BEGIN RSA PRIVATE KEY-----\nMIIEpQIBAAKCAQEAcanaryPemBodyLineOne0123456789\nQ2FuYXJ5UGVtQm9keUxpbmVUd28\n-----END RSA PRIVATE KEY-----', needles: ['canaryPemBodyLineOne', 'Q2FuYXJ5UGVtQm9keUxpbmVUd28']},
	{pattern: 'aws_access_key_id', text: 'export AWS_ACCESS_KEY_ID=AKIACANARYKEY0000001', needles: ['CANARYKEY0000001']},
	{pattern: 'aws_secret_access_key', text: `aws_secret_access_key = ${pad('CanaryAwsSecretKey', 40, '7')}`, needles: ['CanaryAwsSecretKey77']},
	{pattern: 'google_api_key', text: `maps key ${pad('AIzaCanaryGoogleKey', 39, '1')}`, needles: ['CanaryGoogleKey111']},
	{pattern: 'github_token', text: `git remote set-url origin with ${pad('ghp_CanaryGithubToken', 40, '2')}`, needles: ['CanaryGithubToken222']},
	{pattern: 'gitlab_token', text: 'glpat-CanaryGitlabToken00003 for the runner', needles: ['CanaryGitlabToken00003']},
	{pattern: 'slack_token', text: 'bot xoxb-0000-CanarySlackToken04', needles: ['CanarySlackToken04']},
	{pattern: 'slack_webhook', text: 'curl https://hooks.slack.com/services/T0000/B0000/CanarySlackWebhook05', needles: ['CanarySlackWebhook05']},
	{pattern: 'anthropic_api_key', text: 'ANTHROPIC sk-ant-api03-CanaryAnthropicKey0000006', needles: ['CanaryAnthropicKey0000006']},
	{pattern: 'openai_api_key', text: 'using sk-proj-CanaryOpenaiKey00000000007 now', needles: ['CanaryOpenaiKey00000000007']},
	{pattern: 'stripe_key', text: 'stripe sk_live_CanaryStripeKey000008', needles: ['CanaryStripeKey000008']},
	{pattern: 'jwt', text: 'cookie eyJhbGciOiJIUzI1NiJ9.eyJjYW5hcnkiOiJqd3QifQ.CanaryJwtSignature009', needles: ['CanaryJwtSignature009', 'eyJjYW5hcnkiOiJqd3QifQ']},
	{pattern: 'bearer_token', text: 'Authorization: Bearer CanaryBearerToken0000010', needles: ['CanaryBearerToken0000010']},
	{pattern: 'url_password', text: 'DATABASE_URL=postgres://app:CanaryUrlPassw0rd11@db.internal:5432/shop', needles: ['CanaryUrlPassw0rd11']},
	{
		pattern: 'secret_assignment',
		text: '{"Credentials": {"AccessKeyId": "ASIACANARYTEMP000012", "SecretAccessKey": "CanaryCliSecret/AccessKey+0000000000012", "SessionToken": "CanaryCliSessionToken//00012"}}',
		needles: ['CANARYTEMP000012', 'CanaryCliSecret', 'CanaryCliSessionToken'],
	},
	{pattern: 'secret_assignment', text: 'DB_PASSWORD=CanaryEnvPassword', needles: ['CanaryEnvPassword']},
	{pattern: 'secret_assignment', text: 'password = CanaryPassw0rd13', needles: ['CanaryPassw0rd13']},
	{pattern: 'secret_assignment', text: 'api_key: "CanaryYamlApiKey14"', needles: ['CanaryYamlApiKey14']},
];

/** Every canary's text, one per line: what a test pastes into a transcript or a note. */
export const canaryText = canaries.map(canary => canary.text).join('\n');

/** Every fragment that must not appear, in the case it was written and lowercased (full-text indexes fold case). */
export const canaryNeedles: readonly string[] = [...new Set(canaries.flatMap(canary => canary.needles.flatMap(needle => [needle, needle.toLowerCase()])))];

/** The needles found in some text or bytes (latin1 keeps every byte, so a needle is found in any encoding of ASCII). */
export function leakedNeedles(content: string | Uint8Array): string[] {
	const text = typeof content === 'string' ? content : Buffer.from(content).toString('latin1');
	return canaryNeedles.filter(needle => text.includes(needle));
}
