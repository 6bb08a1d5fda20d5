import {closeSync} from 'node:fs';
import {basename, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {validateRelation} from '../graph/validate.js';
import {nodeKind} from '../index/store.js';
import type {EventDraft} from '../journal/append.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {writeEvents} from '../knowledge/write.js';
import type {Database} from '../../lib/sqlite.js';
import {openSource, storeDescriptor} from './store.js';

export const addOutputSchema = z.object({
	node_id: z.string(),
	sha256: z.string(),
	/** The stored copy, relative to the knowledge base root. */
	path: z.string(),
	bytes: z.number(),
	/** False when the store already held these bytes. */
	written: z.boolean(),
	/** False when the journal already said all of this. */
	appended: z.boolean(),
	project: z.nullable(z.string()),
});

export type AddOutput = z.infer<typeof addOutputSchema>;

/** The BELONGS_TO edge to a project, checked like `engi graph relate` checks one. */
export function belongsTo(db: Database, from: string, project: string | undefined): EventDraft[] {
	if (project === undefined) {
		return [];
	}

	const type = validateRelation({from, type: 'BELONGS_TO', to: project, provenance: undefined, allowDangling: false}, id => (id === from ? 'Artifact' : nodeKind(db, id)));
	return [{op: 'edge.assert', payload: {from, type, to: project}}];
}

/** `engi artifact add --file <f>`: the file's bytes into the content-addressed store, and an Artifact node. */
export async function addArtifact(input: {file: string; project?: string}, paths: KbPaths, deps: Deps): Promise<AddOutput> {
	requireKnowledgeBase(paths);
	const source = resolve(deps.cwd, input.file);
	const fd = openSource(source);
	let stored;
	try {
		stored = storeDescriptor(paths, fd, source);
	} finally {
		closeSync(fd);
	}

	const nodeId = `artifact:sha256:${stored.sha256}`;
	const result = await writeEvents(paths, deps, index => [
		{op: 'node.upsert', payload: {id: nodeId, kind: 'Artifact', label: basename(source), sha256: stored.sha256, bytes: stored.bytes, path: stored.relativePath, original_path: source, provenance: 'engi artifact add'}},
		...belongsTo(index.db, nodeId, input.project),
	]);
	return {node_id: nodeId, sha256: stored.sha256, path: stored.relativePath, bytes: stored.bytes, written: stored.written, appended: result.events.length > 0, project: input.project ?? null};
}
