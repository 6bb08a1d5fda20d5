import type {PromoteOutput} from '../engine/candidates/promote.js';
import type {CandidateRejectOutput, CandidateShowOutput, CandidatesListOutput} from '../engine/candidates/review.js';
import type {EvidenceOutput} from '../engine/candidates/evidence.js';
import type {Deps} from '../engine/deps.js';
import type {Evaluation} from '../engine/evidence/evaluation-schema.js';
import type {ProjectOutput} from '../engine/knowledge/project.js';
import type {QueryOutput} from '../engine/knowledge/query-schema.js';
import type {Brief} from '../engine/continuity/brief-schema.js';
import type {CheckpointDraft} from '../engine/continuity/checkpoint-schema.js';
import type {PickupOutput} from '../engine/continuity/pickup.js';
import type {StandupOutput} from '../engine/continuity/standup.js';
import type {UnfinishedOutput} from '../engine/continuity/unfinished.js';
import type {PlanOutput} from '../engine/retention/plan.js';
import type {SweepOutput, SweepProgress} from '../engine/retention/sweep.js';

export type Scope = {readonly since?: string; readonly allProjects: boolean; readonly project?: string; readonly source?: readonly string[]};

/**
 * Everything the dashboard asks of the engine: the same functions the CLI commands call, so a
 * screen shows exactly what `--format json` prints. Screens never touch the file system.
 */
export type EngineClient = {
	/** With `cached`, from the session catalog as it stands (see ScopeInput.cached): the first frame, before the stores are looked at. */
	standup(options?: {readonly cached?: boolean}): Promise<StandupOutput>;
	unfinished(): Promise<UnfinishedOutput>;
	brief(id: string, source: string): Promise<Brief>;
	pickup(id: string, source: string): Promise<PickupOutput>;
	checkpoints(): Promise<Awaited<ReturnType<typeof import('../engine/continuity/checkpoint-ops.js').listCheckpoints>>>;
	recordCheckpoint(draft: CheckpointDraft): Promise<Awaited<ReturnType<typeof import('../engine/continuity/checkpoint-ops.js').recordCheckpoint>>>;
	project(page: {offset: number; limit: number}): Promise<ProjectOutput>;
	query(q: string): Promise<QueryOutput>;
	/** The pending review queue, whole (the screen virtualises), as `engi candidates list`. */
	candidates(): Promise<CandidatesListOutput>;
	candidate(ref: string): Promise<CandidateShowOutput>;
	/** Only the turns its claims cite, in the window the distiller was served. */
	citedTurns(ref: string, turns: readonly number[], maxTurns?: number): Promise<EvidenceOutput>;
	promoteCandidate(ref: string): Promise<PromoteOutput>;
	rejectCandidate(ref: string): Promise<CandidateRejectOutput>;
	/** The same search's evidence view (`--view evidence`), as of the moment its results were answered. */
	queryEvidence(q: string, asOf: string): Promise<QueryOutput>;
	/** The answer to an evidence contract (`engi query --q <q> --evidence-contract <file>`). */
	evaluateContract(file: string, q: string): Promise<Evaluation>;
	/** `engi retention plan --details` with every session on one page. */
	retentionPlan(): Promise<PlanOutput>;
	/** `engi retention sweep --details`, a dry run unless `plan` (its digest) is given to execute. */
	retentionSweep(run?: {readonly plan: string; readonly onProgress: (progress: SweepProgress) => Promise<void>}): Promise<SweepOutput>;
	/** True when a knowledge base root resolves (project brief and query need one). */
	hasKnowledgeBase(): boolean;
};

/** The production client: engine calls in this process, with the scope the user gave. */
export async function createEngineClient(deps: Deps, scope: Scope, rootFlag: string | undefined): Promise<EngineClient> {
	const [{buildStandup}, {listUnfinished}, {resumeSession}, {pickupSession}, checkpointOps, {getProject}, {queryKnowledge}, {resolveRoot}, {kbPaths}, review, {candidateEvidence}, {promoteCandidate}] = await Promise.all([
		import('../engine/continuity/standup.js'),
		import('../engine/continuity/unfinished.js'),
		import('../engine/continuity/resume.js'),
		import('../engine/continuity/pickup.js'),
		import('../engine/continuity/checkpoint-ops.js'),
		import('../engine/knowledge/project.js'),
		import('../engine/knowledge/query.js'),
		import('../engine/kb/root.js'),
		import('../engine/kb/paths.js'),
		import('../engine/candidates/review.js'),
		import('../engine/candidates/evidence.js'),
		import('../engine/candidates/promote.js'),
	]);
	const root = () => kbPaths(resolveRoot(rootFlag, deps).root);
	return {
		async standup(options) {
			// The screen lists every candidate (it scrolls); the command line shows each project's newest.
			return buildStandup({since: scope.since, source: scope.source, project: scope.allProjects ? undefined : scope.project, rootFlag, cached: options?.cached, limit: null}, deps);
		},
		async unfinished() {
			return listUnfinished({since: scope.since, source: scope.source, project: scope.project, allProjects: scope.allProjects, limit: 100_000, offset: 0}, deps);
		},
		async brief(id, source) {
			const result = await resumeSession({id, source, view: 'brief'}, deps);
			if (!('view' in result) || result.view !== 'brief') {
				throw new Error('the session has no brief');
			}

			return result;
		},
		async pickup(id, source) {
			return pickupSession({id, source}, deps);
		},
		async checkpoints() {
			return checkpointOps.listCheckpoints({project: scope.project, allProjects: scope.allProjects}, deps);
		},
		async recordCheckpoint(draft) {
			return checkpointOps.recordCheckpoint({...draft, fallbackProject: scope.project ?? deps.cwd}, process.stdin, deps);
		},
		async project(page) {
			return (await getProject(root(), {view: 'brief', limit: page.limit, offset: page.offset}, deps)).output;
		},
		async query(q) {
			return (await queryKnowledge(root(), {q, view: 'context', limit: 50}, deps)).output;
		},
		async candidates() {
			return review.listCandidates(root(), {status: 'pending', limit: 100_000});
		},
		async candidate(ref) {
			return review.showCandidate(root(), {ref});
		},
		async citedTurns(ref, turns, maxTurns) {
			return candidateEvidence(root(), {ref, turns, maxTurns}, deps);
		},
		async promoteCandidate(ref) {
			return promoteCandidate(root(), {ref, fallbackProject: scope.project ?? deps.cwd}, deps);
		},
		async rejectCandidate(ref) {
			return review.rejectCandidate(root(), {ref}, deps);
		},
		async queryEvidence(q, asOf) {
			return (await queryKnowledge(root(), {q, view: 'evidence', asOf, limit: 50}, deps)).output;
		},
		async evaluateContract(file, q) {
			// Loaded only when a contract is given: the solver and its tokenizer are not the dashboard's to pay for.
			const {evaluateContract} = await import('../engine/evidence/evaluate.js');
			return (await evaluateContract(root(), {file, q}, deps)).output;
		},
		async retentionPlan() {
			const {planRetention} = await import('../engine/retention/plan.js');
			return planRetention({source: scope.source, details: true, limit: Number.MAX_SAFE_INTEGER}, root(), deps);
		},
		async retentionSweep(run) {
			// The sweep itself (re-planned, digest-checked, every target re-checked before it goes); no
			// shortcut for the dashboard.
			const {sweepRetention} = await import('../engine/retention/sweep.js');
			const {output} = await sweepRetention({source: scope.source, details: true, execute: run !== undefined, plan: run?.plan, onProgress: run?.onProgress}, root(), deps);
			return output;
		},
		hasKnowledgeBase() {
			try {
				root();
				return true;
			} catch {
				return false;
			}
		},
	};
}
