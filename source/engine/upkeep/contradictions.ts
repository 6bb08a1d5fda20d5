import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {sha256Hex} from '../../lib/hash.js';
import type {Database} from '../../lib/sqlite.js';
import {nodeSha256} from '../evidence/node-hash.js';
import {liveEdgeCondition, momentOf, type Moment} from '../index/store.js';
import {withIndex} from '../index/open.js';
import {allNodes} from '../index/upkeep-state.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {stopwords} from '../search/stopwords.js';
import {textOf} from './dream-steps.js';
import {bookkeepingKinds, entityKind, sourceKind} from './vocabulary.js';

/** How many pairs a packet offers and how many bytes of node text it carries, unless told otherwise. */
export const contradictionDefaults = {maxPairs: 20, maxBytes: 64 * 1024} as const;

/** The edge a proposal asserts, and the edges that already settle a pair (it is not offered again). */
export const contradictsEdge = 'CONTRADICTS';
const settlingEdges = [contradictsEdge, 'SUPERSEDES'];

/** Kinds that hold no claim of their own: sessions, projects, entities, sources. */
const claimless = new Set(['Conversation', 'Project', entityKind, sourceKind, ...bookkeepingKinds]);

/** A word shared by more nodes than this says nothing about a pair (and would make pairs by the million). */
const maxWordNodes = 50;
const minShared = 2;

const packetRefSchema = z.object({sha256: z.string(), as_of: z.string(), max_pairs: z.number(), max_bytes: z.number()});
export type PacketRef = z.infer<typeof packetRefSchema>;

export const proposalRules = [
	'Reply with one JSON document and nothing else, matching the JSON Schema below.',
	'packet: copy the packet object of this packet unchanged.',
	'model: who you are (a model name).',
	'contradictions: for each pair whose nodes cannot both be true, {from, to, text, units}: from and to are unit numbers, text says why in one sentence, units cites every unit the reason rests on, from and to included.',
	'A proposal that cites no unit, a unit that does not exist or was not served, or leaves out one of its two ends is dropped; a packet whose nodes changed since it was made is refused whole.',
	'Leave the list empty rather than guess. Nothing is written until a person approves what passes.',
];

export const contradictionPacketSchema = z.object({
	status: z.literal('prepared'),
	/** Copy this into the proposal: accept makes the packet again from it and refuses one that differs. */
	packet: packetRefSchema,
	/** The nodes, numbered: each with its exact text (label, title and body) and the hash that pins it. */
	units: z.array(z.object({n: z.number(), node_id: z.string(), kind: z.nullable(z.string()), observed_utc: z.string(), node_sha256: z.string(), text: z.string()})),
	/** Candidate pairs, best first: nodes that share words and are not yet linked by CONTRADICTS or SUPERSEDES. */
	pairs: z.array(z.object({a: z.number(), b: z.number(), shared: z.array(z.string()), score: z.number()})),
	/** Candidates found; offered: how many fit the bounds; bytes: of unit text carried. */
	counts: z.object({nodes: z.number(), candidates: z.number(), offered: z.number(), left_out: z.number(), bytes: z.number()}),
	rules: z.array(z.string()),
	proposal_schema: z.record(z.string(), z.unknown()),
	/** The command that takes a proposal through the citation filter (a dry run: add --approve to write). */
	accept: z.array(z.string()),
});

export type ContradictionPacket = z.infer<typeof contradictionPacketSchema>;
export type PacketUnit = ContradictionPacket['units'][number];

/** What a proposal holds, as accept parses it. */
export const proposalSchema = z.object({
	packet: packetRefSchema,
	model: z.string().check(z.trim(), z.minLength(1)),
	contradictions: z.array(z.object({from: z.number(), to: z.number(), text: z.string(), units: z.array(z.number())})),
});

export type ContradictionProposal = z.infer<typeof proposalSchema>;

/** The words a node's text is compared by: Latin words of three letters or more, Han character pairs. */
function wordsOf(text: string): Set<string> {
	const words = new Set<string>();
	for (const piece of text.normalize('NFKC').toLowerCase().match(/\p{Script=Han}+|[\p{L}\p{N}]+/gu) ?? []) {
		if (/\p{Script=Han}/u.test(piece)) {
			const chars = [...piece];
			for (let index = 0; index + 1 < chars.length; index++) {
				words.add(chars[index]! + chars[index + 1]!);
			}
		} else if (piece.length >= 3 && !stopwords.has(piece)) {
			words.add(piece);
		}
	}

	return words;
}

/** Pairs already settled by a live CONTRADICTS or SUPERSEDES edge, either way round. */
function settledPairs(db: Database, moment: Moment): Set<string> {
	const live = liveEdgeCondition(moment);
	const rows = db.prepare(`SELECT e.from_id, e.to_id FROM edges e WHERE e.type IN (${settlingEdges.map(() => '?').join(', ')}) AND ${live.sql}`).raw().all(...settlingEdges, ...live.params) as Array<[string, string]>;
	return new Set(rows.map(([from, to]) => (from < to ? `${from}\u0000${to}` : `${to}\u0000${from}`)));
}

/**
 * The packet, as of a moment: every node with a claim of its own, compared by the words it
 * shares with others (a word too common to tell pairs apart is left out), pairs ordered by
 * overlap (Jaccard) then by ids, offered best first while they fit `maxPairs` and `maxBytes` of
 * node text. The same journal, moment and bounds make the same packet, byte for byte.
 */
export function buildPacket(db: Database, moment: Moment, bounds: {maxPairs: number; maxBytes: number}): ContradictionPacket {
	const asOf = moment.asOf;
	const nodes = allNodes(db).filter(node => node.observed_utc <= asOf && node.payload['missing'] !== true && !(node.kind !== null && claimless.has(node.kind)));
	const texts = nodes.map(node => textOf(node.payload));
	const words = texts.map(text => wordsOf(text));
	const byWord = new Map<string, number[]>();
	words.forEach((set, index) => {
		for (const word of set) {
			const list = byWord.get(word);
			if (list) {
				list.push(index);
			} else {
				byWord.set(word, [index]);
			}
		}
	});
	const shared = new Map<number, string[]>();
	for (const [word, list] of byWord) {
		if (list.length < 2 || list.length > maxWordNodes) {
			continue;
		}

		for (let x = 0; x < list.length; x++) {
			for (let y = x + 1; y < list.length; y++) {
				const key = list[x]! * nodes.length + list[y]!;
				const found = shared.get(key);
				if (found) {
					found.push(word);
				} else {
					shared.set(key, [word]);
				}
			}
		}
	}

	const settled = settledPairs(db, moment);
	const candidates = [...shared].flatMap(([key, common]) => {
		const a = Math.floor(key / nodes.length);
		const b = key % nodes.length;
		const [first, second] = [nodes[a]!.id, nodes[b]!.id].sort();
		if (common.length < minShared || settled.has(`${first}\u0000${second}`)) {
			return [];
		}

		return [{a, b, shared: common.sort(), score: Math.round((common.length / (words[a]!.size + words[b]!.size - common.length)) * 1000) / 1000}];
	});
	candidates.sort((x, y) => y.score - x.score || (nodes[x.a]!.id < nodes[y.a]!.id ? -1 : nodes[x.a]!.id > nodes[y.a]!.id ? 1 : nodes[x.b]!.id < nodes[y.b]!.id ? -1 : 1));
	const unitOf = new Map<number, PacketUnit>();
	const units: PacketUnit[] = [];
	const pairs: ContradictionPacket['pairs'] = [];
	let bytes = 0;
	for (const candidate of candidates) {
		if (pairs.length === bounds.maxPairs) {
			break;
		}

		const fresh = [candidate.a, candidate.b].filter(index => !unitOf.has(index));
		const cost = fresh.reduce((sum, index) => sum + Buffer.byteLength(texts[index]!), 0);
		if (bytes + cost > bounds.maxBytes) {
			continue;
		}

		bytes += cost;
		for (const index of fresh) {
			const node = nodes[index]!;
			const unit = {n: units.length + 1, node_id: node.id, kind: node.kind, observed_utc: node.observed_utc, node_sha256: nodeSha256(node.payload), text: texts[index]!};
			units.push(unit);
			unitOf.set(index, unit);
		}

		pairs.push({a: unitOf.get(candidate.a)!.n, b: unitOf.get(candidate.b)!.n, shared: candidate.shared, score: candidate.score});
	}

	const sha256 = sha256Hex(JSON.stringify({as_of: asOf, bounds, units: units.map(unit => [unit.node_id, unit.node_sha256]), pairs: pairs.map(pair => [pair.a, pair.b])}));
	const packet = {sha256, as_of: asOf, max_pairs: bounds.maxPairs, max_bytes: bounds.maxBytes};
	return {
		status: 'prepared',
		packet,
		units,
		pairs,
		counts: {nodes: nodes.length, candidates: candidates.length, offered: pairs.length, left_out: candidates.length - pairs.length, bytes},
		rules: proposalRules,
		proposal_schema: z.toJSONSchema(proposalSchema, {io: 'input'}) as Record<string, unknown>,
		accept: ['engi', 'dream', '--accept', 'contradictions', '--file', '<proposal.json>'],
	};
}

/**
 * `engi dream --prepare contradictions`: step 8 of Inkstone's cycle needs a model, and engi never
 * calls one: it prints the evidence a model needs to judge which candidate pairs contradict, and
 * writes nothing.
 */
export async function prepareContradictions(paths: KbPaths, input: {maxPairs?: number; maxBytes?: number}, deps: Deps): Promise<ContradictionPacket> {
	requireKnowledgeBase(paths);
	return withIndex(paths, deps, index => buildPacket(index.db, momentOf(deps), {maxPairs: input.maxPairs ?? contradictionDefaults.maxPairs, maxBytes: input.maxBytes ?? contradictionDefaults.maxBytes}));
}
