import * as z from 'zod/mini';
import type {SourceId} from '../../adapters/types.js';
import {withCatalogView} from '../catalog/view.js';
import type {StoreSelection} from '../catalog/targets.js';
import {normalizeSessionId} from '../conversation/ids.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {momentOf, nodeKind} from '../index/store.js';
import {withIndex} from '../index/open.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {conversationNodeId} from '../knowledge/conversation-node.js';
import {writeEvents} from '../knowledge/write.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import type {Database} from '../../lib/sqlite.js';
import {createAssessor} from './assess.js';
import type {BlockerCode} from './blockers.js';
import {findCandidate} from './find.js';
import {provenanceGaps, receiptsBySession, retentionKinds, type Pin} from './journal.js';
import {bundleSha256, pinTargets} from './pins.js';
import {retentionScope} from './plan.js';
import {retentionWindow} from './window.js';

export const pinSchema = lazySchema(() => z.object({path: z.string(), kind: z.enum(['file', 'directory']), bytes: z.number(), sha256: z.nullable(z.string())}));

export const attestOutputSchema = lazySchema(() => z.object({
	/** The receipt's node id: the same bytes attested again give the same id. */
	id: z.string(),
	/** False when the journal already held exactly this receipt. */
	appended: z.boolean(),
	session_id: z.string(),
	source: z.string(),
	conversation_node: z.string(),
	source_sha256: z.string(),
	source_bytes: z.number(),
	targets: z.array(pinSchema),
	knowledge_node_ids: z.array(z.string()),
	session_closed: z.literal(true),
}));

export type AttestOutput = z.infer<typeof attestOutputSchema>;

export type AttestInput = StoreSelection & {
	readonly id: string;
	readonly source: SourceId;
	readonly knowledgeNodes: readonly string[];
	readonly sessionClosed: boolean;
};

/** Gates that an attestation cannot pass: the others (age, checkpoints, children) only hold up a purge. */
const refusing: ReadonlySet<BlockerCode> = new Set(['source_not_separable', 'assessment_error', 'already_cleaned', 'session_active', 'session_activity_unknown']);

/**
 * Checks that every knowledge node exists and has a live DERIVED_FROM or DISCUSSED_IN edge to
 * the session's conversation node, which must exist too; throws naming what is missing.
 */
export function requireProvenance(db: Database, source: SourceId, id: string, knowledge: readonly string[], deps: Deps): void {
	const conversation = conversationNodeId(source, id);
	if (nodeKind(db, conversation) === undefined) {
		throw new EngiError('conversation_node_missing', `the knowledge base has no node ${conversation}`, {
			hint: `promote the session's knowledge (engi candidates promote) or record it: engi graph node --id ${conversation} --kind Conversation --label …`,
		});
	}

	const gaps = provenanceGaps(db, source, id, knowledge, momentOf(deps));
	if (gaps.missing.length > 0) {
		throw new EngiError('knowledge_node_missing', `no such knowledge node: ${gaps.missing.join(', ')}`, {hint: 'record the knowledge first (engi graph node)'});
	}

	if (gaps.unlinked.length > 0) {
		throw new EngiError('knowledge_provenance_missing', `${gaps.unlinked.join(', ')} ha${gaps.unlinked.length === 1 ? 's' : 've'} no live DERIVED_FROM or DISCUSSED_IN edge to ${conversation}`, {
			hint: `link each: engi graph relate --from <node> --edge DERIVED_FROM --to ${conversation}`,
		});
	}
}

export function receiptDraft(input: {source: SourceId; id: string; boundary: string; pins: readonly Pin[]; knowledge: readonly string[]; provenance: string}) {
	const sha = bundleSha256(input.pins, input.boundary);
	const bytes = input.pins.reduce((sum, pin) => sum + pin.bytes, 0);
	const payload = {
		id: `session-retention:${input.source}:${input.id}:${sha.slice(0, 16)}`,
		kind: retentionKinds.receipt,
		label: `retention receipt for ${input.source} session ${input.id}`,
		provenance: input.provenance,
		schema: 'engi.session-retention.v1',
		session_id: input.id,
		source: input.source,
		boundary: input.boundary,
		source_sha256: sha,
		source_bytes: bytes,
		targets: input.pins,
		knowledge_node_ids: [...input.knowledge],
		extraction_complete: true,
		session_closed: true,
	};
	return {op: 'node.upsert' as const, payload};
}

/**
 * `engi retention attest`: pins the session's bytes (sha256 and size of every file it is made of)
 * to knowledge nodes taken from it, in a SessionRetentionReceipt. The session must be closed
 * (the caller says so), separable, not held open, and every node linked to its conversation.
 */
export async function attestSession(input: AttestInput, paths: KbPaths, deps: Deps): Promise<AttestOutput> {
	const id = normalizeSessionId(input.id);
	if (!input.sessionClosed) {
		throw new EngiError('session_not_closed', 'engi retention attest needs --session-closed: say that the session is over and its knowledge extracted', {hint: 'add --session-closed once nothing will be written to the session again'});
	}

	requireKnowledgeBase(paths);
	const {pins, boundary} = await withIndex(paths, deps, index =>
		withCatalogView(retentionScope(input), deps, view => {
			const found = findCandidate(view, id);
			if (!found) {
				throw new EngiError('session_not_found', `conversation not found: ${id} (source ${input.source})`, {hint: 'engi retention plan --details lists the sessions retention sees'});
			}

			requireProvenance(index.db, input.source, id, input.knowledgeNodes, deps);

			const assessor = createAssessor({index: index.db, deps, window: retentionWindow(0, deps), receipts: receiptsBySession(index.db), examine: 'all'}, [found.candidate]);
			const assessment = assessor.assess(found.candidate, () => true, {openFilesMaxAgeMs: 0});
			const refusal = assessment.blockers.find(blocker => refusing.has(blocker.code));
			if (refusal) {
				throw new EngiError(refusal.code, `cannot attest ${id}: ${refusal.detail}`, {hint: refusal.code === 'session_active' ? 'close the session first, then attest' : 'engi retention plan --details shows every blocker'});
			}

			return {pins: pinTargets(assessment.scan!.targets), boundary: found.candidate.retirement!.boundary};
		}),
	);
	const draft = receiptDraft({source: input.source, id, boundary, pins, knowledge: input.knowledgeNodes, provenance: 'engi retention attest'});
	const result = await writeEvents(paths, deps, index => {
		// The graph may have changed since it was read: check again under the write.
		requireProvenance(index.db, input.source, id, input.knowledgeNodes, deps);
		return [draft];
	});
	const {payload} = draft;
	return {
		id: payload.id,
		appended: result.events.length > 0,
		session_id: id,
		source: input.source,
		conversation_node: conversationNodeId(input.source, id),
		source_sha256: payload.source_sha256,
		source_bytes: payload.source_bytes,
		targets: pins.map(pin => ({path: pin.path, kind: pin.kind, bytes: pin.bytes, sha256: pin.sha256 ?? null})),
		knowledge_node_ids: payload.knowledge_node_ids,
		session_closed: true,
	};
}
