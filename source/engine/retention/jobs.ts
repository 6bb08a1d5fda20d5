import {realpathSync} from 'node:fs';
import {hostname} from 'node:os';
import {basename, dirname, join} from 'node:path';
import type {SourceId} from '../../adapters/types.js';
import type {Deps} from '../deps.js';
import type {CatalogView} from '../catalog/view.js';
import type {Assessment} from './assess.js';
import type {Blocker} from './blockers.js';
import type {PurgeAttempt, PurgeHistory, RetentionReceipt} from './journal.js';
import {scanOpenFiles} from './open-files.js';
import type {PurgeJob} from './run-purge.js';
import {isInside} from './targets.js';
import {processAlive} from '../../lib/process-alive.js';

const sameSession = (attempt: PurgeAttempt, source: string, sessionId: string) => attempt.source === source && attempt.session_id.toLowerCase() === sessionId.toLowerCase();

/** Interrupted attempts on one session whose process is gone: the run that retires it settles them too. */
export function interruptedFor(history: PurgeHistory, source: string, sessionId: string): PurgeAttempt[] {
	return history.interrupted.filter(attempt => sameSession(attempt, source, sessionId) && !stillRunning(attempt));
}

/**
 * An unsettled attempt whose process still runs on this host: another engi is retiring the
 * session now. Finishing its attempt as if it had died would have both delete parts of the
 * session and each write a receipt. A pid reused since reads as running, which only refuses.
 */
function stillRunning(attempt: PurgeAttempt): boolean {
	return attempt.holder !== null && attempt.holder.host === hostname() && attempt.holder.pid !== process.pid && processAlive(attempt.holder.pid);
}

/** The gate a live attempt on the session sets: refused as active until its process is done. */
function runningBlockers(history: PurgeHistory, source: string, sessionId: string): Blocker[] {
	const running = history.interrupted.find(attempt => sameSession(attempt, source, sessionId) && stillRunning(attempt));
	return running ? [{code: 'session_active', detail: `another engi process (pid ${running.holder!.pid}) is retiring it now (${running.id})`}] : [];
}

/** The ids of every attempt on one session the history holds: a job's view of it when planned (see PurgeJob). */
export function attemptsFor(history: PurgeHistory, source: string, sessionId: string): string[] {
	return history.attempts.filter(attempt => sameSession(attempt, source, sessionId)).map(attempt => attempt.id);
}

/**
 * Whether an interrupted attempt is one of the stores in scope, so finishing it may delete: its
 * source is read, and its boundary is one of the store roots read or the directory holding one
 * (Antigravity's app directory holds `brain/`), or lies inside one (OpenCode's `storage/`).
 * A journal merged from elsewhere cannot point a sweep at any other directory.
 */
export function attemptInScope(attempt: PurgeAttempt, view: CatalogView): boolean {
	return view.targets.some(target => target.adapter.id === attempt.source && target.roots.some(root => attempt.boundary === root || attempt.boundary === dirname(root) || isInside(attempt.boundary, root)));
}

/** The purge of a session the catalog still lists, re-judged by `reassess` once its attempt is journaled. */
export function jobForAssessment(assessment: Assessment, options: {history: PurgeHistory; retentionDays: number; via: PurgeJob['via']; reassess: () => readonly Blocker[]}): PurgeJob {
	const {unit, retirement} = assessment.candidate;
	const resumed = interruptedFor(options.history, unit.source, unit.session_id);
	return {
		source: unit.source as SourceId,
		sessionId: unit.session_id,
		receipt: assessment.receipt,
		steps: withEarlierTargets((assessment.scan?.targets ?? []).map(target => ({path: target.path, kind: target.kind})), resumed),
		boundary: retirement?.boundary ?? unit.root,
		resumes: resumed.map(attempt => attempt.id),
		knownAttempts: attemptsFor(options.history, unit.source, unit.session_id),
		retentionDays: options.retentionDays,
		via: options.via,
		reassess: () => [...runningBlockers(options.history, unit.source, unit.session_id), ...options.reassess()],
	};
}

/**
 * The session's targets as scanned now, with those of the interrupted attempts it finishes that
 * the scan no longer finds (files a killed run deleted): checked against the same pins, they are
 * already gone, and the receipt names them. Files first, directories last, as deletion needs.
 */
function withEarlierTargets(scanned: PurgeJob['steps'], resumed: readonly PurgeAttempt[]): PurgeJob['steps'] {
	const listed = new Set(scanned.map(step => step.path));
	const earlier = new Map(resumed.flatMap(attempt => attempt.targets).filter(target => !listed.has(target.path)).map(target => [target.path, target]));
	const extra = [...earlier.values()];
	return [...extra.filter(target => target.kind === 'file'), ...scanned, ...extra.filter(target => target.kind === 'directory')];
}

/**
 * Finishing an attempt whose process died after its session's transcript was deleted (so the
 * catalog no longer lists the session): the same targets, checked against the same receipt;
 * whatever is still there goes, once no other process holds it open.
 */
export function jobForInterrupted(attempt: PurgeAttempt, receipt: RetentionReceipt | undefined, options: {history: PurgeHistory; retentionDays: number; via: PurgeJob['via']; deps: Deps}): PurgeJob {
	return {
		source: attempt.source as SourceId,
		sessionId: attempt.session_id,
		receipt,
		steps: attempt.targets,
		boundary: attempt.boundary,
		resumes: interruptedFor(options.history, attempt.source, attempt.session_id).map(interrupted => interrupted.id),
		knownAttempts: attemptsFor(options.history, attempt.source, attempt.session_id),
		retentionDays: options.retentionDays,
		via: options.via,
		reassess: () => [
			...runningBlockers(options.history, attempt.source, attempt.session_id),
			...(receipt ? heldOpen(attempt.targets.map(target => target.path), attempt.boundary, options.deps) : [{code: 'attestation_missing' as const, detail: `the receipt ${attempt.receipt_id} of the interrupted attempt is not in the journal`}]),
		],
	};
}

function heldOpen(paths: readonly string[], boundary: string, deps: Deps): Blocker[] {
	const real = (path: string) => {
		try {
			return realpathSync(path);
		} catch {
			return undefined;
		}
	};

	const root = real(boundary);
	const open = scanOpenFiles(root ? [root] : [], deps.platform);
	if (!open.available) {
		return [{code: 'session_activity_unknown', detail: open.reason ?? 'open files cannot be listed here'}];
	}

	const held = paths.flatMap(path => {
		const directory = real(dirname(path));
		return directory === undefined ? [] : open.holders(join(directory, basename(path))).map(pid => `${path} (pid ${pid})`);
	});
	return held.length > 0 ? [{code: 'session_active', detail: `held open by another process: ${held.slice(0, 3).join(', ')}`}] : [];
}
