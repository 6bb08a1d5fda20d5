import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {listFlag, numberFlag, textFlag, utcFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {graphWriteOutputSchema, nodeDraft, relateNodes, retractEdge, writeGraphEvent, type GraphWriteOutput} from '../engine/knowledge/graph-write.js';
import {knowledgeBase} from './shared.js';

const humanWrite = (verb: string) => (result: GraphWriteOutput) =>
	[`${result.appended ? verb : 'unchanged'}\t${result.id}`, ...result.quarantined.map(line => `quarantined\tline ${line.line}\t${line.reason}`)].join('\n');

export const graphNode = defineCommand({
	name: 'graph node',
	summary: 'record (or update) a node in the knowledge graph',
	usage: 'engi graph node --id <id> --kind <kind> --label <text> [--body <text>] [--status <s>] [--next-action <text>] [--blocker <text>]… [--path <p>] [--provenance <src>]',
	examples: [
		'engi graph node --id project:engi --kind Project --label "engi CLI"',
		'engi graph node --id task:fts --kind Task --label "Add FTS5 search" --status open --next-action "write the tokenizer"',
	],
	options: {
		id: {type: 'string', placeholder: '<id>', description: 'stable node id, e.g. task:fts', value: textFlag(), required: true},
		kind: {type: 'string', placeholder: '<kind>', description: 'Project, Task, Decision, … or a custom kind (needs --provenance)', value: textFlag()},
		type: {type: 'string', placeholder: '<kind>', description: 'alias of --kind', value: textFlag()},
		label: {type: 'string', placeholder: '<text>', description: 'short human title', value: textFlag(), required: true},
		body: {type: 'string', placeholder: '<text>', description: 'longer description', value: z.string()},
		status: {type: 'string', placeholder: '<status>', description: 'task status, e.g. open, blocked, done', value: textFlag()},
		'next-action': {type: 'string', placeholder: '<text>', description: 'the next concrete step', value: z.string()},
		blocker: {type: 'string', multiple: true, placeholder: '<text>', description: 'a blocker (repeat or comma-separate)', value: listFlag()},
		path: {type: 'string', placeholder: '<path>', description: 'a path this node stands for (projects: the repository)', value: textFlag()},
		provenance: {type: 'string', placeholder: '<source>', description: 'where this fact came from', value: z.string()},
	},
	conflicts: [['kind', 'type']],
	needsRoot: true,
	mcp: {access: 'write'},
	output: graphWriteOutputSchema,
	async run(flags, context) {
		const kind = flags.kind ?? flags.type;
		if (kind === undefined) {
			throw new EngiError('missing_flag', 'engi graph node needs --kind', {hint: 'e.g. --kind Task'});
		}

		const draft = nodeDraft({
			id: flags.id,
			kind,
			label: flags.label,
			body: flags.body,
			status: flags.status,
			nextAction: flags['next-action'],
			blockers: flags.blocker,
			path: flags.path,
			provenance: flags.provenance,
		});
		return {data: await writeGraphEvent(knowledgeBase(context), draft, context.deps)};
	},
	human: humanWrite('created'),
});

const edgeOptions = {
	from: {type: 'string', placeholder: '<id>', description: 'source node id', value: textFlag(), required: true},
	edge: {type: 'string', placeholder: '<type>', description: 'edge type, e.g. BELONGS_TO', value: textFlag()},
	type: {type: 'string', placeholder: '<type>', description: 'alias of --edge', value: textFlag()},
	to: {type: 'string', placeholder: '<id|path|uri>', description: 'target node id (or a location for LOCATED_AT/ORIGINATED_AT)', value: textFlag(), required: true},
} as const;

function edgeType(flags: {edge?: string; type?: string}): string {
	const type = flags.edge ?? flags.type;
	if (type === undefined) {
		throw new EngiError('missing_flag', 'an edge needs --edge <type>', {hint: 'e.g. --edge BELONGS_TO'});
	}

	return type;
}

export const graphRelate = defineCommand({
	name: 'graph relate',
	summary: 'assert an edge between two nodes',
	usage: 'engi graph relate --from <id> --edge <type> --to <id> [--weight <n>] [--valid-from <utc>] [--valid-until <utc>] [--provenance <src>] [--allow-dangling]',
	examples: ['engi graph relate --from task:fts --edge BELONGS_TO --to project:engi', 'engi graph relate --from artifact:report --edge LOCATED_AT --to /srv/reports/q3.pdf'],
	options: {
		...edgeOptions,
		weight: {type: 'string', placeholder: '<n>', description: 'a numeric weight', value: numberFlag()},
		'valid-from': {type: 'string', placeholder: '<utc>', description: 'when the fact became true (YYYY-MM-DDTHH:MM:SSZ)', value: utcFlag()},
		'valid-until': {type: 'string', placeholder: '<utc>', description: 'when it stops being true', value: utcFlag()},
		provenance: {type: 'string', placeholder: '<source>', description: 'where this fact came from (required for custom kinds)', value: z.string()},
		'allow-dangling': {type: 'boolean', description: 'allow endpoints that do not exist yet', value: z.boolean()},
	},
	conflicts: [['edge', 'type']],
	needsRoot: true,
	mcp: {access: 'write'},
	output: graphWriteOutputSchema,
	async run(flags, context) {
		const type = edgeType(flags);
		const data = await relateNodes(
			knowledgeBase(context),
			{
				from: flags.from,
				type,
				to: flags.to,
				weight: flags.weight,
				validFrom: flags['valid-from'],
				validUntil: flags['valid-until'],
				provenance: flags.provenance,
				allowDangling: Boolean(flags['allow-dangling']),
			},
			context.deps,
		);
		return {data};
	},
	human: humanWrite('created'),
});

export const graphRetract = defineCommand({
	name: 'graph retract',
	summary: 'retract an edge (earlier matching edges stop being live)',
	usage: 'engi graph retract --from <id> --edge <type> --to <id>',
	examples: ['engi graph retract --from task:fts --edge BELONGS_TO --to project:engi'],
	options: edgeOptions,
	conflicts: [['edge', 'type']],
	needsRoot: true,
	mcp: {access: 'write'},
	output: graphWriteOutputSchema,
	async run(flags, context) {
		const type = edgeType(flags);
		return {data: await retractEdge(knowledgeBase(context), {from: flags.from, type, to: flags.to}, context.deps)};
	},
	human: humanWrite('retracted'),
});
