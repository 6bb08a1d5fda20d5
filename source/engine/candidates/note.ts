import * as z from 'zod/mini';
import {sourceIds} from '../../adapters/types.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {tooDeepForYaml, tooDeepYaml} from '../../lib/yaml-nesting.js';
import {splitFrontmatter} from '../knowledge/frontmatter.js';
import {commandCountsSchema, commandFactSchema, fileFactSchema, firstRequestSchema, type SessionFacts} from './session-facts.js';
import {renderNoteBody} from './note-body.js';

/**
 * A candidate note: `<root>/00-inbox/candidates/<source>-<native id>.md`, YAML frontmatter and a
 * readable body made from it. The note is the candidate: the queue, the harvest's cursor and
 * every review step read the notes alone, so deleting every index changes nothing.
 *
 * engi writes each frontmatter value as one line of JSON, which YAML reads as the very same
 * value, and reads its own notes back without a YAML parser: the `yaml` package takes about
 * 3 ms a note here, and a queue holds thousands. A note whose frontmatter a person reformatted
 * is read with the `yaml` package (loaded only then); one that does not parse, or does not
 * say what a candidate says, stays in the queue as unreadable.
 */
export const noteSchemaName = 'engi.candidate.v1';

export const claimSchema = lazySchema(() => z.object({text: z.string(), turns: z.array(z.number())}));
export type Claim = z.infer<typeof claimSchema>;

export const candidateStatuses = ['pending', 'promoted', 'rejected'] as const;
export type CandidateStatus = (typeof candidateStatuses)[number];

const promotedSchema = lazySchema(() => z.object({conversation: z.string(), outcome: z.string(), nodes: z.array(z.string()), checkpoints: z.string()}));

/**
 * The frontmatter, in the order it is written: what the queue reads of every note first (who,
 * what state, when, the idempotence key), the short facts next, the long lists last.
 */
export const candidateNoteSchema = lazySchema(() => z.object({
	schema: z.literal(noteSchemaName),
	source: z.enum(sourceIds),
	native_id: z.string().check(z.minLength(1)),
	status: z.enum(candidateStatuses),
	tier: z.enum(['harvest', 'distilled']),
	harvested_at: z.string(),
	started: z.nullable(z.string()),
	ended: z.nullable(z.string()),
	source_sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
	source_bytes: z.number(),
	source_fingerprint: z.string(),
	source_digest: z.enum(['file', 'records']),
	source_path: z.string(),
	source_root: z.string(),
	source_key: z.optional(z.string()),
	project: z.nullable(z.string()),
	turns: z.number(),
	skipped_lines: z.number(),
	private_spans: z.number(),
	command_counts: commandCountsSchema,
	files_total: z.number(),
	/** The distiller, once a distillation was accepted. */
	model: z.nullable(z.string()),
	distilled_at: z.nullable(z.string()),
	/** The evidence window the distiller was served (`--max-turns`), so its citations can be shown again. */
	max_turns: z.nullable(z.number()),
	reviewed_at: z.nullable(z.string()),
	/** What promotion wrote: the graph nodes and the checkpoint file. */
	promoted: z.nullable(promotedSchema),
	first_request: z.nullable(firstRequestSchema),
	next: z.nullable(z.string()),
	files: z.array(fileFactSchema),
	commands: z.array(commandFactSchema),
	verified: z.array(claimSchema),
	failed: z.array(claimSchema),
	blockers: z.array(claimSchema),
	decided: z.array(claimSchema),
}));

export type CandidateNote = z.infer<typeof candidateNoteSchema>;

/** A harvest's note: facts, tier `harvest`, status `pending`, and no judgement. */
export function harvestedNote(facts: SessionFacts, harvestedAt: string): CandidateNote {
	return {
		schema: noteSchemaName,
		...facts,
		tier: 'harvest',
		status: 'pending',
		harvested_at: harvestedAt,
		model: null,
		distilled_at: null,
		max_turns: null,
		verified: [],
		failed: [],
		blockers: [],
		decided: [],
		next: null,
		reviewed_at: null,
		promoted: null,
	};
}

/** Where a person's own notes start; everything below it is kept when engi rewrites the note. */
export const reviewHeading = '## Review notes';

/** Characters YAML does not allow in a document (or reads as line breaks), which JSON leaves as they are. */
const yamlUnsafe = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u2028\u2029\uFEFF\uFFFE\uFFFF]/g;

/** A value as one line of JSON that YAML reads back as the same value. */
function yamlLine(value: unknown): string {
	return JSON.stringify(value).replaceAll(yamlUnsafe, character => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`);
}

export function renderNote(note: CandidateNote, reviewNotes = ''): string {
	const record = note as Record<string, unknown>;
	// In the schema's order, so a note reads the same way whatever built it.
	const frontmatter = Object.keys(candidateNoteSchema.shape)
		.filter(key => record[key] !== undefined)
		.map(key => `${key}: ${yamlLine(record[key])}`);
	return ['---', ...frontmatter, '---', '', renderNoteBody(note), reviewHeading, '', reviewNotes.trim() === '' ? '' : `${reviewNotes.trim()}\n`].join('\n');
}

export type ParsedNote =
	| {readonly note: CandidateNote; readonly reviewNotes: string}
	| {readonly problem: {readonly line: number | null; readonly message: string}};

type YamlParse = (text: string) => unknown;

/** engi's own frontmatter, one `key: <JSON>` a line; undefined as soon as a line is anything else. */
function readOwnLines(lines: readonly string[]): Record<string, unknown> | undefined {
	const data: Record<string, unknown> = {};
	for (const line of lines) {
		const match = /^([a-z\d_]+): (.+)$/.exec(line);
		if (!match || Object.hasOwn(data, match[1]!)) {
			return undefined;
		}

		try {
			data[match[1]!] = JSON.parse(match[2]!);
		} catch {
			return undefined;
		}
	}

	return data;
}

const needsParser = 'the frontmatter needs the YAML parser';

/** True when a note read without the YAML parser needs it: its frontmatter is not engi's own line format. */
export function needsYamlParser(parsed: ParsedNote): boolean {
	return 'problem' in parsed && parsed.problem.message === needsParser;
}

/**
 * Reads a note back. `yaml` parses frontmatter that is not engi's own line format (see
 * needsYaml); without it such a note is reported as needing it.
 */
export function parseNote(text: string, yaml?: YamlParse): ParsedNote {
	const split = splitFrontmatter(text);
	if (!split) {
		return {problem: {line: 1, message: 'no frontmatter (a note starts with a --- line and closes it with another)'}};
	}

	let data = readOwnLines(split.yaml.split('\n'));
	if (data === undefined) {
		if (!yaml) {
			return {problem: {line: null, message: needsParser}};
		}

		if (tooDeepYaml(split.yaml)) {
			return {problem: {line: split.yamlLine, message: `the frontmatter ${tooDeepForYaml}`}};
		}

		try {
			data = yaml(split.yaml) as Record<string, unknown>;
		} catch (error) {
			const line = (error as {linePos?: Array<{line: number}>}).linePos?.[0]?.line;
			return {problem: {line: line === undefined ? null : line + split.yamlLine - 1, message: 'the frontmatter is not valid YAML'}};
		}
	}

	const parsed = candidateNoteSchema.safeParse(data);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const key = issue?.path.map(String).join('.') || 'frontmatter';
		const keyLine = split.lines.findIndex((line, index) => index > 0 && line.startsWith(`${String(issue?.path[0] ?? '')}:`));
		return {problem: {line: keyLine === -1 ? null : keyLine + 1, message: `${key}: ${issue?.message ?? 'invalid'}`}};
	}

	const heading = split.body.split('\n').findIndex(line => line === reviewHeading);
	return {note: parsed.data, reviewNotes: heading === -1 ? '' : split.body.split('\n').slice(heading + 1).join('\n').trim()};
}

/**
 * What the queue reads of every note: the session, its state and times, and the transcript state
 * it was made from (the harvest's idempotence key). All of it is written at the top of a note.
 */
export type NoteSummary = Pick<CandidateNote, 'source' | 'native_id' | 'status' | 'harvested_at' | 'ended' | 'source_sha256' | 'source_bytes' | 'source_fingerprint'>;

const summaryKeys: ReadonlySet<string> = new Set(['source', 'native_id', 'status', 'harvested_at', 'ended', 'source_sha256', 'source_bytes', 'source_fingerprint']);

/** The summary, when every field of it is there and of its type. */
export function summaryOf(data: Record<string, unknown>): NoteSummary | undefined {
	const {source, native_id: nativeId, status, harvested_at: harvestedAt, ended, source_sha256: sha256, source_bytes: bytes, source_fingerprint: fingerprint} = data;
	const valid =
		typeof source === 'string' &&
		(sourceIds as readonly string[]).includes(source) &&
		typeof nativeId === 'string' &&
		nativeId !== '' &&
		typeof status === 'string' &&
		(candidateStatuses as readonly string[]).includes(status) &&
		typeof harvestedAt === 'string' &&
		(ended === null || typeof ended === 'string') &&
		typeof sha256 === 'string' &&
		/^[0-9a-f]{64}$/.test(sha256) &&
		typeof bytes === 'number' &&
		typeof fingerprint === 'string';
	return valid ? ({source, native_id: nativeId, status, harvested_at: harvestedAt, ended, source_sha256: sha256, source_bytes: bytes, source_fingerprint: fingerprint} as NoteSummary) : undefined;
}

/** Reads `key: <JSON>` lines from `from` on, at most `lines` of them, keeping the summary's keys; stops at anything else. */
function summaryLines(text: string, from: number, lines: number, data: Record<string, unknown>): void {
	let at = from;
	for (let count = 0; count < lines && at < text.length; count++) {
		const lineEnd = text.indexOf('\n', at);
		const stop = lineEnd === -1 ? text.length : lineEnd;
		const colon = text.indexOf(': ', at);
		if (colon === -1 || colon > stop) {
			return;
		}

		const key = text.slice(at, colon);
		if (summaryKeys.has(key) && !(key in data)) {
			try {
				data[key] = JSON.parse(text.slice(colon + 2, stop));
			} catch {}
		}

		at = stop + 1;
	}
}

/**
 * A note's summary, read from its own frontmatter lines alone (a queue of thousands is read this
 * way on every call, without a YAML parser or a whole-note check), or with the YAML parser for a
 * note a person reformatted. Undefined when the note does not say it; `needs_yaml` when it takes
 * a parser the caller has not loaded, `needs_text` when `text` (the start of the note) ends
 * before the summary does.
 */
export function readNoteSummary(text: string, options: {yaml?: YamlParse; whole: boolean}): NoteSummary | undefined | 'needs_yaml' | 'needs_text' {
	if (!text.startsWith('---\n')) {
		return undefined;
	}

	// engi writes the summary's lines first; a note whose keys were moved is searched for them.
	const data: Record<string, unknown> = {};
	summaryLines(text, 4, 16, data);
	const end = text.indexOf('\n---', 3);
	if (data['source_fingerprint'] === undefined) {
		const head = end === -1 ? text : text.slice(0, end);
		for (const key of summaryKeys) {
			const at = head.indexOf(`\n${key}: `);
			if (at !== -1) {
				summaryLines(head, at + 1, 1, data);
			}
		}
	}

	const own = summaryOf(data);
	if (own) {
		return own;
	}

	if (end === -1 && !options.whole) {
		return 'needs_text';
	}

	if (!options.yaml) {
		return 'needs_yaml';
	}

	const parsed = parseNote(text, options.yaml);
	return 'note' in parsed ? summaryOf(parsed.note) : undefined;
}

/** The yaml package's parser, loaded on demand (it costs ~100 ms to import). */
export async function loadYamlParser(): Promise<YamlParse> {
	const yaml = await import('yaml');
	// Bundled, the CommonJS package arrives as a default export only.
	const {parse} = yaml.default ?? yaml;
	return text => parse(text) as unknown;
}
