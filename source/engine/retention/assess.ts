import {basename, dirname, join} from 'node:path';
import type {SourceId} from '../../adapters/types.js';
import type {Deps} from '../deps.js';
import {momentOf} from '../index/store.js';
import {confidenceOf, reasonsFor} from '../continuity/reasons.js';
import type {TailState} from '../continuity/tail.js';
import {checkpointLookup} from '../continuity/unfinished.js';
import {parseStored, type Database} from '../../lib/sqlite.js';
import {type Blocker, isCompactable} from './blockers.js';
import type {RetentionCandidate} from './candidates.js';
import {provenanceGaps, sessionKey, type RetentionReceipt} from './journal.js';
import {scanOpenFiles, type OpenFiles} from './open-files.js';
import {realPath, scanTargets, type RealPaths, type Target, type TargetScan} from './targets.js';
import type {RetentionWindow} from './window.js';

export type AssessmentStatus = 'eligible' | 'compactable' | 'blocked';

export type Assessment = {
	readonly candidate: RetentionCandidate;
	readonly blockers: Blocker[];
	readonly status: AssessmentStatus;
	/** The files and directories, when they were examined (sessions nothing cheaper blocked, or asked for). */
	readonly scan: TargetScan | undefined;
	/** The latest receipt for the session, if any. */
	readonly receipt: RetentionReceipt | undefined;
	/** Latest activity seen (transcript times, file modification times), epoch ms. */
	readonly newest: number | null;
	/** Bytes of the session's files: exact when examined, else the catalog's sizes. */
	readonly bytes: number;
};

export type AssessContext = {
	readonly index: Database;
	readonly deps: Deps;
	readonly window: RetentionWindow;
	readonly receipts: ReadonlyMap<string, RetentionReceipt[]>;
	/**
	 * Whose files are stat'ed, walked and pinned against receipts: every session's (`all`: for
	 * --details, attest and purge), or only those nothing else blocks (`retirable`: what a sweep
	 * acts on), or of those only the attested (`summary`: a plan's counts, where an unattested
	 * session is only looked for among open files by name, its bytes taken from the catalog).
	 */
	readonly examine: 'all' | 'retirable' | 'summary';
};

/** A session written to this recently is taken to be running (the same window `unfinished` uses). */
export const activeWindowMs = 2 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Judges sessions, children before parents so a parent knows whether its children go first.
 * Cheap gates come from the catalog and the index; a session's files are stat'ed (and looked for
 * among other processes' open files) only when nothing cheaper blocks it, because only then do
 * they decide anything, unless the context asks to examine all.
 */
export function createAssessor(context: AssessContext, candidates: readonly RetentionCandidate[]) {
	const checkpointOf = checkpointLookup(context.deps.cwd);
	const cutoff = Date.parse(context.window.cutoff);
	const decided = new Map<string, Assessment>();
	const realPaths: RealPaths = new Map();
	let openFiles: {files: OpenFiles; at: number} | undefined;
	/** One scan of /proc serves many sessions (at most `maxAgeMs` old); a single purge asks for a new one. */
	const lookOpen = (maxAgeMs: number): OpenFiles => {
		if (!openFiles || Date.now() - openFiles.at > maxAgeMs) {
			const boundaries = new Set(candidates.flatMap(candidate => (candidate.retirement ? [candidate.retirement.boundary] : [])));
			openFiles = {files: scanOpenFiles([...boundaries].flatMap(boundary => realPath(realPaths, boundary) ?? []), context.deps.platform), at: Date.now()};
		}

		return openFiles.files;
	};

	/**
	 * `childGoes`: whether a child session is retired before this one (in a sweep: if it is not
	 * blocked). `recheck`: judging again right before a deletion, so no resolved directory is taken
	 * from an earlier look. `openFilesMaxAgeMs`: how old the listing of open files may be (a second).
	 */
	function assess(candidate: RetentionCandidate, childGoes: (child: Assessment) => boolean, options: {openFilesMaxAgeMs?: number; recheck?: boolean} = {}): Assessment {
		const {unit} = candidate;
		const blockers: Blocker[] = [];
		const now = context.deps.now().getTime();
		const times = [unit.modified === null ? Number.NaN : Date.parse(unit.modified), unit.mtime_ms > 0 ? unit.mtime_ms : Number.NaN, ...candidate.nested.map(child => child.mtime_ms)].filter(time => Number.isFinite(time));
		let newest = times.length === 0 ? null : Math.max(...times);
		if (unit.error !== null) {
			blockers.push({code: 'assessment_error', detail: `the session cannot be read: ${unit.error}`});
		}

		if (!candidate.retirement) {
			blockers.push({code: 'source_not_separable', detail: `${candidate.adapter.label} keeps this session inside a database it shares with other sessions; engi never writes another program's database`});
		}

		const receipts = context.receipts.get(sessionKey(unit.source, unit.session_id)) ?? [];
		const receipt = receipts[0];
		const checkpoint = checkpointOf(unit.project, unit.session_id);
		if (checkpoint?.status === 'active' || checkpoint?.status === 'blocked') {
			blockers.push({code: 'checkpoint_open', detail: `its checkpoint is ${checkpoint.status}${checkpoint.next_action ? `; next: ${checkpoint.next_action}` : ''}`});
		}

		// A completed or superseded checkpoint says the work is done, whatever the tail looks like.
		const done = checkpoint?.status === 'completed' || checkpoint?.status === 'superseded';
		const tail = unit.tail !== null && !done ? parseStored<TailState>(unit.tail, 'catalog') : undefined;
		const reasons = tail ? reasonsFor(tail, undefined, false) : [];
		if (reasons.length > 0 && confidenceOf(reasons) === 'high') {
			blockers.push({code: 'unfinished_candidate', detail: `its work looks unfinished: ${reasons.map(reason => reason.code).join(', ')}`});
		}

		const remaining = candidate.children.map(child => decided.get(child.unit.key)).filter(child => child === undefined || !childGoes(child));
		if (remaining.length > 0) {
			blockers.push({code: 'child_sessions_present', detail: `${remaining.length} child session${remaining.length === 1 ? '' : 's'} must be retired first`});
		}

		if (receipt === undefined) {
			blockers.push({code: 'attestation_missing', detail: 'no retention receipt pins this session to knowledge taken from it (engi retention attest)'});
		} else {
			const gaps = provenanceGaps(context.index, unit.source as SourceId, unit.session_id, receipt.knowledge_node_ids, momentOf(context.deps));
			if (gaps.missing.length > 0 || gaps.unlinked.length > 0) {
				const parts = [gaps.missing.length > 0 ? `missing: ${gaps.missing.join(', ')}` : '', gaps.unlinked.length > 0 ? `without a live DERIVED_FROM/DISCUSSED_IN edge to the conversation: ${gaps.unlinked.join(', ')}` : ''].filter(Boolean);
				blockers.push({code: 'knowledge_provenance_missing', detail: `knowledge nodes of ${receipt.id} ${parts.join('; ')}`});
			}
		}

		let scan: TargetScan | undefined;
		const retirable = blockers.every(blocker => blocker.code === 'attestation_missing');
		const examineFiles = context.examine === 'all' || (retirable && (context.examine === 'retirable' || receipt !== undefined));
		if (candidate.retirement && examineFiles) {
			scan = scanTargets([...unit.paths, ...(candidate.retirement.files ?? [])], candidate.retirement.directories, candidate.retirement.boundary, options.recheck ? new Map() : realPaths);
			blockers.push(...examine(scan, receipt, receipts.length > 0));
			const touched = scan.targets.filter(target => target.kind === 'file').map(target => target.mtime_ms);
			newest = Math.max(newest ?? 0, ...touched) || newest;
			if (scan.targets.length > 0 && !blockers.some(blocker => blocker.code === 'assessment_error')) {
				const open = lookOpen(options.openFilesMaxAgeMs ?? 1000);
				blockers.push(...activity(open, scan.targets.flatMap(target => open.holders(target.canonical).map(pid => `${target.path} (pid ${pid})`))));
			}
		} else if (candidate.retirement && retirable) {
			const open = lookOpen(options.openFilesMaxAgeMs ?? 1000);
			blockers.push(...activity(open, heldByName(open, candidate, realPaths)));
		}

		if (newest === null) {
			blockers.push({code: 'modified_time_unknown', detail: 'neither the transcript nor its files say when it was last active'});
		} else {
			if (newest > cutoff) {
				blockers.push({code: 'inside_retention_window', detail: `last active ${iso(newest)}, after the cutoff ${context.window.cutoff}`});
			}

			if (now - newest < activeWindowMs) {
				blockers.push({code: 'session_active', detail: `written ${Math.max(0, Math.round((now - newest) / 1000))} s ago`});
			}
		}

		const ordered = orderBlockers(blockers);
		const status: AssessmentStatus = ordered.length === 0 ? 'eligible' : isCompactable(ordered) ? 'compactable' : 'blocked';
		const bytes = scan ? scan.bytes : unit.size + candidate.nested.reduce((sum, child) => sum + child.size, 0);
		const assessment = {candidate, blockers: ordered, status, scan, receipt, newest, bytes};
		decided.set(unit.key, assessment);
		return assessment;
	}

	return {assess};
}

export type Assessor = ReturnType<typeof createAssessor>;

function activity(open: OpenFiles, held: readonly string[]): Blocker[] {
	if (!open.available) {
		return [{code: 'session_activity_unknown', detail: open.reason ?? 'open files cannot be listed here'}];
	}

	return held.length > 0 ? [{code: 'session_active', detail: `held open by another process: ${held.slice(0, 3).join(', ')}`}] : [];
}

/** Open files that are a session's, found by the names its catalog entry and its directories give (nothing stat'ed). */
function heldByName(open: OpenFiles, candidate: RetentionCandidate, realPaths: RealPaths): string[] {
	if (open.none) {
		return [];
	}

	const canonical = (path: string) => {
		const directory = realPath(realPaths, dirname(path));
		return directory === undefined ? undefined : join(directory, basename(path));
	};

	const files = [...[candidate.unit, ...candidate.nested].flatMap(unit => unit.paths), ...(candidate.retirement?.files ?? [])].flatMap(path => {
		const real = canonical(path);
		return real === undefined ? [] : open.holders(real).map(pid => `${path} (pid ${pid})`);
	});
	const inside = (candidate.retirement?.directories ?? []).flatMap(directory => {
		const real = realPath(realPaths, directory);
		return real === undefined ? [] : open.under(real).flatMap(file => file.pids.map(pid => `${file.path} (pid ${pid})`));
	});
	return [...new Set([...files, ...inside])];
}

/** What the files themselves say: odd entries, nothing left, or bytes other than the receipt pinned. */
function examine(scan: TargetScan, receipt: RetentionReceipt | undefined, attested: boolean): Blocker[] {
	const blockers: Blocker[] = scan.problems.map(problem => ({code: 'assessment_error', detail: problem.detail}));
	if (scan.targets.every(target => target.kind === 'directory') && scan.missing.length > 0) {
		blockers.push({code: 'already_cleaned', detail: 'its files are gone already'});
		return blockers;
	}

	if (attested && receipt) {
		const change = changeSince(receipt, scan.targets);
		if (change) {
			blockers.push({code: 'source_changed', detail: `${change}: ${receipt.id} pins other bytes; attest again once the session is done`});
		}
	}

	return blockers;
}

/**
 * The first difference between what a receipt pinned and the files now, by size and identity
 * (device and inode); sha256 is compared right before deletion. A pinned file that is gone is no
 * change: removal only ever takes bytes away (and an interrupted purge leaves exactly that).
 */
export function changeSince(receipt: RetentionReceipt, targets: readonly Target[]): string | undefined {
	const pinned = new Map(receipt.targets.map(pin => [pin.path, pin]));
	for (const target of targets) {
		const pin = pinned.get(target.path);
		if (!pin) {
			return target.kind === 'directory' ? undefined : `${target.path} is new`;
		}

		if (pin.kind !== target.kind || pin.dev !== target.dev || pin.ino !== target.ino) {
			return `${target.path} was replaced`;
		}

		if (pin.bytes !== target.bytes) {
			return `${target.path} holds ${target.bytes} bytes, not ${pin.bytes}`;
		}
	}

	return undefined;
}

const order = new Map<string, number>([
	'assessment_error',
	'source_not_separable',
	'already_cleaned',
	'session_active',
	'session_activity_unknown',
	'inside_retention_window',
	'modified_time_unknown',
	'checkpoint_open',
	'unfinished_candidate',
	'child_sessions_present',
	'source_changed',
	'knowledge_provenance_missing',
	'attestation_missing',
].map((code, index) => [code, index]));

function orderBlockers(blockers: readonly Blocker[]): Blocker[] {
	if (blockers.length < 2) {
		return [...blockers]; // Most sessions have one: nothing to sort or repeat.
	}

	const seen = new Set<string>();
	return [...blockers].sort((a, b) => order.get(a.code)! - order.get(b.code)!).filter(blocker => {
		const key = `${blocker.code}\u0000${blocker.detail}`;
		return !seen.has(key) && Boolean(seen.add(key));
	});
}

