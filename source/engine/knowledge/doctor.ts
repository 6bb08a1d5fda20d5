import {existsSync, readFileSync, statSync} from 'node:fs';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, type ExitCode} from '../../lib/errors.js';
import {catalogPath, deleteCatalog} from '../catalog/open.js';
import {isLocation} from '../graph/kinds.js';
import {isEdgeLive, replayInMemory} from '../graph/replay.js';
import {openIndexReadOnly, readWatermark, setAsideIndexes} from '../index/open.js';
import {indexMigrations} from '../index/schema.js';
import {onlyGrew, statUnchanged} from '../index/watermark.js';
import {eventId} from '../journal/canonical.js';
import {countQuarantined} from '../journal/quarantine.js';
import {countedLines, scanJournal} from '../journal/scan.js';
import {gitattributesLine} from '../kb/init.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {interruptedAmong} from '../retention/log.js';
import {integrityProblems, isCorruptDatabase, openReadOnlyInPlace, schemaVersion, type Database} from '../../lib/sqlite.js';
import {canonicalUtc} from '../../lib/time.js';

export const doctorOutputSchema = z.object({
	/** Null where there is no knowledge base to check (only the session catalog is). */
	root: z.nullable(z.string()),
	checks: z.array(z.object({name: z.string(), ok: z.boolean(), severity: z.enum(['ok', 'warning', 'corruption']), detail: z.string()})),
	exit_code: z.number(),
});

export type DoctorOutput = z.infer<typeof doctorOutputSchema>;
type Check = DoctorOutput['checks'][number];

const ok = (name: string, detail: string): Check => ({name, ok: true, severity: 'ok', detail});
const warn = (name: string, detail: string): Check => ({name, ok: false, severity: 'warning', detail});
const corrupt = (name: string, detail: string): Check => ({name, ok: false, severity: 'corruption', detail});

/** What says there is no knowledge base to check: none configured, or none at the root given. */
const noKnowledgeBase: ReadonlySet<string> = new Set(['root_not_configured', 'kb_not_initialized']);

const exitCodeOf = (checks: readonly Check[]): ExitCode => (checks.some(check => check.severity === 'corruption') ? 2 : checks.some(check => check.severity === 'warning') ? 1 : 0);

/**
 * Checks a knowledge base and changes nothing in it: it reads the journal itself rather than
 * through the writer, and opens the index read-only. Outside it, a damaged session catalog (a
 * cache) is deleted, so the next call builds it again. Exit 0 clean, 1 warnings, 2 corruption.
 * Where `locate` finds no knowledge base, the catalog is checked all the same, and the missing
 * knowledge base is a warning.
 */
export function runDoctor(locate: () => KbPaths, deps: Deps): {output: DoctorOutput; exitCode: ExitCode} {
	let paths: KbPaths;
	try {
		paths = locate();
		requireKnowledgeBase(paths);
	} catch (error) {
		if (!(error instanceof EngiError && noKnowledgeBase.has(error.code))) {
			throw error;
		}

		const checks = [warn('knowledge-base', `${error.message}; only the session catalog was checked`), checkCatalog(deps)];
		return {output: {root: null, checks, exit_code: exitCodeOf(checks)}, exitCode: exitCodeOf(checks)};
	}

	const checks: Check[] = [];
	const scan = scanJournal(paths.journal);
	const badLines = scan.corrupt.map(line => line.line);
	checks.push(
		badLines.length === 0
			? ok('journal-valid', `${scan.events.length} events${scan.unterminatedTail ? `; line ${scan.unterminatedTail.line} lacks its newline` : ''}`)
			: corrupt('journal-valid', `lines that do not parse: ${countedLines(badLines)}; a writing command (or engi index rebuild) moves them to .engi/quarantine`),
	);

	// What git leaves when it merges two copies of the journal without merge=union.
	const markers = scan.corrupt.filter(line => line.reason === 'merge_conflict_marker').map(line => line.line);
	const runTogether = scan.corrupt.filter(line => line.reason === 'interleaved_events').map(line => line.line);
	if (markers.length > 0 || runTogether.length > 0) {
		const found = [...(markers.length > 0 ? [`conflict markers: ${countedLines(markers)}`] : []), ...(runTogether.length > 0 ? [`events run together: ${countedLines(runTogether)}`] : [])];
		checks.push(
			corrupt(
				'journal-merge',
				`git merged copies of the journal without merge=union: ${found.join('; ')}. The events on both sides are kept; a writing command (or engi index rebuild) moves these lines to .engi/quarantine; add ".engi/journal.jsonl merge=union" to .gitattributes (engi init --git writes it)`,
			),
		);
	}

	const mismatched = scan.events.filter(({event}) => event.id !== eventId(event.op, event.payload)).map(({line}) => line);
	checks.push(
		mismatched.length === 0
			? ok('event-ids', 'every event id is the hash of its content')
			: warn('event-ids', `ids that are not the content hash (hand-written or edited lines): ${countedLines(mismatched)}`),
	);

	const quarantine = countQuarantined(paths);
	checks.push(
		quarantine.unreadable.length > 0
			? warn('quarantine-empty', `unreadable quarantine files: ${quarantine.unreadable.join(', ')}`)
			: quarantine.lines === 0
				? ok('quarantine-empty', 'no quarantined lines')
				: warn('quarantine-empty', `${quarantine.lines} quarantined lines in ${quarantine.files.join(', ')}; inspect and re-append what is worth keeping`),
	);

	checks.push(...checkIndex(paths), checkCatalog(deps));

	const now = canonicalUtc(deps.now());
	const {nodes, edges} = replayInMemory(scan.events);
	const dangling = edges
		.filter(edge => isEdgeLive(edge, now))
		.filter(edge => !nodes.has(edge.from) || (!nodes.has(edge.to) && !isLocation(edge.to)))
		.map(edge => `line ${edge.line} ${edge.from} -${edge.type}-> ${edge.to}`);
	checks.push(dangling.length === 0 ? ok('ref-integrity', `${edges.length} edges, every live endpoint exists`) : corrupt('ref-integrity', `dangling edges: ${dangling.slice(0, 10).join('; ')}${dangling.length > 10 ? ` and ${dangling.length - 10} more` : ''}`));

	const interrupted = interruptedAmong(nodes);
	checks.push(
		interrupted.length === 0
			? ok('retention-interrupted', 'every purge attempt ended with a receipt or a failure')
			: warn('retention-interrupted', `${interrupted.length} purge attempt${interrupted.length === 1 ? '' : 's'} never finished (the process died, or is still running): ${interrupted.slice(0, 5).map(attempt => `${attempt.source} ${attempt.session_id}`).join(', ')}${interrupted.length > 5 ? ', …' : ''}; engi retention sweep (or retention purge <id> --execute) finishes them safely`),
	);

	const attributes = existsSync(paths.gitattributes) ? readFileSync(paths.gitattributes, 'utf8') : '';
	checks.push(
		attributes.split(/\r?\n/).some(line => line.trim() === gitattributesLine)
			? ok('gitattributes', 'journal merges with merge=union')
			: warn('gitattributes', `.gitattributes lacks "${gitattributesLine}"; concurrent git edits of the journal would conflict (engi init adds it)`),
	);

	const exitCode = exitCodeOf(checks);
	return {output: {root: paths.root, checks, exit_code: exitCode}, exitCode};
}

const describe = (error: unknown) => (error instanceof Error ? error.message : 'error');

/**
 * The index, checked where it lies and read-only: SQLite's full integrity check (which no other
 * command pays for), then whether it is of this version and how far it has read the journal.
 * An index that only has new lines to apply is healthy: the next read applies them.
 */
function checkIndex(paths: KbPaths): Check[] {
	const aside = setAsideIndexes(paths);
	const asideNote = aside.length === 0 ? '' : `; indexes set aside after damage, safe to delete once inspected: ${aside.join(', ')}`;
	let db: Database | undefined;
	try {
		db = openIndexReadOnly(paths);
	} catch (error) {
		return [warn('index-integrity', `index cannot be opened (${describe(error)}); the next command that reads it moves it aside and rebuilds it from the journal${asideNote}`), warn('index-fresh', 'not checked: the index cannot be opened')];
	}

	if (!db) {
		const none = 'no index yet; the next read builds it';
		return [aside.length === 0 ? ok('index-integrity', none) : warn('index-integrity', `${none}${asideNote}`), ok('index-fresh', none)];
	}

	try {
		return [checkIntegrity(db, asideNote), checkFresh(db, paths)];
	} finally {
		db.close();
	}
}

function checkIntegrity(db: Database, asideNote: string): Check {
	let problems: string[];
	try {
		problems = integrityProblems(db, 10);
	} catch (error) {
		problems = [describe(error)];
	}

	if (problems.length !== 1 || problems[0] !== 'ok') {
		return warn('index-integrity', `index fails SQLite's integrity check (${problems.slice(0, 3).join('; ')}); engi index rebuild moves it aside and builds a new one from the journal${asideNote}`);
	}

	return asideNote === '' ? ok('index-integrity', 'SQLite integrity check passed') : warn('index-integrity', `SQLite integrity check passed${asideNote}`);
}

function checkFresh(db: Database, paths: KbPaths): Check {
	try {
		const version = schemaVersion(db);
		if (version !== indexMigrations.at(-1)!.version) {
			return warn('index-fresh', `index schema ${version} is out of date; the next read rebuilds it`);
		}

		const mark = readWatermark(db);
		const stats = existsSync(paths.journal) ? statSync(paths.journal) : undefined;
		if (statUnchanged(mark, stats)) {
			return ok('index-fresh', 'index matches the journal');
		}

		if (mark && stats && onlyGrew(paths.journal, mark, stats)) {
			return ok('index-fresh', `the journal has ${stats.size - mark.bytes} bytes the index has not read yet; the next read applies them`);
		}

		return warn('index-fresh', 'the journal was rewritten since the index was built; the next read rebuilds the index');
	} catch (error) {
		return warn('index-fresh', `index cannot be read (${describe(error)}); the next command that reads it moves it aside and rebuilds it from the journal`);
	}
}

/**
 * The session catalog, in the user's cache: SQLite's full integrity check, the only check that
 * sees some bytes damaged in the middle of a page (a row an index no longer finds: a session
 * missing from a listing). Every other call notices only damage SQLite meets on the pages it
 * reads, or JSON that no longer parses, and rebuilds then. A damaged catalog is deleted, as
 * those calls do: it holds nothing the stores cannot give again. Text damaged in a row that
 * still parses is seen by nothing: SQLite keeps no checksum of a row.
 */
function checkCatalog(deps: Deps): Check {
	const path = catalogPath(deps);
	if (!existsSync(path)) {
		return ok('catalog-integrity', 'no session catalog yet; the next listing builds it');
	}

	let problems: string[];
	try {
		const db = openReadOnlyInPlace(path);
		try {
			problems = integrityProblems(db, 10);
		} finally {
			db.close();
		}
	} catch (error) {
		if (!isCorruptDatabase(error)) {
			return warn('catalog-integrity', `the session catalog ${path} cannot be checked (${describe(error)})`);
		}

		problems = [describe(error)];
	}

	if (problems.length === 1 && problems[0] === 'ok') {
		return ok('catalog-integrity', 'SQLite integrity check passed');
	}

	const found = `the session catalog ${path} fails SQLite's integrity check (${problems.slice(0, 3).join('; ')})`;
	try {
		deleteCatalog(deps);
	} catch (error) {
		return warn('catalog-integrity', `${found}; it could not be deleted (${systemErrorCode(error) ?? 'error'}): delete it by hand, the next call builds it again`);
	}

	return warn('catalog-integrity', `${found}; deleted it: the next call reads every session again`);
}
