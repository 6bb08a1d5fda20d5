/**
 * The normaliser for golden JSON documents (snapshots/json/). It replaces only what differs
 * between two runs on the same inputs, and nothing else:
 *
 * - `<sandbox>`: the test's temporary directory (and its realpath, and the slug Claude Code
 *   names a project directory by: every character not a letter or digit replaced by `-`);
 * - `<now>`: a timestamp the run's own clock produced (generated_at, updated_at, observed_utc,
 *   as_of, …): one that falls inside the window the run took, in ISO 8601 with `Z`. Times from
 *   the fixtures and times the test chose are kept as they are;
 * - `<sha256>`: `node_sha256`, a hash over a node that carries its observed time;
 * - `<fingerprint>`: `source_fingerprint`, a candidate's record of its transcript's size, time
 *   and inode (the inode is whatever the file system gave the copied fixture);
 * - with `clockRelative` (engi demo, which invents its sessions a few hours before now in a
 *   temporary directory of its own): every date or time in any spelling (`2026-12-01T08:48:02Z`,
 *   `2026-12-01T08-48`, `2026/12/01`) becomes `<time>`, and the demo's directory `<demo>`.
 *
 * The normalised document is printed with two-space indentation and a final newline, and
 * compared byte for byte.
 */
import {realpathSync} from 'node:fs';
import {tmpdir} from 'node:os';

export type Normalizer = {readonly sandbox: string; readonly window: {readonly from: number; readonly to: number}};

const isoTimestamp = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z/g;
const anyDate = /\d{4}([-/])\d{2}\1\d{2}(?:T\d{2}[-:]\d{2}(?:[-:]\d{2}(?:\.\d+)?)?Z?)?/g;

function replaceAll(text: string, needles: readonly string[], replacement: string): string {
	return needles.reduce((result, needle) => result.split(needle).join(replacement), text);
}

function normalizeText(text: string, normalizer: Normalizer, clockRelative: boolean): string {
	const sandboxes = [...new Set([normalizer.sandbox, realpathSync(normalizer.sandbox)])];
	let result = replaceAll(text, sandboxes, '<sandbox>');
	result = replaceAll(result, sandboxes.map(path => path.replaceAll(/[^A-Za-z0-9]/g, '-')), '<sandbox-slug>');
	if (clockRelative) {
		const demo = new RegExp(`${tmpdir().replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&')}/engi-demo-[A-Za-z0-9]+`, 'g');
		const demoSlug = new RegExp(`${tmpdir().replaceAll(/[^A-Za-z0-9]/g, '-')}-engi-demo-[A-Za-z0-9]+`, 'g');
		return result.replaceAll(demo, '<demo>').replaceAll(demoSlug, '<demo-slug>').replaceAll(anyDate, '<time>');
	}

	return result.replaceAll(isoTimestamp, stamp => {
		const time = Date.parse(stamp);
		return time >= normalizer.window.from && time <= normalizer.window.to ? '<now>' : stamp;
	});
}

function normalizeValue(value: unknown, normalizer: Normalizer, clockRelative: boolean): unknown {
	if (typeof value === 'string') {
		return normalizeText(value, normalizer, clockRelative);
	}

	if (Array.isArray(value)) {
		return value.map(item => normalizeValue(item, normalizer, clockRelative));
	}

	if (value !== null && typeof value === 'object') {
		return Object.fromEntries(Object.entries(value).map(([key, item]) => [normalizeText(key, normalizer, clockRelative), key === 'node_sha256' ? '<sha256>' : key === 'source_fingerprint' ? '<fingerprint>' : normalizeValue(item, normalizer, clockRelative)]));
	}

	return value;
}

/** The golden text of one document. */
export function goldenJson(document: unknown, normalizer: Normalizer, options: {clockRelative?: boolean} = {}): string {
	return JSON.stringify(normalizeValue(document, normalizer, options.clockRelative ?? false), null, 2) + '\n';
}
