/**
 * The vocabulary of the knowledge graph. Core node and edge kinds are matched case-insensitively
 * and written in their canonical spelling; anything else is a custom kind, kept verbatim, which
 * must say where it came from (provenance).
 */
export const coreNodeKinds = ['Conversation', 'Task', 'Decision', 'Experiment', 'Dataset', 'Model', 'Artifact', 'Project', 'Product'] as const;
export type CoreNodeKind = (typeof coreNodeKinds)[number];

export const coreEdgeKinds = [
	'BELONGS_TO',
	'FOLLOWS_UP',
	'SUPPORTS',
	'EVALUATES',
	'DISCUSSED_IN',
	'DERIVED_FROM',
	'SUPERSEDES',
	'LOCATED_AT',
	'ORIGINATED_AT',
	'CONTAINS',
	'PART_OF',
	'INFORMS',
] as const;
export type CoreEdgeKind = (typeof coreEdgeKinds)[number];

export function canonicalNodeKind(kind: string): {kind: string; core: boolean} {
	const trimmed = kind.trim();
	const match = coreNodeKinds.find(core => core.toLowerCase() === trimmed.toLowerCase());
	return match ? {kind: match, core: true} : {kind: trimmed, core: false};
}

export function canonicalEdgeKind(type: string): {type: string; core: boolean} {
	const trimmed = type.trim();
	const upper = trimmed.toUpperCase().replaceAll('-', '_');
	const match = coreEdgeKinds.find(core => core === upper);
	return match ? {type: match, core: true} : {type: trimmed, core: false};
}

const node = (...kinds: CoreNodeKind[]) => kinds;

/** Which core node kinds each core edge may join: from -> allowed targets. */
export const adjacency: Readonly<Record<CoreEdgeKind, ReadonlyArray<readonly [CoreNodeKind, readonly CoreNodeKind[]]>>> = {
	BELONGS_TO: node('Conversation', 'Task', 'Decision', 'Experiment', 'Artifact').map(from => [from, node('Project')] as const),
	FOLLOWS_UP: [
		['Conversation', node('Conversation', 'Task')],
		['Task', node('Task', 'Decision', 'Conversation', 'Artifact')],
		['Decision', node('Task', 'Decision')],
	],
	SUPPORTS: [
		['Decision', node('Task', 'Decision')],
		['Experiment', node('Task', 'Decision')],
	],
	EVALUATES: [['Experiment', node('Product', 'Dataset', 'Model')]],
	DISCUSSED_IN: [
		['Experiment', node('Conversation')],
		['Decision', node('Conversation')],
	],
	DERIVED_FROM: node('Model', 'Dataset', 'Artifact').map(from => [from, node('Dataset', 'Model', 'Conversation')] as const),
	SUPERSEDES: [
		['Artifact', node('Artifact')],
		['Decision', node('Decision')],
	],
	LOCATED_AT: [],
	ORIGINATED_AT: [],
	CONTAINS: [['Artifact', node('Artifact')]],
	PART_OF: [['Artifact', node('Artifact')]],
	INFORMS: [
		['Product', node('Project')],
		['Experiment', node('Project')],
	],
};

/** Edges whose target may be a location (an absolute path or a URI) rather than a node. */
export const locationEdges: ReadonlySet<string> = new Set(['LOCATED_AT', 'ORIGINATED_AT']);
export const locationSources: ReadonlySet<string> = new Set(['Dataset', 'Model', 'Artifact']);

export function isLocation(target: string): boolean {
	return target.startsWith('/') || target.includes('://');
}

export function isAllowedCoreEdge(type: CoreEdgeKind, from: CoreNodeKind, to: CoreNodeKind): boolean {
	return adjacency[type].some(([source, targets]) => source === from && targets.includes(to));
}

/** Task statuses that mean the work is over; a brief leaves these out. */
export const terminalStatuses: ReadonlySet<string> = new Set(['complete', 'completed', 'done', 'closed', 'cancelled', 'canceled', 'superseded']);
