import * as z from 'zod/mini';
import {lazySchema} from '../util/lazy-schema.js';
import {locateSession, type LocatedSession} from '../conversation/locate.js';
import {readConversation, readOutputSchema, type ReadOutput} from '../conversation/read.js';
import type {View} from '../conversation/views.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../errors.js';
import {estimateTokens, exactTokenCounter} from '../tokens.js';
import {buildFullBrief} from './brief.js';
import {briefSchema, type Brief} from './brief-schema.js';
import {fitBrief} from './budget.js';
import {unambiguousSession} from './checkpoint-ops.js';
import {checkpointLookup} from './unfinished.js';

export const ambiguousSchema = lazySchema(() => z.object({
	status: z.literal('ambiguous'),
	project: z.nullable(z.string()),
	count: z.number(),
	candidates: z.array(z.object({id: z.string(), source: z.string(), title: z.nullable(z.string()), modified: z.nullable(z.string())})),
	message: z.string(),
}));

export const notFoundSchema = lazySchema(() => z.object({status: z.literal('not_found'), project: z.nullable(z.string()), message: z.string()}));

export const resumeOutputSchema = lazySchema(() => z.union([briefSchema, readOutputSchema, ambiguousSchema, notFoundSchema]));
export type ResumeOutput = z.infer<typeof resumeOutputSchema>;

export type TargetInput = {readonly id?: string; readonly source?: string; readonly sourceRoot?: string; readonly project?: string};

/** An id, or the one unfinished session of the project; ambiguity and absence are answers, not crashes. */
export function chooseTarget(input: TargetInput, deps: Deps): {id: string; source?: string} | z.infer<typeof ambiguousSchema> | z.infer<typeof notFoundSchema> {
	if (input.id) {
		return {id: input.id, source: input.source};
	}

	try {
		const facts = unambiguousSession(deps, input.project);
		return {id: facts.id, source: facts.source ?? input.source};
	} catch (error) {
		if (error instanceof EngiError && (error.code === 'session_ambiguous' || error.code === 'session_required')) {
			const candidates = (error.details?.['candidates'] ?? []) as z.infer<typeof ambiguousSchema>['candidates'];
			const project = typeof error.details?.['project'] === 'string' ? error.details['project'] : null;
			// Here the session is named by a positional id, not by --session as for checkpoints.
			return error.code === 'session_ambiguous'
				? {status: 'ambiguous', project, count: candidates.length, candidates, message: `${candidates.length} candidate sessions in ${project ?? 'this project'}; name one by id`}
				: {status: 'not_found', project, message: `no unfinished session in ${project ?? 'this project'} since yesterday; name one by id (engi unfinished --all-projects --since 1w lists them)`};
		}

		throw error;
	}
}

export function engiReadCommand(located: LocatedSession, sourceRoot: string | undefined, lines: number[]): string {
	const root = sourceRoot ? ` --source-root ${JSON.stringify(sourceRoot)}` : '';
	return `engi read ${located.row.summary.id ?? located.row.key} --source ${located.row.source}${root} --lines ${lines.join(',')}`;
}

export function resumeCommands(located: LocatedSession, sourceRoot: string | undefined): {resume: string; native: string | null} {
	const id = located.row.summary.id ?? located.row.key;
	const root = sourceRoot ? ` --source-root ${JSON.stringify(sourceRoot)}` : '';
	return {resume: `engi resume ${id} --source ${located.row.source}${root}`, native: located.adapter.nativeResumeCommand(id, {parentId: located.row.summary.parent_id})};
}

export type ResumeInput = TargetInput & {
	readonly view: 'brief' | View;
	readonly budget: number;
	readonly exactTokens: boolean;
	readonly offset?: number;
	readonly limit?: number;
	readonly lines?: number[];
};

/** Builds the budgeted brief of one located session. */
export async function briefOf(located: LocatedSession, input: {budget: number; exactTokens: boolean; sourceRoot?: string; cwd: string}): Promise<Brief> {
	const checkpoint = checkpointLookup(input.cwd)(located.row.summary.project, located.row.summary.id ?? located.row.key);
	const full = buildFullBrief(located, checkpoint, resumeCommands(located, input.sourceRoot));
	const count = input.exactTokens ? await exactTokenCounter() : estimateTokens;
	return fitBrief(full, input.budget, count, {
		exact: input.exactTokens,
		schema: 'engi.resume.v1',
		expandCommands: lines => {
			const chunks: string[] = [];
			for (let index = 0; index < lines.length; index += 100) {
				chunks.push(engiReadCommand(located, input.sourceRoot, lines.slice(index, index + 100)));
			}

			return chunks;
		},
	});
}

/**
 * `engi resume`: the bounded, evidence-linked brief of a session (default), or a page of it in
 * another view. Without an id it picks the one unfinished session of the project, or answers
 * with the candidates.
 */
export async function resumeSession(input: ResumeInput, deps: Deps): Promise<ResumeOutput> {
	const target = chooseTarget(input, deps);
	if ('status' in target) {
		return target;
	}

	if (input.view !== 'brief') {
		// Only `engi read` shows a person their transcript raw; a page handed on like a brief is masked.
		const page: ReadOutput = readConversation({id: target.id, source: target.source, sourceRoot: input.sourceRoot, view: input.lines ? 'events' : input.view, offset: input.offset ?? 0, limit: input.limit ?? 20, lines: input.lines, masked: true}, deps);
		return page;
	}

	const located = locateSession({id: target.id, source: target.source, sourceRoot: input.sourceRoot}, deps);
	try {
		return await briefOf(located, {budget: input.budget, exactTokens: input.exactTokens, sourceRoot: input.sourceRoot, cwd: deps.cwd});
	} finally {
		located.view.close();
	}
}
