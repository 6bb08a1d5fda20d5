import {existsSync, readFileSync, statSync} from 'node:fs';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import type {ExitCode} from '../errors.js';
import {isLocation} from '../graph/kinds.js';
import {isEdgeLive, replayInMemory} from '../graph/replay.js';
import {openIndexCopy, readWatermark, requireKnowledgeBase} from '../index/open.js';
import {indexMigrations} from '../index/schema.js';
import {statUnchanged} from '../index/watermark.js';
import {eventId} from '../journal/canonical.js';
import {countQuarantined} from '../journal/quarantine.js';
import {scanJournal} from '../journal/scan.js';
import {gitattributesLine} from '../kb/init.js';
import type {KbPaths} from '../kb/paths.js';
import {canonicalUtc} from '../util/time.js';

export const doctorOutputSchema = z.object({
	root: z.string(),
	checks: z.array(z.object({name: z.string(), ok: z.boolean(), severity: z.enum(['ok', 'warning', 'corruption']), detail: z.string()})),
	exit_code: z.number(),
});

export type DoctorOutput = z.infer<typeof doctorOutputSchema>;
type Check = DoctorOutput['checks'][number];

const ok = (name: string, detail: string): Check => ({name, ok: true, severity: 'ok', detail});
const warn = (name: string, detail: string): Check => ({name, ok: false, severity: 'warning', detail});
const corrupt = (name: string, detail: string): Check => ({name, ok: false, severity: 'corruption', detail});

function listLines(lines: readonly number[]): string {
	return lines.length <= 10 ? lines.join(', ') : `${lines.slice(0, 10).join(', ')} and ${lines.length - 10} more`;
}

/**
 * Checks a knowledge base and changes nothing: it reads the journal itself rather than through
 * the writer, and opens the index read-only. Exit 0 clean, 1 warnings, 2 corruption.
 */
export function runDoctor(paths: KbPaths, deps: Deps): {output: DoctorOutput; exitCode: ExitCode} {
	requireKnowledgeBase(paths);
	const checks: Check[] = [];
	const scan = scanJournal(paths.journal);
	const badLines = scan.corrupt.map(line => line.line);
	checks.push(
		badLines.length === 0
			? ok('journal-valid', `${scan.events.length} events${scan.unterminatedTail ? `; line ${scan.unterminatedTail.line} lacks its newline` : ''}`)
			: corrupt('journal-valid', `lines that do not parse: ${listLines(badLines)}; a writing command (or engi index rebuild) moves them to .engi/quarantine`),
	);

	const mismatched = scan.events.filter(({event}) => event.id !== eventId(event.op, event.payload)).map(({line}) => line);
	checks.push(
		mismatched.length === 0
			? ok('event-ids', 'every event id is the hash of its content')
			: warn('event-ids', `ids that are not the content hash (hand-written or edited lines): ${listLines(mismatched)}`),
	);

	const quarantine = countQuarantined(paths);
	checks.push(
		quarantine.unreadable.length > 0
			? warn('quarantine-empty', `unreadable quarantine files: ${quarantine.unreadable.join(', ')}`)
			: quarantine.lines === 0
				? ok('quarantine-empty', 'no quarantined lines')
				: warn('quarantine-empty', `${quarantine.lines} quarantined lines in ${quarantine.files.join(', ')}; inspect and re-append what is worth keeping`),
	);

	checks.push(checkIndex(paths));

	const now = canonicalUtc(deps.now());
	const {nodes, edges} = replayInMemory(scan.events);
	const dangling = edges
		.filter(edge => isEdgeLive(edge, now))
		.filter(edge => !nodes.has(edge.from) || (!nodes.has(edge.to) && !isLocation(edge.to)))
		.map(edge => `line ${edge.line} ${edge.from} -${edge.type}-> ${edge.to}`);
	checks.push(dangling.length === 0 ? ok('ref-integrity', `${edges.length} edges, every live endpoint exists`) : corrupt('ref-integrity', `dangling edges: ${dangling.slice(0, 10).join('; ')}${dangling.length > 10 ? ` and ${dangling.length - 10} more` : ''}`));

	const attributes = existsSync(paths.gitattributes) ? readFileSync(paths.gitattributes, 'utf8') : '';
	checks.push(
		attributes.split(/\r?\n/).some(line => line.trim() === gitattributesLine)
			? ok('gitattributes', 'journal merges with merge=union')
			: warn('gitattributes', `.gitattributes lacks "${gitattributesLine}"; concurrent git edits of the journal would conflict (engi init adds it)`),
	);

	const exitCode: ExitCode = checks.some(check => check.severity === 'corruption') ? 2 : checks.some(check => check.severity === 'warning') ? 1 : 0;
	return {output: {root: paths.root, checks, exit_code: exitCode}, exitCode};
}

function checkIndex(paths: KbPaths) {
	let copy;
	try {
		copy = openIndexCopy(paths);
	} catch (error) {
		return warn('index-fresh', `index cannot be opened (${error instanceof Error ? error.message : 'error'}); engi index rebuild recreates it`);
	}

	if (!copy) {
		return ok('index-fresh', 'no index yet; the next read builds it');
	}

	const {db} = copy;
	try {
		const version = db.pragma('user_version', {simple: true}) as number;
		if (version !== indexMigrations.at(-1)!.version) {
			return warn('index-fresh', `index schema ${version} is out of date; the next read rebuilds it`);
		}

		const stats = existsSync(paths.journal) ? statSync(paths.journal) : undefined;
		return statUnchanged(readWatermark(db), stats) ? ok('index-fresh', 'index matches the journal') : warn('index-fresh', 'index is behind the journal; the next read refreshes it');
	} catch (error) {
		return warn('index-fresh', `index cannot be read (${error instanceof Error ? error.message : 'error'}); engi index rebuild recreates it`);
	} finally {
		copy.close();
	}
}
