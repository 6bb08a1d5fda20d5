import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {SourceAdapter, SourceId} from '../../adapters/types.js';
import type {CatalogRow} from '../catalog/scan.js';
import {unitOfRow} from '../catalog/unit-of-row.js';
import {walkRows} from '../conversation/rows.js';
import type {Database} from '../../lib/sqlite.js';
import {digestKind, fileDigest, recordsDigester, type SourceDigest} from './digest.js';
import {onlyPrivate} from './private-spans.js';
import {createRedactor, type Redaction} from './redactor.js';
import {createTurnBuilder, type ToolTurn, type Turn} from './turns.js';

export const toolStatuses = ['ok', 'failed', 'no_result'] as const;

export const fileFactSchema = lazySchema(() => z.object({path: z.string(), turn: z.number()}));
export const commandFactSchema = lazySchema(() => z.object({command: z.string(), status: z.enum(toolStatuses), exit_code: z.nullable(z.number()), turn: z.number()}));
export const commandCountsSchema = lazySchema(() => z.object({ok: z.number(), failed: z.number(), no_result: z.number()}));
export const firstRequestSchema = lazySchema(() => z.object({turn: z.number(), line: z.number(), text: z.string()}));

export type CommandCounts = z.infer<typeof commandCountsSchema>;

/**
 * What a session mechanically shows, every value masked: where it is and what it was pinned by,
 * its times and size, the first request a person typed (quoted, host text never counts), the
 * files its tools wrote and the commands it ran with how each ended. Nothing here is a claim:
 * what was verified, what failed and what comes next take judgement, which a harvest leaves to
 * a distiller and the citation filter.
 */
export type SessionFacts = {
	source: SourceId;
	native_id: string;
	source_path: string;
	/** The store root it was found under, so evidence reads exactly this store again. */
	source_root: string;
	/** The catalog's key for a session that is not a file of its own (`<database>#<id>`). */
	source_key?: string;
	source_sha256: string;
	source_bytes: number;
	source_digest: SourceDigest['kind'];
	/** The file's size, time and inode when read: an unchanged fingerprint needs no hash to be recognised. */
	source_fingerprint: string;
	project: string | null;
	started: string | null;
	ended: string | null;
	turns: number;
	skipped_lines: number;
	private_spans: number;
	first_request: z.infer<typeof firstRequestSchema> | null;
	files: Array<z.infer<typeof fileFactSchema>>;
	files_total: number;
	/** The last commands run (at most `keptCommands`); the counts cover every one. */
	commands: Array<z.infer<typeof commandFactSchema>>;
	command_counts: CommandCounts;
};

const limits = {firstRequest: 1200, path: 300, command: 300, keptFiles: 200, keptCommands: 100};

export type FactsRead = {readonly facts: SessionFacts; readonly redactions: Redaction[]; readonly warnings: string[]};

/**
 * Reads one catalogued session for its facts. `known` says whether a digest is one a note
 * already holds: a file session is hashed before it is parsed, so an unchanged one costs a read
 * of its bytes and nothing more.
 */
export function readSessionFacts(db: Database, row: CatalogRow, adapter: SourceAdapter, known: (digest: SourceDigest) => boolean): FactsRead | 'unchanged' {
	const unit = unitOfRow(row);
	const kind = digestKind(adapter, unit);
	const fileHash = kind === 'file' ? fileDigest(unit.path) : undefined;
	if (fileHash && known(fileHash)) {
		return 'unchanged';
	}

	const records = kind === 'records' ? recordsDigester() : undefined;
	let firstHuman: Turn | undefined;
	let privateSpans = 0;
	const files = new Map<string, Turn>();
	let filesTotal = 0;
	const commands: Array<{turn: Turn; tool: ToolTurn}> = [];
	const tools: ToolTurn[] = [];
	const builder = createTurnBuilder({
		abandoned: row.summary.abandoned ?? [],
		onTurn(turn) {
			privateSpans += turn.privateSpans;
			if (turn.kind === 'user' && turn.author === 'human' && firstHuman === undefined && !onlyPrivate(turn.text)) {
				firstHuman = turn;
			}

			const tool = turn.tool;
			if (!tool) {
				return;
			}

			for (const path of tool.files) {
				if (!files.has(path)) {
					filesTotal++;
					if (files.size < limits.keptFiles) {
						files.set(path, turn);
					}
				}
			}

			if (tool.command !== undefined) {
				tools.push(tool);
				commands.push({turn, tool});
				if (commands.length > limits.keptCommands) {
					commands.shift();
				}
			}
		},
	});
	const walk = walkRows(db, adapter, unit, {fromLine: 1}, current => {
		records?.add(current);
		for (const event of current.events) {
			builder.add(event);
		}
	});
	const digest = fileHash ?? records!.finish();
	if (records && known(digest)) {
		return 'unchanged';
	}

	const redactor = createRedactor();
	const counts: CommandCounts = {ok: 0, failed: 0, no_result: 0};
	for (const tool of tools) {
		counts[tool.status]++;
	}

	const maskPlain = (text: string, field: string) => redactor.clip(text, 4096, {field, line: null}, {oneLine: true});
	const facts: SessionFacts = {
		source: adapter.id,
		native_id: row.summary.id ?? row.key,
		source_path: maskPlain(row.path, 'source_path'),
		source_root: maskPlain(row.root, 'source_root'),
		...(row.key === row.path ? {} : {source_key: maskPlain(row.key, 'source_key')}),
		source_sha256: digest.sha256,
		source_bytes: digest.bytes,
		source_digest: digest.kind,
		source_fingerprint: row.fingerprint,
		project: row.summary.project === null ? null : maskPlain(row.summary.project, 'project'),
		started: row.summary.started,
		ended: row.summary.modified,
		turns: builder.count(),
		skipped_lines: row.format === 'jsonl' ? walk.skippedLines.length : row.skipped,
		private_spans: privateSpans,
		first_request: firstHuman ? {turn: firstHuman.n, line: firstHuman.line, text: redactor.clip(firstHuman.text.trim(), limits.firstRequest, {field: 'first_request', line: firstHuman.line})} : null,
		files: [...files].map(([path, turn]) => ({path: redactor.clip(path, limits.path, {field: 'files', line: turn.line}, {oneLine: true}), turn: turn.n})),
		files_total: filesTotal,
		commands: commands.map(({turn, tool}) => ({command: redactor.clip(tool.command!, limits.command, {field: 'commands', line: turn.line}, {oneLine: true}), status: tool.status, exit_code: tool.exitCode, turn: turn.n})),
		command_counts: counts,
	};
	return {facts, redactions: redactor.found, warnings: walk.warnings};
}
