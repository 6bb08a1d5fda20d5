import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {adapterContext, sourceRootArgument, type StoreSelection} from '../catalog/targets.js';
import type {AdapterContext} from '../../adapters/types.js';
import {withLocatedSession, type LocatedSession} from '../conversation/locate.js';
import {readOutputSchema} from '../conversation/read.js';
import {attachmentValueSchema, packetSchema, type Packet} from '../conversation/codec/schema.js';
import {encodeDocument, plainPage, readAttachment, readEncoded, type EncodeOptions} from '../conversation/packets.js';
import {previewLengthFor, type View} from '../conversation/views.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {estimateTokens, exactTokenCounter} from '../tokens.js';
import {buildFullBrief} from './brief.js';
import {briefSchema, type Brief} from './brief-schema.js';
import {fitBrief} from './budget.js';
import {unambiguousSession} from './checkpoint-ops.js';
import {isLocalDirectory} from '../../lib/project.js';
import {shellWord} from '../../lib/words.js';
import {checkpointLookup} from './unfinished.js';

export const ambiguousSchema = lazySchema(() => z.object({
	status: z.literal('ambiguous'),
	project: z.nullable(z.string()),
	count: z.number(),
	candidates: z.array(z.object({id: z.string(), source: z.string(), title: z.nullable(z.string()), modified: z.nullable(z.string())})),
	message: z.string(),
}));

export const notFoundSchema = lazySchema(() => z.object({status: z.literal('not_found'), project: z.nullable(z.string()), message: z.string()}));

export const resumeOutputSchema = lazySchema(() => z.union([briefSchema, readOutputSchema, packetSchema, attachmentValueSchema, ambiguousSchema, notFoundSchema]));
export type ResumeOutput = z.infer<typeof resumeOutputSchema>;

export type TargetInput = StoreSelection & {
	readonly id?: string;
	/** Without an id: the project whose unfinished session to choose, and since when. */
	readonly project?: string;
	readonly since?: string;
};

/** A chosen session: its id and the stores to find it in. */
export type Target = {id: string; stores: StoreSelection};

/** An id, or the one unfinished session of the project; ambiguity and absence are answers, not crashes. */
export async function chooseTarget(input: TargetInput, deps: Deps): Promise<Target | z.infer<typeof ambiguousSchema> | z.infer<typeof notFoundSchema>> {
	const stores = {source: input.source, sourceRoot: input.sourceRoot};
	if (input.id) {
		return {id: input.id, stores};
	}

	try {
		const facts = await unambiguousSession(deps, {...stores, project: input.project, since: input.since});
		// Explicit store roots pair with their sources, so keep the selection whole; else read just the candidate's source.
		return {id: facts.id, stores: input.sourceRoot === undefined && facts.source ? {source: facts.source} : stores};
	} catch (error) {
		if (error instanceof EngiError && (error.code === 'session_ambiguous' || error.code === 'session_required')) {
			const candidates = (error.details?.['candidates'] ?? []) as z.infer<typeof ambiguousSchema>['candidates'];
			const project = typeof error.details?.['project'] === 'string' ? error.details['project'] : null;
			// Here the session is named by a positional id, not by --session as for checkpoints.
			return error.code === 'session_ambiguous'
				? {status: 'ambiguous', project, count: candidates.length, candidates, message: `${candidates.length} candidate sessions in ${project ?? 'this project'}; name one by id`}
				: {status: 'not_found', project, message: `no unfinished session in ${project ?? 'this project'} since ${input.since ?? 'yesterday'}; name one by id, or look further back with --since (engi unfinished --all-projects --since 1w lists them)`};
		}

		throw error;
	}
}

export function engiReadCommand(located: LocatedSession, lines: number[]): string {
	return `engi read ${located.row.summary.id ?? located.row.key} --source ${located.row.source}${sourceRootArgument(located.typedRoot)} --lines ${lines.join(',')}`;
}

/**
 * The commands that continue a session: engi's brief, and the tool's own resume, run from the
 * session's project (tools such as Claude Code find a session only from its directory) when that
 * directory is on this machine.
 */
export function resumeCommands(located: LocatedSession, context?: AdapterContext): ResumeCommands {
	const id = located.row.summary.id ?? located.row.key;
	const facts = {parentId: located.row.summary.parent_id, root: located.row.root, path: located.unit.path, ...(context ? {context} : {})};
	const unavailable = located.adapter.nativeResumeUnavailable?.(located.row.root, facts);
	const native = unavailable === undefined ? located.adapter.nativeResumeCommand(id, facts) : null;
	const project = located.row.summary.project;
	return {
		resume: `engi resume ${id} --source ${located.row.source}${sourceRootArgument(located.typedRoot)}`,
		native: native && project && isLocalDirectory(project) ? `cd ${shellWord(project)} && ${native}` : native,
		...(unavailable === undefined ? {} : {nativeUnavailable: unavailable}),
	};
}

/** engi's resume, the tool's own (null where it has none), and why the tool's cannot run from a terminal, where the store says. */
export type ResumeCommands = {resume: string; native: string | null; nativeUnavailable?: string};

/** The largest brief, in o200k tokens, unless told otherwise. */
export const briefBudget = 2000;

export type ResumeInput = TargetInput & {
	readonly view: 'brief' | View;
	readonly budget?: number;
	readonly exactTokens?: boolean;
	readonly offset?: number;
	readonly limit?: number;
	readonly lines?: number[];
	/** How the brief or page is printed (compact and deltas unless turned off). */
	readonly encoding?: EncodeOptions;
	readonly prune?: boolean;
	/** `--preview-chars` as given, for the context view (conversation/read.ts). */
	readonly previewChars?: string;
	/** `--attachment`: the value behind one attachment reference, from the masked record. */
	readonly attachment?: {line: number; pointer: string; sha256: string};
};

/** `context`: the machine's, for the tool's own resume command (resumeCommands). */
type BriefInput = {budget: number; exactTokens: boolean; cwd: string; context?: AdapterContext};

/**
 * Builds the budgeted brief of one located session, encoded as asked; the budget and the
 * brief's `tokens` are of the document as printed, packet and all.
 */
export async function briefOf(located: LocatedSession, input: BriefInput): Promise<Brief>;
export async function briefOf(located: LocatedSession, input: BriefInput & {encoding: EncodeOptions | undefined}): Promise<Brief | Packet>;
export async function briefOf(located: LocatedSession, input: BriefInput & {encoding?: EncodeOptions}): Promise<Brief | Packet> {
	const checkpoint = checkpointLookup(input.cwd)(located.row.summary.project, located.row.summary.id ?? located.row.key);
	const full = buildFullBrief(located, checkpoint, resumeCommands(located, input.context));
	const count = input.exactTokens ? await exactTokenCounter() : estimateTokens;
	const encode = (brief: Brief) => encodeDocument(brief, input.encoding ?? plainPage);
	const fitted = fitBrief(full, input.budget, count, {
		exact: input.exactTokens,
		schema: 'engi.resume.v1',
		encode,
		expandCommands: lines => {
			const chunks: string[] = [];
			for (let index = 0; index < lines.length; index += 100) {
				chunks.push(engiReadCommand(located, lines.slice(index, index + 100)));
			}

			return chunks;
		},
	});
	return encode(fitted);
}

/**
 * `engi resume`: the bounded, evidence-linked brief of a session (default), or a page of it in
 * another view. Without an id it picks the one unfinished session of the project, or answers
 * with the candidates.
 */
export async function resumeSession(input: ResumeInput, deps: Deps): Promise<ResumeOutput> {
	previewLengthFor(input.lines ? 'events' : input.view, input.previewChars);
	const target = await chooseTarget(input, deps);
	if ('status' in target) {
		return target;
	}

	// Only `engi read` shows a person their transcript raw; a page handed on like a brief is masked.
	if (input.attachment) {
		return readAttachment({id: target.id, ...target.stores, ...input.attachment, masked: true}, deps);
	}

	if (input.view !== 'brief') {
		return readEncoded({id: target.id, ...target.stores, view: input.lines ? 'events' : input.view, offset: input.offset, limit: input.limit, lines: input.lines, masked: true, prune: input.prune, previewChars: input.previewChars, encoding: input.encoding ?? plainPage}, deps);
	}

	return withLocatedSession({id: target.id, ...target.stores}, deps, async located => briefOf(located, {budget: input.budget ?? briefBudget, exactTokens: Boolean(input.exactTokens), cwd: deps.cwd, context: adapterContext(deps), encoding: input.encoding}));
}
