import {closeSync, constants, copyFileSync, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync} from 'node:fs';
import {basename, dirname, isAbsolute, join, relative, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import {fsyncDirectory} from '../../lib/atomic.js';
import {sha256OfDescriptor} from '../../lib/hash.js';
import {parseBoundedJson} from '../../lib/json-depth.js';

const sha = z.string().check(z.regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex sha256'));
const entry = z.strictObject({path: z.string().check(z.refine(isAbsolute, 'must be an absolute path')), sha256: sha});

/** `engi.final-collection.v1`: which files are the final result, and which drafts to delete. */
export const finalPlanSchema = z.strictObject({
	format: z.literal('engi.final-collection.v1'),
	collection: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/, 'must be a plain name (letters, digits, . _ -)')),
	final_files: z.array(entry),
	remove_files: z.array(entry),
});

export type FinalPlan = z.infer<typeof finalPlanSchema>;

const stepStatuses = ['ready', 'moved', 'removed', 'already_moved', 'already_removed', 'missing', 'sha256_mismatch', 'not_a_regular_file', 'destination_taken'] as const;
type StepStatus = (typeof stepStatuses)[number];
const problems: ReadonlySet<StepStatus> = new Set(['missing', 'sha256_mismatch', 'not_a_regular_file', 'destination_taken']);

export const finalizeOutputSchema = z.object({
	applied: z.boolean(),
	collection: z.string(),
	collection_path: z.string(),
	/** No step has a problem: a dry run would apply cleanly, an applied plan did. */
	ok: z.boolean(),
	/** `destination`: where the file goes, relative to the knowledge base root. */
	final_files: z.array(z.object({path: z.string(), sha256: z.string(), destination: z.string(), status: z.enum(stepStatuses)})),
	remove_files: z.array(z.object({path: z.string(), sha256: z.string(), status: z.enum(stepStatuses)})),
	node_id: z.nullable(z.string()),
});

export type FinalizeOutput = z.infer<typeof finalizeOutputSchema>;

const maxPlanBytes = 16 * 1024 * 1024;

function readPlan(path: string): FinalPlan {
	let text: string;
	try {
		if (statSync(path).size > maxPlanBytes) {
			throw new EngiError('plan_too_large', `${path} is larger than 16 MiB`);
		}

		text = readFileSync(path, 'utf8');
	} catch (error) {
		throw error instanceof EngiError ? error : new EngiError('file_not_found', `--plan ${path} cannot be read (${systemErrorCode(error) ?? 'error'})`);
	}

	let value: unknown;
	try {
		value = parseBoundedJson(text);
	} catch {
		throw new EngiError('invalid_plan', `${path} is not JSON`);
	}

	const parsed = finalPlanSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new EngiError('invalid_plan', `${path}: ${issue?.path.map(String).join('.') || 'plan'}: ${issue?.message ?? 'invalid'}`, {hint: 'format engi.final-collection.v1: {format, collection, final_files:[{path, sha256}], remove_files:[{path, sha256}]}'});
	}

	const plan = parsed.data;
	const all = [...plan.final_files, ...plan.remove_files].map(file => file.path);
	const repeated = all.find((path, index) => all.indexOf(path) !== index);
	const names = plan.final_files.map(file => basename(file.path));
	const clash = names.find((name, index) => names.indexOf(name) !== index);
	if (repeated || clash) {
		throw new EngiError('invalid_plan', repeated ? `${repeated} is listed twice` : `two final files are named ${clash}; a collection holds one of each name`);
	}

	return plan;
}

/** The sha256 of a regular file read without following a link; undefined when it is not there. */
function digestOf(path: string): {sha256: string; dev: number; ino: number} | 'missing' | 'not_a_regular_file' {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
	} catch (error) {
		return systemErrorCode(error) === 'ENOENT' ? 'missing' : 'not_a_regular_file';
	}

	try {
		const stats = fstatSync(fd);
		return stats.isFile() ? {sha256: sha256OfDescriptor(fd).sha256, dev: stats.dev, ino: stats.ino} : 'not_a_regular_file';
	} finally {
		closeSync(fd);
	}
}

function judgeFinal(path: string, expected: string, destination: string): StepStatus {
	const source = digestOf(path);
	const placed = digestOf(destination);
	if (source === 'missing') {
		return typeof placed === 'object' && placed.sha256 === expected ? 'already_moved' : 'missing';
	}

	if (source === 'not_a_regular_file') {
		return source;
	}

	if (source.sha256 !== expected) {
		return 'sha256_mismatch';
	}

	return placed === 'missing' || (typeof placed === 'object' && placed.sha256 === expected) ? 'ready' : 'destination_taken';
}

function judgeRemove(path: string, expected: string): StepStatus {
	const found = digestOf(path);
	return found === 'missing' ? 'already_removed' : found === 'not_a_regular_file' ? found : found.sha256 === expected ? 'ready' : 'sha256_mismatch';
}

/** Moves a checked file into the collection: a rename, or a copy checked by hash and then the unlink, across devices. */
function moveChecked(path: string, expected: string, destination: string): StepStatus {
	const now = judgeFinal(path, expected, destination);
	if (now !== 'ready') {
		return now;
	}

	const identity = digestOf(path) as {dev: number; ino: number};
	const stats = lstatSync(path);
	if (stats.dev !== identity.dev || stats.ino !== identity.ino) {
		return 'sha256_mismatch';
	}

	try {
		renameSync(path, destination);
	} catch (error) {
		if (systemErrorCode(error) !== 'EXDEV') {
			throw writeError(destination, error);
		}

		copyFileSync(path, destination, constants.COPYFILE_EXCL);
		const copied = digestOf(destination);
		if (typeof copied !== 'object' || copied.sha256 !== expected) {
			unlinkSync(destination);
			return 'sha256_mismatch';
		}

		unlinkSync(path);
	}

	fsyncDirectory(dirname(destination));
	fsyncDirectory(dirname(path));
	return 'moved';
}

function removeChecked(path: string, expected: string): StepStatus {
	const now = judgeRemove(path, expected);
	if (now !== 'ready') {
		return now;
	}

	unlinkSync(path);
	fsyncDirectory(dirname(path));
	return 'removed';
}

/**
 * `engi artifact finalize --plan <plan.json>`: without `apply`, says what each step would do.
 * With it, nothing happens unless every step can (each sha256 as planned, no name taken in the
 * collection); then the final files move into `collections/<name>/` and the drafts are deleted,
 * each checked by sha256 again right before its step. Running it again finds the work done.
 */
export async function finalizeCollection(input: {plan: string; apply: boolean}, paths: KbPaths, deps: Deps): Promise<FinalizeOutput> {
	requireKnowledgeBase(paths);
	const plan = readPlan(resolve(deps.cwd, input.plan));
	const collectionPath = join(paths.artifacts, 'collections', plan.collection);
	const destinationOf = (path: string) => join(collectionPath, basename(path));
	const dry = {
		final_files: plan.final_files.map(file => ({...file, destination: destinationOf(file.path), status: judgeFinal(file.path, file.sha256, destinationOf(file.path))})),
		remove_files: plan.remove_files.map(file => ({...file, status: judgeRemove(file.path, file.sha256)})),
	};
	const ok = [...dry.final_files, ...dry.remove_files].every(step => !problems.has(step.status));
	const base = {collection: plan.collection, collection_path: relative(paths.root, collectionPath)};
	const shown = (files: typeof dry.final_files) => files.map(file => ({...file, destination: relative(paths.root, file.destination)}));
	if (!input.apply || !ok) {
		return {applied: false, ...base, ok, final_files: shown(dry.final_files), remove_files: dry.remove_files, node_id: null};
	}

	try {
		mkdirSync(collectionPath, {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(collectionPath, error);
	}

	const final_files = dry.final_files.map(file => ({...file, status: moveChecked(file.path, file.sha256, file.destination)}));
	const remove_files = dry.remove_files.map(file => ({...file, status: removeChecked(file.path, file.sha256)}));
	const applied = [...final_files, ...remove_files].every(step => !problems.has(step.status));
	const nodeId = `collection:${plan.collection}`;
	await writeEvents(paths, deps, () => [
		{
			op: 'node.upsert',
			payload: {
				id: nodeId,
				kind: 'ArtifactCollection',
				label: `final collection ${plan.collection}`,
				provenance: 'engi artifact finalize',
				path: base.collection_path,
				files: final_files.map(file => ({name: basename(file.path), sha256: file.sha256})),
				removed: remove_files.filter(file => file.status === 'removed' || file.status === 'already_removed').map(file => ({path: file.path, sha256: file.sha256})),
			},
		},
	]);
	return {applied: true, ...base, ok: applied, final_files: shown(final_files), remove_files, node_id: nodeId};
}
