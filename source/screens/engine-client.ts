import type {Deps} from '../engine/deps.js';
import type {ProjectOutput} from '../engine/knowledge/project.js';
import type {QueryOutput} from '../engine/knowledge/query-schema.js';
import type {Brief} from '../engine/continuity/brief-schema.js';
import type {CheckpointDraft} from '../engine/continuity/checkpoint-schema.js';
import type {PickupOutput} from '../engine/continuity/pickup.js';
import type {StandupOutput} from '../engine/continuity/standup.js';
import type {UnfinishedOutput} from '../engine/continuity/unfinished.js';

export type Scope = {readonly since?: string; readonly allProjects: boolean; readonly project?: string; readonly source?: readonly string[]};

/**
 * Everything the dashboard asks of the engine: the same functions the CLI commands call, so a
 * screen shows exactly what `--format json` prints. Screens never touch the file system.
 */
export type EngineClient = {
	standup(): Promise<StandupOutput>;
	unfinished(): Promise<UnfinishedOutput>;
	brief(id: string, source: string): Promise<Brief>;
	pickup(id: string, source: string): Promise<PickupOutput>;
	checkpoints(): Promise<Awaited<ReturnType<typeof import('../engine/continuity/checkpoint-ops.js').listCheckpoints>>>;
	recordCheckpoint(draft: CheckpointDraft): Promise<Awaited<ReturnType<typeof import('../engine/continuity/checkpoint-ops.js').recordCheckpoint>>>;
	project(page: {offset: number; limit: number}): Promise<ProjectOutput>;
	query(q: string): Promise<QueryOutput>;
	/** True when a knowledge base root resolves (project brief and query need one). */
	hasKnowledgeBase(): boolean;
};

/** The production client: engine calls in this process, with the scope the user gave. */
export async function createEngineClient(deps: Deps, scope: Scope, rootFlag: string | undefined): Promise<EngineClient> {
	const [{buildStandup}, {listUnfinished}, {resumeSession}, {pickupSession}, checkpointOps, {getProject}, {queryKnowledge}, {resolveRoot}, {kbPaths}] = await Promise.all([
		import('../engine/continuity/standup.js'),
		import('../engine/continuity/unfinished.js'),
		import('../engine/continuity/resume.js'),
		import('../engine/continuity/pickup.js'),
		import('../engine/continuity/checkpoint-ops.js'),
		import('../engine/knowledge/project.js'),
		import('../engine/knowledge/query.js'),
		import('../engine/kb/root.js'),
		import('../engine/kb/paths.js'),
	]);
	const root = () => kbPaths(resolveRoot(rootFlag, deps).root);
	return {
		async standup() {
			return buildStandup({since: scope.since, source: scope.source, project: scope.allProjects ? undefined : scope.project, rootFlag}, deps);
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
