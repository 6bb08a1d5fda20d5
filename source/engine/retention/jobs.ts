import {realpathSync} from 'node:fs';
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

const sameSession = (attempt: PurgeAttempt, source: string, sessionId: string) => attempt.source === source && attempt.session_id.toLowerCase() === sessionId.toLowerCase();

/** Interrupted attempts on one session: the run that retires it settles them too. */
export function interruptedFor(history: PurgeHistory, source: string, sessionId: string): PurgeAttempt[] {
	return history.interrupted.filter(attempt => sameSession(attempt, source, sessionId));
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
	return {
		source: unit.source as SourceId,
		sessionId: unit.session_id,
		receipt: assessment.receipt,
		steps: (assessment.scan?.targets ?? []).map(target => ({path: target.path, kind: target.kind})),
		boundary: retirement?.boundary ?? unit.root,
		resumes: interruptedFor(options.history, unit.source, unit.session_id).map(attempt => attempt.id),
		retentionDays: options.retentionDays,
		via: options.via,
		reassess: options.reassess,
	};
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
		retentionDays: options.retentionDays,
		via: options.via,
		reassess: () => (receipt ? heldOpen(attempt.targets.map(target => target.path), attempt.boundary, options.deps) : [{code: 'attestation_missing', detail: `the receipt ${attempt.receipt_id} of the interrupted attempt is not in the journal`}]),
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
