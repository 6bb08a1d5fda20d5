import * as z from 'zod/mini';
import {lazySchema} from '../../lib/lazy-schema.js';
import {canonicalJson} from '../journal/canonical.js';
import type {Snapshot, SnapshotEdge} from './snapshot.js';

export const claimBoundary =
	'This packet shows what the journal recorded, observed by as_of, for the listed facts only: each entry is cited to its journal lines. It does not show that a recorded fact is true, nor anything outside the packet.';

const citationSchema = lazySchema(() => z.object({line: z.number(), event: z.string(), at: z.string()}));

export const packetSchema = lazySchema(() => z.object({
	question: z.string(),
	as_of: z.string(),
	scope_receipt: z.string(),
	journal_sha256: z.string(),
	facts: z.array(z.object({fact: z.string(), roots: z.array(z.string()), description: z.optional(z.string())})),
	evidence: z.array(z.object({id: z.string(), node: z.record(z.string(), z.unknown()), node_sha256: z.string(), journal_citations: z.array(citationSchema)})),
	dependency_paths: z.array(
		z.object({
			from: z.string(),
			to: z.string(),
			type: z.string(),
			observed_utc: z.string(),
			valid_from: z.string(),
			valid_until: z.nullable(z.string()),
			provenance: z.string(),
			journal_citations: z.array(citationSchema),
		}),
	),
	claim_boundary: z.string(),
}));

export type Packet = z.infer<typeof packetSchema>;
export type PacketFact = Packet['facts'][number];
export type PacketEvidence = Packet['evidence'][number];
export type PacketPath = Packet['dependency_paths'][number];

export type PacketHead = Pick<Packet, 'question' | 'as_of' | 'scope_receipt' | 'journal_sha256'>;

/**
 * How a packet is rendered for a model, and so what its tokens are counted on: JSON with every
 * entry on a line of its own and a line holding only "," between entries. That text parses to
 * the packet object. It is also what makes the count exact per entry: o200k's pre-tokeniser
 * always splits right after a newline that is followed by `{`, `,` or `]` (no piece runs across
 * it, and the long-run cut of tokens.ts restarts at whitespace), so the packet's count is the
 * sum of its lines' counts, each line counted with its newline, whatever the entries around it.
 */
export const packetLayout = {
	head: ({question, as_of, scope_receipt, journal_sha256}: PacketHead) => `${JSON.stringify({question, as_of, scope_receipt, journal_sha256}).slice(0, -1)},"facts":[`,
	evidenceOpen: '],"evidence":[',
	pathsOpen: '],"dependency_paths":[',
	tail: (boundary: string) => `],"claim_boundary":${JSON.stringify(boundary)}}`,
	separator: ',',
} as const;

/** The lines that never change with the chosen alternatives. */
export function fixedLines(head: PacketHead): string[] {
	return [packetLayout.head(head), packetLayout.evidenceOpen, packetLayout.pathsOpen, packetLayout.tail(claimBoundary)];
}

export function factEntry(fact: {id: string; description?: string}, roots: readonly string[]): PacketFact {
	return {fact: fact.id, roots: [...roots], ...(fact.description === undefined ? {} : {description: fact.description})};
}

/** A node as cited: its keys sorted at every depth, exactly as its hash reads it. */
export function evidenceEntry(snapshot: Snapshot, id: string, nodeSha256: string): PacketEvidence {
	return {id, node: JSON.parse(canonicalJson(snapshot.nodes.get(id)!)) as Record<string, unknown>, node_sha256: nodeSha256, journal_citations: [...(snapshot.citations.get(id) ?? [])]};
}

export function pathEntry(edge: SnapshotEdge): PacketPath {
	return {
		from: edge.from,
		to: edge.to,
		type: edge.type,
		observed_utc: edge.observed_utc,
		valid_from: edge.valid_from,
		valid_until: edge.valid_until,
		provenance: edge.provenance ?? '',
		journal_citations: [{line: edge.line, event: edge.event, at: edge.observed_utc}],
	};
}

/** One entry's line (without its newline). */
export const entryLine = (entry: PacketFact | PacketEvidence | PacketPath) => JSON.stringify(entry);

/** The packet's full text, every line ending in a newline. */
export function renderPacket(packet: Packet): string {
	const section = (entries: ReadonlyArray<PacketFact | PacketEvidence | PacketPath>) => entries.flatMap((entry, index) => (index === 0 ? [entryLine(entry)] : [packetLayout.separator, entryLine(entry)]));
	const lines = [
		packetLayout.head(packet),
		...section(packet.facts),
		packetLayout.evidenceOpen,
		...section(packet.evidence),
		packetLayout.pathsOpen,
		...section(packet.dependency_paths),
		packetLayout.tail(packet.claim_boundary),
	];
	return lines.map(line => `${line}\n`).join('');
}
