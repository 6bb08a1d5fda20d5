import type {SourceId} from '../../adapters/types.js';
import type {EventDraft} from '../journal/append.js';

/**
 * The knowledge graph's name for one native session: `conversation:<source>:<native id>`.
 * Candidates promote it (issue: sessions become knowledge) and retention attests against it, so
 * both build it here, and a session keeps one node whichever path reaches it first.
 */
export function conversationNodeId(source: SourceId, nativeId: string): string {
	return `conversation:${source}:${nativeId}`;
}

export type ConversationFacts = {
	readonly source: SourceId;
	readonly nativeId: string;
	/** The transcript file (or folder) as the adapter located it. */
	readonly sourcePath: string;
	/** sha256 and byte count of the transcript when it was read: what the knowledge was taken from. */
	readonly sourceSha256: string;
	readonly sourceBytes: number;
	readonly project: string | null;
	readonly title: string | null;
	readonly provenance: string;
};

/** The `node.upsert` that records a session as a Conversation node (a core kind). */
export function conversationNodeDraft(facts: ConversationFacts): EventDraft {
	return {
		op: 'node.upsert',
		payload: {
			id: conversationNodeId(facts.source, facts.nativeId),
			kind: 'Conversation',
			label: facts.title ?? `${facts.source} session ${facts.nativeId}`,
			source: facts.source,
			native_id: facts.nativeId,
			source_path: facts.sourcePath,
			source_sha256: facts.sourceSha256,
			source_bytes: facts.sourceBytes,
			...(facts.project === null ? {} : {project: facts.project}),
			provenance: facts.provenance,
		},
	};
}
