import {closeSync, lstatSync} from 'node:fs';
import {hostname} from 'node:os';
import type {SourceId} from '../../adapters/types.js';
import type {Deps} from '../deps.js';
import {nodeKind} from '../index/store.js';
import {writeEvents} from '../knowledge/write.js';
import type {KbPaths} from '../kb/paths.js';
import {sha256OfDescriptor} from '../../lib/hash.js';
import type {Database} from '../../lib/sqlite.js';
import {pauseAt} from '../../lib/test-pause.js';
import type {Blocker, BlockerCode} from './blockers.js';
import {deleteTargets, type Deletion, type FailureCode} from './delete.js';
import {retentionKinds, type Pin, type RetentionReceipt} from './journal.js';
import {openExpected} from './pins.js';

export type PurgeStep = {readonly path: string; readonly kind: 'file' | 'directory'};

export type PurgeJob = {
	readonly source: SourceId;
	readonly sessionId: string;
	/** The attestation the deletion rests on; none means it is refused. */
	readonly receipt: RetentionReceipt | undefined;
	readonly steps: readonly PurgeStep[];
	readonly boundary: string;
	/** Interrupted attempts on the same session that this one finishes. */
	readonly resumes: readonly string[];
	/** Every attempt on the session the journal held when this job was planned. */
	readonly knownAttempts: readonly string[];
	readonly retentionDays: number;
	readonly via: 'purge' | 'sweep';
	/** The gates again, judged now (after the attempt is journaled): any blocker refuses. */
	readonly reassess: () => readonly Blocker[];
};

/** Why a purge did not complete: the gate that refused it, or the check that stopped the deletion. */
export type PurgeFailureCode = BlockerCode | FailureCode;

export type PurgeRun = {
	/** `refused`: nothing was deleted; `failed`: some targets were, then a check stopped the rest. */
	readonly status: 'purged' | 'refused' | 'failed';
	readonly attemptId: string;
	readonly outcomeId: string;
	readonly failure: {code: PurgeFailureCode; detail: string} | null;
	readonly deletion: Deletion | null;
};

/**
 * One audited deletion: a SessionPurgeAttempt is journaled first (so a process that dies midway
 * leaves a trace `retention log` shows as interrupted), the gates are judged again, every target
 * is checked against the receipt's pins, then deleted with its own last-moment check; a
 * SessionPurgeReceipt or a SessionPurgeFailure closes the attempt.
 */
export async function runPurge(job: PurgeJob, paths: KbPaths, deps: Deps): Promise<PurgeRun> {
	let ordinal = 0;
	let attemptId = '';
	let rival: string | undefined;
	await writeEvents(paths, deps, index => {
		const earlier = journaledAttempts(index.db, job.source, job.sessionId);
		ordinal = earlier.length + 1;
		attemptId = attemptIdOf(job, ordinal);
		rival = rivalAttempt(job, earlier);
		return [
			{
				op: 'node.upsert',
				payload: {
					...purgeNode(job, attemptId, retentionKinds.attempt, `purge attempt for ${job.source} session ${job.sessionId}`, 'started'),
					receipt_id: job.receipt?.id ?? null,
					boundary: job.boundary,
					targets: job.steps.map(step => ({path: step.path, kind: step.kind})),
					resumes: [...job.resumes],
					holder: {pid: process.pid, host: hostname()},
					retention_days: job.retentionDays,
				},
			},
		];
	});
	// Only now: the build may run twice (again under the lock, when another writer appended).
	journaledHere.add(attemptId);
	pauseAt(deps.env, 'retention.after_attempt');
	// A refusal before anything was judged leaves the attempts it would finish for the next run.
	const fail = async (code: PurgeFailureCode, detail: string, deletion: Deletion | null, resumed = job.resumes): Promise<PurgeRun> => {
		const outcomeId = `${attemptId}:failure`;
		await writeEvents(paths, deps, () => [
			{
				op: 'node.upsert',
				payload: {
					...purgeNode(job, outcomeId, retentionKinds.failure, `purge of ${job.source} session ${job.sessionId} failed`, 'failed'),
					attempt_id: attemptId,
					resumed_attempt_ids: [...resumed],
					reason: code,
					detail,
					deleted_targets: deletion?.deleted ?? [],
					freed_bytes: deletion?.freedBytes ?? 0,
				},
			},
		]);
		return {status: deletion && deletion.deleted.length > 0 ? 'failed' : 'refused', attemptId, outcomeId, failure: {code, detail}, deletion};
	};

	// Another process began retiring the session after this job was planned (a racing sweep, or
	// one that died: the next plan finishes its attempt). Both going on would each delete part of
	// it and each write a receipt for a retirement the other shares.
	if (rival) {
		return fail('session_active', `another engi process began retiring it after this run planned (${rival}); run again once it is done`, null, []);
	}

	const blocker = job.reassess()[0];
	if (blocker) {
		return fail(blocker.code, blocker.detail, null);
	}

	const receipt = job.receipt!;
	const pins = new Map(receipt.targets.map(pin => [pin.path, pin]));
	const mismatch = verifyAll(job.steps, pins);
	if (mismatch) {
		return fail(mismatch.code, mismatch.detail, null);
	}

	const deletion = deleteTargets(job.steps, pins, job.boundary, deps.env);
	pauseAt(deps.env, 'retention.before_receipt');
	if (deletion.failure) {
		return fail(deletion.failure.code, deletion.failure.detail, deletion);
	}

	// Everything was gone and no attempt of ours is being finished: a racing sweep retired the
	// session, and its receipt says so; a second would record a retirement this one never made.
	if (deletion.deleted.length === 0 && job.resumes.length === 0) {
		return fail('already_cleaned', `every file of ${job.source} session ${job.sessionId} was already gone: another process retired it`, deletion);
	}

	const named = `session-purge:${job.source}:${job.sessionId}:${receipt.source_sha256.slice(0, 16)}`;
	let outcomeId = named;
	await writeEvents(paths, deps, index => {
		// Another attempt may have closed the session on the same receipt (a racing sweep, or one
		// finishing an attempt a killed sweep left): merged into its node, this receipt would
		// replace the attempt that one names, which would then read as interrupted.
		outcomeId = nodeKind(index.db, named) === undefined ? named : `${named}:${ordinal}`;
		return [
			{
				op: 'node.upsert',
				payload: {
					...purgeNode(job, outcomeId, retentionKinds.purged, `purge receipt for ${job.source} session ${job.sessionId}`, 'purged'),
					attempt_id: attemptId,
					resumed_attempt_ids: [...job.resumes],
					receipt_id: receipt.id,
					source_sha256: receipt.source_sha256,
					deleted_targets: deletion.deleted,
					already_gone: deletion.alreadyGone,
					freed_bytes: deletion.freedBytes,
					other_hard_links: deletion.otherHardLinks,
					hard_linked_bytes: deletion.hardLinkedBytes,
				},
			},
		];
	});
	return {status: 'purged', attemptId, outcomeId, failure: null, deletion};
}

/** The fields every node of one purge carries: what it is, which session, and which command wrote it. */
function purgeNode(job: PurgeJob, id: string, kind: (typeof retentionKinds)[keyof typeof retentionKinds], label: string, status: string) {
	return {id, kind, label, provenance: `engi retention ${job.via}`, status, session_id: job.sessionId, source: job.source};
}

const attemptIdOf = (job: Pick<PurgeJob, 'source' | 'sessionId'>, ordinal: number) => `session-purge-attempt:${job.source}:${job.sessionId}:${ordinal}`;

/**
 * The session's attempts the journal holds, in order (attempts are named by session and number,
 * 1 for the first), read under the journal lock (writeEvents runs its build again there when
 * another writer appended), never as a sweep planned: the next attempt's number follows them, so
 * a racing sweep's attempt gets an id of its own. Shared, a dead sweep's unfinished attempt
 * would read as settled by the other's receipt, and what it deleted would be named by nothing.
 */
function journaledAttempts(db: Database, source: SourceId, sessionId: string): string[] {
	const ids: string[] = [];
	while (nodeKind(db, attemptIdOf({source, sessionId}, ids.length + 1)) !== undefined) {
		ids.push(attemptIdOf({source, sessionId}, ids.length + 1));
	}

	return ids;
}

/** Attempts this process journaled: a later job of the same run (a session's other copy) knows them. */
const journaledHere = new Set<string>();

/** The first of the session's journaled attempts that neither the job's plan nor this process knew of. */
function rivalAttempt(job: PurgeJob, journaled: readonly string[]): string | undefined {
	const known = new Set(job.knownAttempts.map(id => id.toLowerCase()));
	return journaled.find(id => !known.has(id.toLowerCase()) && !journaledHere.has(id));
}

/**
 * Before the first deletion: every target is one the receipt pinned, as it pinned it (a target
 * already gone is fine). When several files must go, each is hashed now too, so a change to any
 * refuses the whole session instead of leaving it half deleted.
 */
function verifyAll(steps: readonly PurgeStep[], pins: ReadonlyMap<string, Pin>): {code: FailureCode; detail: string} | undefined {
	const files = steps.filter(step => step.kind === 'file');
	for (const step of steps) {
		const pin = pins.get(step.path);
		if (!pin || pin.kind !== step.kind) {
			return {code: 'source_changed', detail: `${step.path} is not pinned by the receipt`};
		}

		const stats = lstatSync(step.path, {throwIfNoEntry: false});
		if (!stats) {
			continue;
		}

		if (stats.isSymbolicLink()) {
			return {code: 'target_is_symlink', detail: `${step.path} is a symbolic link; engi never deletes through one`};
		}

		if (stats.dev !== pin.dev || stats.ino !== pin.ino || stats.isDirectory() !== (pin.kind === 'directory')) {
			return {code: 'target_replaced', detail: `${step.path} is no longer the ${pin.kind} the receipt pinned (another inode or device)`};
		}

		if (pin.kind === 'file' && stats.size !== pin.bytes) {
			return {code: 'source_changed', detail: `${step.path} holds ${stats.size} bytes, not the ${pin.bytes} pinned`};
		}

		if (pin.kind === 'file' && files.length > 1) {
			const problem = hashProblem(step.path, pin);
			if (problem) {
				return problem;
			}
		}
	}

	return undefined;
}

function hashProblem(path: string, pin: Pin): {code: FailureCode; detail: string} | undefined {
	const opened = openExpected(path, pin);
	if ('code' in opened) {
		return opened.code === 'target_missing' ? undefined : {code: opened.code, detail: opened.detail};
	}

	try {
		return sha256OfDescriptor(opened.fd).sha256 === pin.sha256 ? undefined : {code: 'source_changed', detail: `${path} no longer has the sha256 the receipt pinned`};
	} finally {
		closeSync(opened.fd);
	}
}
