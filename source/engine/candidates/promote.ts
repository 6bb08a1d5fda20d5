import {relative} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {validateNodeKind, validateRelation} from '../graph/validate.js';
import type {EventDraft} from '../journal/append.js';
import {nodeKind} from '../index/store.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {conversationNodeDraft, conversationNodeId} from '../knowledge/conversation-node.js';
import {listProjects} from '../knowledge/project-resolve.js';
import {writeEvents} from '../knowledge/write.js';
import {clipMasked} from '../search/secrets.js';
import {checkpointSchema, type Checkpoint} from '../continuity/checkpoint-schema.js';
import {appendCheckpoint, checkpointsPath, checkpointWriteRoot} from '../continuity/checkpoints.js';
import {sha256Hex} from '../../lib/hash.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {isLocalDirectory, projectName} from '../../lib/project.js';
import {pauseAt} from '../../lib/test-pause.js';
import type {Database} from '../../lib/sqlite.js';
import {renderNote, type CandidateNote, type Claim} from './note.js';
import {withUnchangedNote} from './note-store.js';
import {findEntry, pendingNote, reviewNotesOf} from './queue.js';

export const promoteOutputSchema = lazySchema(() => z.object({
	status: z.literal('promoted'),
	ref: z.string(),
	path: z.string(),
	conversation: z.string(),
	/** The session's outcome node (kind SessionOutcome), DERIVED_FROM the conversation. */
	outcome: z.string(),
	/** Every node the batch wrote or confirmed: the conversation, the outcome, its project, decisions and blocker tasks. */
	nodes: z.array(z.string()),
	/** The Project node everything BELONGS_TO: the one recorded with the project's path, or a new one. */
	project_node: z.string(),
	events: z.object({appended: z.number(), unchanged: z.number()}),
	checkpoint: z.object({path: z.string(), checkpoint: checkpointSchema}),
	quarantined: z.array(z.object({line: z.number(), reason: z.string()})),
}));

export type PromoteOutput = z.infer<typeof promoteOutputSchema>;

/** The custom node kind of a promoted session's outcome: what it was asked, showed and left open. */
export const outcomeKind = 'SessionOutcome';

const short = (text: string, limit = 200) => clipMasked(text, limit, {oneLine: true}).text;

/** The Project node a directory is recorded under, found by its path; a new one when the graph has none. */
function projectNode(db: Database, root: string, provenance: string): {id: string; draft?: EventDraft} {
	const existing = listProjects(db).find(project => project.path !== null && project.path.replace(/\/+$/, '') === root);
	if (existing) {
		return {id: existing.id};
	}

	const name = projectName(root).toLowerCase().replaceAll(/[^a-z\d._-]+/g, '-') || 'project';
	const id = nodeKind(db, `project:${name}`) !== undefined ? `project:${name}-${sha256Hex(root).slice(0, 8)}` : `project:${name}`;
	return {id, draft: {op: 'node.upsert', payload: {id, kind: 'Project', label: projectName(root), path: root, provenance}}};
}

type Link = {from: string; type: string; to: string};

/**
 * The one journal batch of a promotion: the Conversation node, the outcome node DERIVED_FROM
 * it, a Decision for each decided claim and a blocked Task for each blocker (both DERIVED_FROM
 * the conversation), everything BELONGS_TO the project. Every node and edge is checked by the
 * graph's own rules before anything is appended.
 */
function promotionDrafts(db: Database, note: CandidateNote, ref: string, notePath: string, projectRoot: string): {drafts: EventDraft[]; nodes: string[]; project: string} {
	const provenance = `engi candidates promote ${notePath}`;
	const conversation = conversationNodeId(note.source, note.native_id);
	const session = `${note.source}:${note.native_id}`;
	const project = projectNode(db, projectRoot, provenance);
	const title = note.first_request === null ? null : short(note.first_request.text, 120);
	const outcome = `outcome:${session}`;
	const texts = (claims: readonly Claim[]) => claims.map(claim => ({text: claim.text, turns: claim.turns}));
	const nodes: EventDraft[] = [
		conversationNodeDraft({source: note.source, nativeId: note.native_id, sourcePath: note.source_path, sourceSha256: note.source_sha256, sourceBytes: note.source_bytes, project: note.project, title, provenance}),
		{
			op: 'node.upsert',
			payload: {
				id: outcome,
				kind: validateNodeKind(outcomeKind, provenance),
				label: title ?? `${note.source} session ${note.native_id}`,
				provenance,
				candidate: ref,
				source_sha256: note.source_sha256,
				tier: note.tier,
				...(note.model === null ? {} : {model: note.model}),
				turns: note.turns,
				files: note.files.map(file => file.path),
				commands: note.command_counts,
				verified: texts(note.verified),
				failed: texts(note.failed),
				blockers: note.blockers.map(claim => claim.text),
				decided: texts(note.decided),
				...(note.next === null ? {} : {next_action: note.next}),
			},
		},
	];
	if (project.draft) {
		nodes.push(project.draft);
	}

	const links: Link[] = [
		{from: outcome, type: 'DERIVED_FROM', to: conversation},
		{from: conversation, type: 'BELONGS_TO', to: project.id},
		{from: outcome, type: 'BELONGS_TO', to: project.id},
	];
	const itemOf = (kind: 'Decision' | 'Task', prefix: string, claim: Claim, extra: Record<string, unknown>) => {
		const id = `${prefix}:${session}:${sha256Hex(claim.text).slice(0, 12)}`;
		nodes.push({op: 'node.upsert', payload: {id, kind, label: short(claim.text), body: claim.text, turns: claim.turns, provenance, ...extra}});
		links.push({from: id, type: 'DERIVED_FROM', to: conversation}, {from: id, type: 'BELONGS_TO', to: project.id});
	};

	for (const claim of note.decided) {
		itemOf('Decision', 'decision', claim, {});
	}

	for (const claim of note.blockers) {
		itemOf('Task', 'task', claim, {status: 'blocked', blockers: [claim.text], ...(note.next === null ? {} : {next_action: note.next})});
	}

	const batchKinds = new Map(nodes.map(draft => [String(draft.payload['id']), String(draft.payload['kind'])]));
	const kindOf = (id: string) => batchKinds.get(id) ?? nodeKind(db, id);
	const edges: EventDraft[] = links.map(link => ({op: 'edge.assert', payload: {...link, type: validateRelation({...link, provenance, allowDangling: false}, kindOf), provenance}}));
	return {drafts: [...nodes, ...edges], nodes: nodes.map(draft => String(draft.payload['id'])), project: project.id};
}

/** The `imported` checkpoint: the reviewed session as history, naming where it was read from. */
function importedCheckpoint(note: CandidateNote, root: string, now: Date): Checkpoint {
	const claims = (label: string, list: readonly Claim[]) => list.map(claim => `${label}: ${claim.text} (turns ${claim.turns.join(', ')})`);
	return {
		session: note.native_id,
		source: note.source,
		project: root,
		status: 'imported',
		objective: note.first_request === null ? `${note.source} session ${note.native_id}` : short(note.first_request.text, 300),
		completed_work: note.verified.map(claim => claim.text),
		current_evidence: [`imported from ${note.source} session ${note.native_id}: ${note.source_path} (sha256 ${note.source_sha256.slice(0, 12)}, ${note.source_bytes} bytes)`, ...claims('failed', note.failed), ...claims('decided', note.decided)],
		blockers: note.blockers.map(claim => claim.text),
		next_action: note.next,
		verification: null,
		updated_at: now.toISOString(),
	};
}

/**
 * `engi candidates promote`: the only path from a candidate to durable state. One journal
 * batch (see promotionDrafts), then an `imported` checkpoint in the project's
 * `.engi/checkpoints.jsonl`, then the note's status `promoted`. The project is the session's
 * own when it is on this machine, else `--project`; the dashboard, which has no flag to ask
 * for, passes its own project as `fallbackProject` (as it does to record a checkpoint).
 * Promoting again after a failure part-way appends nothing the journal already holds.
 */
export async function promoteCandidate(paths: KbPaths, input: {ref: string; project?: string; fallbackProject?: string}, deps: Deps): Promise<PromoteOutput> {
	requireKnowledgeBase(paths);
	const entry = await findEntry(paths.candidates, input.ref);
	const note = pendingNote(entry);
	const here = note.project !== null && isLocalDirectory(note.project);
	const root = checkpointWriteRoot(note.native_id, note.project, deps.cwd, input.project ?? (here ? undefined : input.fallbackProject));
	const notePath = relative(paths.root, entry.file);
	pauseAt(deps.env, 'promote.after_read');
	// Under the candidates lock, and only while the note is as it was read: of two promotions
	// of one candidate, the loser is refused before it appends or records anything.
	return withUnchangedNote(paths, entry, async writeNote => {
		let planned: ReturnType<typeof promotionDrafts> | undefined;
		const written = await writeEvents(paths, deps, index => {
			planned = promotionDrafts(index.db, note, entry.ref, notePath, root);
			return planned.drafts;
		});
		// A promotion killed after its checkpoint and run again records it once (the first line of evidence names the exact import).
		const imported = importedCheckpoint(note, root, deps.now());
		const checkpoint = await appendCheckpoint(root, note.native_id, () => imported, deps, previous => previous.status === 'imported' && previous.current_evidence[0] === imported.current_evidence[0]);
		const promoted: CandidateNote = {
			...note,
			status: 'promoted',
			reviewed_at: deps.now().toISOString(),
			promoted: {conversation: conversationNodeId(note.source, note.native_id), outcome: `outcome:${note.source}:${note.native_id}`, nodes: planned!.nodes, checkpoints: checkpointsPath(root)},
		};
		pauseAt(deps.env, 'promote.before_note');
		writeNote(renderNote(promoted, reviewNotesOf(entry)));
		return {
			status: 'promoted' as const,
			ref: entry.ref,
			path: notePath,
			conversation: promoted.promoted!.conversation,
			outcome: promoted.promoted!.outcome,
			nodes: planned!.nodes,
			project_node: planned!.project,
			events: {appended: written.events.length, unchanged: written.unchanged.length + written.present.length},
			checkpoint: {path: checkpointsPath(root), checkpoint},
			quarantined: [...written.quarantined],
		};
	});
}
