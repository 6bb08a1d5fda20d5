import {lstatSync, readdirSync, type Dirent} from 'node:fs';
import {basename, relative, sep} from 'node:path';
import * as z from 'zod/mini';
import {parse as parseYaml} from 'yaml';
import {systemErrorCode} from '../../lib/errors.js';
import {sha256Hex} from '../../lib/hash.js';
import {tooDeepForYaml, tooDeepYaml} from '../../lib/yaml-nesting.js';
import {keyLine, splitFrontmatter} from '../knowledge/frontmatter.js';
import {readStagedNote} from '../knowledge/inbox.js';
import {conflictBlock, conflictPathPattern} from './conflicts.js';

/** A scalar or a list of scalars: `tags: a` and `tags: [a, b]` say the same thing. */
const scalarOrList = z.optional(z.nullable(z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()]))])));
const optionalText = z.optional(z.nullable(z.union([z.string(), z.number()])));

/** A wiki page's frontmatter: every key optional (a page may have none), each of a known shape. */
export const wikiFrontmatterSchema = z.looseObject({
	id: optionalText,
	node_id: optionalText,
	title: optionalText,
	kind: optionalText,
	status: optionalText,
	tags: scalarOrList,
	sources: scalarOrList,
	related: scalarOrList,
});

export const wikiSkippedSchema = z.object({path: z.string(), reason: z.enum(['symlink', 'not_a_regular_file', 'unreadable'])});
export type WikiSkipped = z.infer<typeof wikiSkippedSchema>;

/** What one file under the wiki folder is, before the pages are compared with each other. */
export type WikiFile =
	| {readonly type: 'page'; readonly path: string; readonly sha256: string; readonly page: ParsedPage}
	| {readonly type: 'invalid'; readonly path: string; readonly sha256: string; readonly reasons: Array<{line: number | null; message: string}>}
	| {readonly type: 'held'; readonly path: string; readonly sha256: string; readonly nodeId: string | null; readonly reason: 'conflict_markers' | 'conflict_path'; readonly detail: string}
	/** A file whose bytes hash as the caller already knows them: not parsed again. */
	| {readonly type: 'known'; readonly path: string; readonly sha256: string};

export type ParsedPage = {
	readonly id: string;
	readonly title: string;
	readonly kind: string | null;
	readonly status: string | null;
	readonly tags: string[];
	readonly sources: Array<{ref: string; line: number}>;
	readonly related: Array<{ref: string; line: number}>;
	/** `[[target]]` and `[[target|text]]` in the body, with their lines. */
	readonly links: Array<{ref: string; line: number}>;
	readonly body: string;
};

const list = (value: z.infer<typeof scalarOrList>): string[] => (value === null || value === undefined ? [] : (Array.isArray(value) ? value : [value]).map(item => String(item).trim()).filter(Boolean));
const text = (value: z.infer<typeof optionalText>): string | null => (value === null || value === undefined || String(value).trim() === '' ? null : String(value).trim());

/** The id a page takes when its frontmatter names none: its path under the wiki, without `.md`. */
export function defaultPageId(path: string): string {
	return `wiki:${path.replace(/\.md$/i, '')}`;
}

/**
 * The id a file claims, read without parsing its YAML (a conflicted file may not parse): the
 * first `id:` or `node_id:` line of its frontmatter.
 */
function claimedId(raw: string): string | null {
	const note = splitFrontmatter(raw);
	const line = note?.yaml.split('\n').find(candidate => /^(?:id|node_id)\s*:/.test(candidate));
	const value = line?.replace(/^(?:id|node_id)\s*:\s*/, '').trim().replace(/^(['"])(.*)\1$/, '$2');
	return value ? value : null;
}

/** Reads one file as a page: conflict checks first, then frontmatter, then the links in its body. */
export function readWikiFile(path: string, raw: string, conflictPaths: readonly string[]): WikiFile {
	const sha256 = sha256Hex(raw);
	const pattern = conflictPathPattern(basename(path), conflictPaths);
	if (pattern !== undefined) {
		return {type: 'held', path, sha256, nodeId: claimedId(raw), reason: 'conflict_path', detail: `the file name matches ${pattern}`};
	}

	const block = conflictBlock(raw);
	if (block) {
		return {type: 'held', path, sha256, nodeId: claimedId(raw) ?? defaultPageId(path), reason: 'conflict_markers', detail: `a merge conflict block at lines ${block.start}-${block.end}`};
	}

	const note = splitFrontmatter(raw);
	let data: unknown = {};
	if (note && tooDeepYaml(note.yaml)) {
		return {type: 'invalid', path, sha256, reasons: [{line: note.yamlLine, message: `frontmatter ${tooDeepForYaml}`}]};
	}

	if (note) {
		try {
			data = parseYaml(note.yaml) ?? {};
		} catch (error) {
			const line = error && typeof error === 'object' && 'linePos' in error ? (error as {linePos?: Array<{line: number}>}).linePos?.[0]?.line : undefined;
			return {type: 'invalid', path, sha256, reasons: [{line: line === undefined ? null : note.yamlLine + line - 1, message: 'frontmatter is not valid YAML'}]};
		}
	}

	const parsed = wikiFrontmatterSchema.safeParse(data);
	if (!parsed.success) {
		return {
			type: 'invalid',
			path,
			sha256,
			reasons: parsed.error.issues.map(issue => {
				const key = String(issue.path[0] ?? '');
				return {line: key && note ? keyLine(note, key) : 1, message: `${key || 'frontmatter'}: ${key ? 'must be text or a list of text' : 'must be a mapping of keys to values'}`};
			}),
		};
	}

	const frontmatter = parsed.data;
	const id = text(frontmatter.id) ?? text(frontmatter.node_id) ?? defaultPageId(path);
	const body = note ? note.body : raw.trim();
	// Links are looked for in the lines after the frontmatter, so each keeps its line in the file.
	const lines = raw.split(/\r?\n/);
	const bodyFrom = note ? lines.findIndex((line, index) => index > 0 && (line.trim() === '---' || line.trim() === '...')) + 1 : 0;
	const refs = (key: 'sources' | 'related') => list(frontmatter[key]).map(ref => ({ref, line: note ? keyLine(note, key) : 1}));
	return {
		type: 'page',
		path,
		sha256,
		page: {
			id,
			title: text(frontmatter.title) ?? /^#\s+(.+)$/m.exec(body)?.[1]?.trim() ?? basename(path).replace(/\.md$/i, ''),
			kind: text(frontmatter.kind),
			status: text(frontmatter.status),
			tags: list(frontmatter.tags),
			sources: refs('sources'),
			related: refs('related'),
			links: wikiLinks(lines, bodyFrom),
			body,
		},
	};
}

/** `[[target]]`, `[[target|shown text]]` and `[[target#section]]`: the target, with its line. */
function wikiLinks(lines: readonly string[], from: number): Array<{ref: string; line: number}> {
	const links: Array<{ref: string; line: number}> = [];
	for (let index = from; index < lines.length; index++) {
		for (const match of lines[index]!.matchAll(/\[\[([^\]|#\n]+)(?:[#|][^\]\n]*)?\]\]/g)) {
			links.push({ref: match[1]!.trim(), line: index + 1});
		}
	}

	return links;
}

/** A file's size, times and inode as listed: when all are as a sync recorded them, its bytes are too. */
export type FileStamp = {readonly size: number; readonly mtimeMs: number; readonly ctimeMs: number; readonly ino: number};

/** Files whose bytes the caller knows, with the settled stamp each had then (null when it had none). */
export type KnownFiles = ReadonlyMap<string, {readonly sha256: string; readonly stamp: FileStamp | null}>;

/** How long after a write a file's times are trusted to show any further write: well over a file system clock tick. */
const settling = 2000;

export function sameStamp(a: FileStamp | null | undefined, b: FileStamp | null | undefined): boolean {
	if (a === b) {
		return true;
	}

	return a !== null && a !== undefined && b !== null && b !== undefined && a.size === b.size && a.mtimeMs === b.mtimeMs && a.ctimeMs === b.ctimeMs && a.ino === b.ino;
}

/**
 * Every file under the wiki folder, in path order, read as a page or held. Symlinks are never
 * followed (a link is skipped, so the wiki cannot reach outside itself or loop); a file that is
 * not Markdown is looked at only when its name marks a sync-conflict copy. A file `known` knows
 * is listed as known, without parsing it, when its bytes hash the same, or without reading it
 * when its stamp is the one recorded (a stamp is recorded only once its times are settled, so a
 * write in the same clock tick as the read cannot hide behind it). Each file read comes back in
 * `stamps` with its stamp when settled as of `now`, else null; a file known by its stamp is not
 * there (its stamp is as recorded).
 */
export function listWiki(wiki: string, root: string, conflictPaths: readonly string[], now: number, known?: KnownFiles): {files: WikiFile[]; skipped: WikiSkipped[]; stamps: Map<string, FileStamp | null>} {
	const files: WikiFile[] = [];
	const stamps = new Map<string, FileStamp | null>();
	const skipped: WikiSkipped[] = [];
	// `under` is the directory's path under the wiki, so a file's is joined, not worked out again (path.relative is slow).
	const visit = (directory: string, under: string) => {
		let entries: Dirent[];
		try {
			entries = readdirSync(directory, {withFileTypes: true});
		} catch (error) {
			if (systemErrorCode(error) !== 'ENOENT' || directory !== wiki) {
				skipped.push({path: relative(root, directory), reason: 'unreadable'});
			}

			return;
		}

		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		// Indexed: this runs once a file, mostly before the JIT has compiled it, where for-of walks an iterator.
		for (let index = 0; index < entries.length; index++) {
			const entry = entries[index]!;
			// Joined by hand: the directory is already a clean path, and path.join costs a third of a stat.
			const path = `${directory}${sep}${entry.name}`;
			const relevant = /\.md$/i.test(entry.name) || conflictPathPattern(entry.name, conflictPaths) !== undefined;
			if (entry.isDirectory()) {
				visit(path, `${under}${entry.name}${sep}`);
			} else if (!relevant) {
				continue;
			} else if (entry.isSymbolicLink()) {
				skipped.push({path: relative(root, path), reason: 'symlink'});
			} else if (entry.isFile()) {
				const name = `${under}${entry.name}`;
				const before = known?.get(name);
				// Stamped before reading: a write in between makes the next sync read the file again.
				const stats = lstatSync(path, {throwIfNoEntry: false});
				if (stats !== undefined && before?.stamp && sameStamp(before.stamp, stats)) {
					files.push({type: 'known', path: name, sha256: before.sha256});
					continue;
				}

				const stamp = stats === undefined ? undefined : {size: stats.size, mtimeMs: stats.mtimeMs, ctimeMs: stats.ctimeMs, ino: stats.ino};

				// Opened without following a symlink: a file swapped for one after the listing is not read through it.
				const raw = readStagedNote({listed: path, file: path});
				if (raw === undefined) {
					skipped.push({path: relative(root, path), reason: 'unreadable'});
				} else {
					const sha256 = before === undefined ? undefined : sha256Hex(raw);
					stamps.set(name, stamp !== undefined && Math.max(stamp.mtimeMs, stamp.ctimeMs) < now - settling ? stamp : null);
					files.push(sha256 !== undefined && before?.sha256 === sha256 ? {type: 'known', path: name, sha256} : readWikiFile(name, raw, conflictPaths));
				}
			} else {
				skipped.push({path: relative(root, path), reason: 'not_a_regular_file'});
			}
		}
	};

	visit(wiki, '');
	return {files, skipped, stamps};
}
