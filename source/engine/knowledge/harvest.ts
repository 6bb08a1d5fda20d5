import {relative} from 'node:path';
import * as z from 'zod/mini';
import {parse as parseYaml} from 'yaml';
import {canonicalEdgeKind, canonicalNodeKind} from '../graph/kinds.js';
import type {EventDraft} from '../journal/append.js';
import {nodeSourceSha256} from '../index/store.js';
import type {KbPaths} from '../kb/paths.js';
import {findSecrets, maskSecrets, maskValue} from '../search/secrets.js';
import type {Database} from '../../lib/sqlite.js';
import {tooDeepForYaml, tooDeepYaml} from '../../lib/yaml-nesting.js';
import {harvestFrontmatterSchema, keyLine, splitFrontmatter, type HarvestFrontmatter, type SplitNote} from './frontmatter.js';
import {sha256Hex} from '../../lib/hash.js';
import {listInbox, readStagedNote, type SkippedEntry, type StagedNote} from './inbox.js';

export const harvestFileSchema = z.object({
	path: z.string(),
	status: z.enum(['new', 'changed', 'unchanged', 'invalid', 'secrets']),
	node: z.nullable(z.string()),
	sha256: z.string(),
	/** Why a file is invalid: line and message, never the offending text. */
	reasons: z.array(z.object({line: z.nullable(z.number()), message: z.string()})),
	/** Credential-shaped values found: where, and which pattern; the value itself is never shown. */
	secrets: z.array(z.object({line: z.number(), pattern: z.string()})),
});

export type HarvestFile = z.infer<typeof harvestFileSchema>;

/** A checked note and the events ingest would append for it (status and reasons may still change in validation). */
export type PlannedFile = Omit<HarvestFile, 'status'> & {status: HarvestFile['status']; drafts: EventDraft[]};

/** zod/mini's messages are terse ("Invalid input"); say what a person should fix. */
function describeIssue(issue: {code: string; path: PropertyKey[]; message: string; expected?: unknown}, data: unknown): string {
	const key = issue.path[0];
	const present = data !== null && typeof data === 'object' && key !== undefined && (key as string) in (data as Record<string, unknown>);
	if (issue.code === 'invalid_type') {
		return present ? `must be ${String(issue.expected ?? 'a different type')}` : 'is required';
	}

	return issue.code === 'too_small' ? 'must not be empty' : issue.message;
}

function lineOfIndex(text: string, index: number): number {
	let line = 1;
	for (let position = 0; position < index; position++) {
		if (text.charCodeAt(position) === 10) {
			line++;
		}
	}

	return line;
}

function asList(value: string | string[] | null | undefined): string[] {
	if (value === null || value === undefined) {
		return [];
	}

	return (Array.isArray(value) ? value : [value]).map(item => item.trim()).filter(Boolean);
}

function linksOf(frontmatter: HarvestFrontmatter): Array<{type: string; to: string}> {
	return (frontmatter.links ?? []).flatMap(link => {
		if (typeof link !== 'string') {
			return [{type: link.type.trim(), to: link.to.trim()}];
		}

		const [type, ...rest] = link.trim().split(/\s+/);
		return type && rest.length > 0 ? [{type, to: rest.join(' ')}] : [];
	});
}

/**
 * Plans one staged note: parse and validate its frontmatter, look for secrets, compare its hash
 * with what the journal already holds for that node, and build the events `ingest` would
 * append. Nothing is written here.
 */
export function planHarvestFile(db: Database, paths: KbPaths, staged: StagedNote, raw: string, options: {redact: boolean}): PlannedFile {
	const sha256 = sha256Hex(raw);
	const path = relative(paths.root, staged.listed);
	const result: PlannedFile = {path, status: 'invalid', node: null, sha256, reasons: [], secrets: [], drafts: []};
	const secrets = findSecrets(raw).map(finding => ({line: lineOfIndex(raw, finding.index), pattern: finding.pattern}));
	const note = splitFrontmatter(raw);
	if (!note) {
		result.reasons.push({line: 1, message: 'no YAML frontmatter: the note must start with a --- line and close it with another'});
		return result;
	}

	if (tooDeepYaml(note.yaml)) {
		result.reasons.push({line: note.yamlLine, message: `frontmatter ${tooDeepForYaml}`});
		return result;
	}

	let data: unknown;
	try {
		data = parseYaml(note.yaml);
	} catch (error) {
		const line = error && typeof error === 'object' && 'linePos' in error ? (error as {linePos?: Array<{line: number}>}).linePos?.[0]?.line : undefined;
		result.reasons.push({line: line === undefined ? null : note.yamlLine + line - 1, message: 'frontmatter is not valid YAML'});
		return result;
	}

	const parsed = harvestFrontmatterSchema.safeParse(data);
	if (!parsed.success) {
		for (const issue of parsed.error.issues) {
			const key = String(issue.path[0] ?? '');
			result.reasons.push({line: key ? keyLine(note, key) : note.yamlLine, message: `${key || 'frontmatter'}: ${describeIssue(issue, data)}`});
		}

		return result;
	}

	// Redaction masks the parsed values, not the raw text: a masked value stays one YAML string.
	const redact = secrets.length > 0 && options.redact;
	const frontmatter = redact ? (maskValue(parsed.data) as HarvestFrontmatter) : parsed.data;
	result.node = frontmatter.id.trim();
	result.secrets = secrets;
	// The hash is of the note as staged, so a note ingested with --redact is known again by it.
	const recorded = nodeSourceSha256(db, result.node);
	if (recorded === sha256) {
		result.status = 'unchanged';
		return result;
	}

	if (secrets.length > 0 && !options.redact) {
		result.status = 'secrets';
		return result;
	}

	result.drafts = draftsFor(frontmatter, redact ? {...note, body: maskSecrets(note.body)} : note, path, sha256, secrets);
	result.status = recorded === undefined ? 'new' : 'changed';
	return result;
}

function draftsFor(frontmatter: HarvestFrontmatter, note: SplitNote, path: string, sha256: string, redacted: Array<{line: number; pattern: string}>): EventDraft[] {
	const {kind} = canonicalNodeKind(frontmatter.kind);
	const payload: Record<string, unknown> = {
		id: frontmatter.id.trim(),
		kind,
		label: frontmatter.label.trim(),
		provenance: `${path}:1`,
		source_path: path,
		source_sha256: sha256,
	};
	if (note.body) {
		payload['body'] = note.body;
	}

	for (const key of ['status', 'next_action'] as const) {
		const value = frontmatter[key];
		if (typeof value === 'string' && value.trim()) {
			payload[key] = value.trim();
		}
	}

	const blockers = asList(frontmatter.blockers);
	if (blockers.length > 0) {
		payload['blockers'] = blockers;
	}

	if (redacted.length > 0) {
		payload['redacted'] = redacted;
	}

	const drafts: EventDraft[] = [{op: 'node.upsert', payload}];
	if (frontmatter.project?.trim()) {
		drafts.push({op: 'edge.assert', payload: {from: payload['id'], type: 'BELONGS_TO', to: frontmatter.project.trim(), provenance: `${path}:${keyLine(note, 'project')}`}});
	}

	const linksLine = keyLine(note, 'links');
	linksOf(frontmatter).forEach((link, index) => {
		drafts.push({op: 'edge.assert', payload: {from: payload['id'], type: canonicalEdgeKind(link.type).type, to: link.to, provenance: `${path}:${linksLine + index + 1}`}});
	});
	return drafts;
}

/** Plans every staged note in `00-inbox/harvest/`, in path order; entries that are not readable notes are skipped, with the reason. */
export function planHarvest(db: Database, paths: KbPaths, options: {redact: boolean}): {files: PlannedFile[]; skipped: SkippedEntry[]} {
	const {notes, skipped} = listInbox(paths.harvest, paths.root);
	const files: PlannedFile[] = [];
	for (const note of notes) {
		const raw = readStagedNote(note);
		if (raw === undefined) {
			skipped.push({path: relative(paths.root, note.listed), reason: 'unreadable'});
		} else {
			files.push(planHarvestFile(db, paths, note, raw, options));
		}
	}

	return {files, skipped: skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))};
}
