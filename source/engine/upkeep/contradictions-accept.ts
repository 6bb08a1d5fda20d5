import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {sha256Hex} from '../../lib/hash.js';
import {parseInputJson, readBoundedInput} from '../../lib/bounded-input.js';
import {citationRefusal, dropReasons} from '../candidates/filter.js';
import {createRedactor, redactionSchema} from '../candidates/redactor.js';
import {validateRelation} from '../graph/validate.js';
import {withIndex} from '../index/open.js';
import {nodeKind, momentOf} from '../index/store.js';
import type {EventDraft} from '../journal/append.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import {buildPacket, contradictsEdge, proposalSchema, type ContradictionPacket, type ContradictionProposal} from './contradictions.js';
import {dreamProvenance} from './vocabulary.js';

/** Proposals a file may hold, and the characters of a reason kept. */
const proposalLimit = 500;
const reasonLimit = 1000;

const acceptDropReasons = [...dropReasons, 'endpoint_not_cited', 'same_node'] as const;

export const contradictionAcceptSchema = z.object({
	/** checked: filtered, nothing written (approve to write); applied: the approved proposals are in the journal. */
	status: z.enum(['checked', 'applied']),
	packet_sha256: z.string(),
	model: z.string(),
	/** Proposals that passed the citation filter, reasons masked; `index` is the proposal's place in the file, from 0. */
	kept: z.array(z.object({index: z.number(), from: z.string(), to: z.string(), text: z.string(), units: z.array(z.number())})),
	/** Every proposal the filter refused, with the reason: none is dropped silently. */
	dropped: z.array(z.object({index: z.number(), text: z.string(), units: z.array(z.number()), reason: z.enum(acceptDropReasons), detail: z.string()})),
	masked: z.array(redactionSchema),
	/** What a reviewer approves: the packet and the kept proposals. --approve needs it back (--review-sha256), so what is written is what was reviewed. */
	review_sha256: z.string(),
	approved: z.array(z.number()),
	reviewer: z.nullable(z.string()),
	events: z.object({appended: z.number(), unchanged: z.number()}),
	/** After review: the command that writes every kept proposal (name fewer in --approve). */
	approve: z.nullable(z.array(z.string())),
});

export type ContradictionAccept = z.infer<typeof contradictionAcceptSchema>;

export type AcceptInput = {
	readonly file: string;
	/** Indexes of kept proposals to write, or all of them; absent: a dry run. */
	readonly approve?: 'all' | readonly number[];
	readonly reviewer?: string;
	readonly reviewSha256?: string;
};

/** The proposal file as a proposal, or a typed error naming what is wrong (never its content). */
async function readProposal(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<ContradictionProposal> {
	const name = file === '-' ? 'stdin' : file;
	const parsed = proposalSchema.safeParse(parseInputJson(await readBoundedInput(file, stdin, cwd, 1024 * 1024), name));
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw new EngiError('invalid_contradictions', `${name}: ${issue?.path.map(String).join('.') || 'document'}: ${issue?.message ?? 'invalid'}`, {hint: 'nothing was written; engi dream --prepare contradictions prints the schema a proposal follows'});
	}

	if (parsed.data.contradictions.length > proposalLimit) {
		throw new EngiError('invalid_contradictions', `${name}: ${parsed.data.contradictions.length} proposals, more than ${proposalLimit}`, {hint: 'nothing was written; split the proposals over several files'});
	}

	return parsed.data;
}

/** Each proposal through the citation filter against the served units, then its two ends checked. */
function filterProposals(proposal: ContradictionProposal, packet: ContradictionPacket) {
	const served = new Map(packet.units.map(unit => [unit.n, unit]));
	const window = {total: packet.units.length, served};
	const redactor = createRedactor();
	const shown = createRedactor();
	const kept: ContradictionAccept['kept'] = [];
	const dropped: ContradictionAccept['dropped'] = [];
	for (const [index, claim] of proposal.contradictions.entries()) {
		const units = [...new Set(claim.units)].sort((x, y) => x - y);
		const refused = citationRefusal({text: claim.text, turns: units}, window, {noun: 'unit', whole: 'the packet', reader: 'the model'})
			?? (!served.has(claim.from) || !served.has(claim.to) ? {reason: 'unknown_turn' as const, detail: `from ${claim.from} or to ${claim.to} is not a unit of the packet`} : undefined)
			?? (claim.from === claim.to ? {reason: 'same_node' as const, detail: 'a node cannot contradict itself'} : undefined)
			?? (!units.includes(claim.from) || !units.includes(claim.to) ? {reason: 'endpoint_not_cited' as const, detail: `the units cited must include both ends (${claim.from} and ${claim.to})`} : undefined);
		if (refused) {
			dropped.push({index, text: shown.clip(claim.text, 300, {field: `contradictions[${index}]`, line: null}, {oneLine: true}), units, ...refused});
		} else {
			const text = redactor.clip(claim.text.trim(), reasonLimit, {field: `contradictions[${index}]`, line: null}, {oneLine: true});
			kept.push({index, from: served.get(claim.from)!.node_id, to: served.get(claim.to)!.node_id, text, units});
		}
	}

	return {kept, dropped, masked: redactor.found};
}

/** The edge a reviewed proposal becomes: CONTRADICTS, with its reason, its citations pinned by hash, the model and the reviewer. */
function edgeDraft(entry: ContradictionAccept['kept'][number], packet: ContradictionPacket, model: string, reviewer: string): EventDraft {
	const byN = new Map(packet.units.map(unit => [unit.n, unit]));
	return {
		op: 'edge.assert',
		payload: {
			from: entry.from,
			type: contradictsEdge,
			to: entry.to,
			provenance: `${dreamProvenance} --accept contradictions`,
			reason: entry.text,
			citations: entry.units.map(n => ({node_id: byN.get(n)!.node_id, node_sha256: byN.get(n)!.node_sha256})),
			packet_sha256: packet.packet.sha256,
			model,
			reviewer,
		},
	};
}

/**
 * `engi dream --accept contradictions --file F`: a model's proposals (made from the packet
 * `--prepare contradictions` printed) through the candidates' citation filter, against that very
 * packet made again from the proposal's `packet` (refused whole when the knowledge base changed
 * since). Without `--approve` it writes nothing and prints what a reviewer approves, with its
 * hash; with `--approve`, `--reviewer` and that hash, it appends the approved proposals as
 * CONTRADICTS edges, idempotently. engi never calls a model; nothing is written unreviewed.
 */
export async function acceptContradictions(paths: KbPaths, input: AcceptInput, stdin: NodeJS.ReadableStream, deps: Deps): Promise<ContradictionAccept> {
	requireKnowledgeBase(paths);
	const proposal = await readProposal(input.file, stdin, deps.cwd);
	const ref = proposal.packet;
	const packet = await withIndex(paths, deps, index => buildPacket(index.db, momentOf(deps, ref.as_of), {maxPairs: ref.max_pairs, maxBytes: ref.max_bytes}));
	if (packet.packet.sha256 !== ref.sha256 || packet.packet.as_of !== ref.as_of) {
		throw new EngiError('packet_changed', `the packet ${ref.sha256.slice(0, 12)} (as of ${ref.as_of}) is not what the knowledge base gives now: a node in it changed, or the packet object was edited`, {hint: 'nothing was written; prepare a new packet with engi dream --prepare contradictions and propose again'});
	}

	const model = createRedactor().clip(proposal.model, 200, {field: 'model', line: null}, {oneLine: true});
	const {kept, dropped, masked} = filterProposals(proposal, packet);
	const reviewSha256 = sha256Hex(JSON.stringify({packet: ref.sha256, model, kept}));
	const base = {packet_sha256: ref.sha256, model, kept, dropped, masked, review_sha256: reviewSha256};
	if (input.approve === undefined) {
		const approve = kept.length === 0 ? null : ['engi', 'dream', '--accept', 'contradictions', '--file', input.file, '--approve', 'all', '--reviewer', '<name>', '--review-sha256', reviewSha256];
		return {status: 'checked', ...base, approved: [], reviewer: null, events: {appended: 0, unchanged: 0}, approve};
	}

	const reviewer = input.reviewer?.trim();
	if (!reviewer) {
		throw new EngiError('missing_flag', '--approve needs --reviewer <name>: who reviewed the proposals', {hint: 'nothing was written'});
	}

	if (input.reviewSha256 !== reviewSha256) {
		throw new EngiError('review_changed', `--review-sha256 ${input.reviewSha256 ?? '(none)'} is not the hash of these proposals (${reviewSha256})`, {hint: 'nothing was written; run the dry run again (without --approve), review it, and pass the review_sha256 it prints'});
	}

	const approved = input.approve === 'all' ? kept : input.approve.map(index => kept.find(entry => entry.index === index) ?? failApprove(index));
	const written = await writeEvents(paths, deps, index => {
		const kindOf = (id: string) => nodeKind(index.db, id);
		return approved.map(entry => {
			const draft = edgeDraft(entry, packet, model, reviewer);
			validateRelation({from: entry.from, type: contradictsEdge, to: entry.to, provenance: String(draft.payload['provenance']), allowDangling: false}, kindOf);
			return draft;
		});
	});
	return {status: 'applied', ...base, approved: approved.map(entry => entry.index), reviewer, events: {appended: written.events.length, unchanged: written.unchanged.length + written.present.length}, approve: null};
}

function failApprove(index: number): never {
	throw new EngiError('invalid_flag_value', `--approve ${index}: no kept proposal has that index`, {hint: 'nothing was written; approve indexes from the kept list of the dry run, or all'});
}
