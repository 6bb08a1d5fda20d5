import {closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readlinkSync, realpathSync} from 'node:fs';
import {basename, dirname, join, relative, resolve, sep} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {canonicalJson} from '../journal/canonical.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import {writeFileAtomic} from '../../lib/atomic.js';
import {sha256Hex, sha256OfDescriptor} from '../../lib/hash.js';
import {belongsTo} from './add.js';
import {storeDescriptor} from './store.js';

export const addTreeOutputSchema = z.object({
	node_id: z.string(),
	/** sha256 over the sorted files (path, bytes, sha256) and symlinks (path, target). */
	tree_sha256: z.string(),
	files: z.number(),
	symlinks: z.number(),
	/** Entries that are neither files, directories nor symlinks (sockets, devices), or could not be read. */
	skipped: z.array(z.object({path: z.string(), reason: z.string()})),
	source_bytes: z.number(),
	manifest_sha256: z.string(),
	manifest_path: z.string(),
	/** The manifest's copy in the artifact store, relative to the knowledge base root. */
	stored_path: z.string(),
	/** The tree's bytes are not copied: the manifest proves what was there. */
	metadata_only: z.literal(true),
	appended: z.boolean(),
	project: z.nullable(z.string()),
});

export type AddTreeOutput = z.infer<typeof addTreeOutputSchema>;

type Walked = {
	files: Array<{path: string; bytes: number; sha256: string}>;
	symlinks: Array<{path: string; target: string}>;
	skipped: Array<{path: string; reason: string}>;
};

/** Every entry under a directory, sorted by relative path; links are recorded, never followed. */
function walkTree(directory: string): Walked {
	const walked: Walked = {files: [], symlinks: [], skipped: []};
	const relativeOf = (path: string) => relative(directory, path).split(sep).join('/');
	const visit = (absolute: string) => {
		let names: string[];
		try {
			names = readdirSync(absolute);
		} catch (error) {
			walked.skipped.push({path: relativeOf(absolute), reason: `unreadable (${systemErrorCode(error) ?? 'error'})`});
			return;
		}

		for (const name of names.sort()) {
			const path = join(absolute, name);
			const rel = relativeOf(path);
			const stats = lstatSync(path);
			if (stats.isSymbolicLink()) {
				walked.symlinks.push({path: rel, target: readlinkSync(path)});
			} else if (stats.isDirectory()) {
				visit(path);
			} else if (stats.isFile()) {
				const file = hashFile(path);
				if (file) {
					walked.files.push({path: rel, ...file});
				} else {
					walked.skipped.push({path: rel, reason: 'changed or vanished while it was read'});
				}
			} else {
				walked.skipped.push({path: rel, reason: 'not a regular file'});
			}
		}
	};

	visit(directory);
	const byPath = (a: {path: string}, b: {path: string}) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
	walked.files.sort(byPath);
	walked.symlinks.sort(byPath);
	return walked;
}

function hashFile(path: string): {bytes: number; sha256: string} | undefined {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	} catch {
		return undefined;
	}

	try {
		const size = fstatSync(fd).size;
		const {sha256, bytes} = sha256OfDescriptor(fd);
		return bytes === size ? {bytes, sha256} : undefined;
	} finally {
		closeSync(fd);
	}
}

function realOrSelf(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/**
 * `engi artifact add-tree`: hashes every file of a directory with bounded memory, records
 * symlinks without following them, and writes the sorted inventory as a manifest (outside the
 * directory, so recording does not change what is recorded). The manifest, not the tree, goes
 * into the artifact store: a receipt of what was there, not a copy.
 */
export async function addArtifactTree(input: {directory: string; manifest: string; project?: string}, paths: KbPaths, deps: Deps): Promise<AddTreeOutput> {
	requireKnowledgeBase(paths);
	const directory = resolve(deps.cwd, input.directory);
	const manifestPath = resolve(deps.cwd, input.manifest);
	if (!lstatSync(directory, {throwIfNoEntry: false})?.isDirectory()) {
		throw new EngiError('not_a_directory', `--directory ${directory} is not a directory`, {hint: 'pass the directory to record (a symlink to one is not followed)'});
	}

	const realDirectory = realpathSync(directory);
	const realManifest = join(realOrSelf(dirname(manifestPath)), basename(manifestPath));
	if (realManifest === realDirectory || realManifest.startsWith(realDirectory + sep)) {
		throw new EngiError('manifest_inside_directory', `--manifest ${manifestPath} lies inside ${directory}`, {hint: 'put the manifest outside the directory it describes'});
	}

	const walked = walkTree(directory);
	const treeSha = sha256Hex(canonicalJson({files: walked.files, symlinks: walked.symlinks}));
	// What the tree holds, not where it was: the same tree moved elsewhere has the same manifest (its node says where).
	const manifest = `${JSON.stringify({format: 'engi.tree-manifest.v1', tree_sha256: treeSha, files: walked.files, symlinks: walked.symlinks, skipped: walked.skipped}, null, 2)}\n`;
	try {
		mkdirSync(dirname(manifestPath), {recursive: true});
	} catch (error) {
		throw writeError(manifestPath, error);
	}

	writeFileAtomic(manifestPath, manifest);
	const fd = openSync(manifestPath, 'r');
	let stored;
	try {
		stored = storeDescriptor(paths, fd, manifestPath);
	} finally {
		closeSync(fd);
	}

	const sourceBytes = walked.files.reduce((sum, file) => sum + file.bytes, 0);
	const nodeId = `artifact:tree:${treeSha}`;
	const result = await writeEvents(paths, deps, index => [
		{
			op: 'node.upsert',
			payload: {id: nodeId, kind: 'Artifact', label: `tree ${directory}`, metadata_only: true, directory, tree_sha256: treeSha, files: walked.files.length, symlinks: walked.symlinks.length, source_bytes: sourceBytes, manifest_sha256: stored.sha256, path: stored.relativePath, provenance: 'engi artifact add-tree'},
		},
		...belongsTo(index.db, nodeId, input.project),
	]);
	return {
		node_id: nodeId,
		tree_sha256: treeSha,
		files: walked.files.length,
		symlinks: walked.symlinks.length,
		skipped: walked.skipped,
		source_bytes: sourceBytes,
		manifest_sha256: stored.sha256,
		manifest_path: manifestPath,
		stored_path: stored.relativePath,
		metadata_only: true,
		appended: result.events.length > 0,
		project: input.project ?? null,
	};
}
