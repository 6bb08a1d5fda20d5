import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {addArtifact, addOutputSchema} from '../engine/artifacts/add.js';
import {finalizeCollection, finalizeOutputSchema} from '../engine/artifacts/finalize.js';
import {addArtifactTree, addTreeOutputSchema} from '../engine/artifacts/tree.js';
import {tsv} from '../output/text.js';
import {knowledgeBase} from './shared.js';

const projectOption = {project: {type: 'string', placeholder: '<node>', description: 'link the artifact to this project node (BELONGS_TO)', value: textFlag()}} as const;

export const artifactAdd = defineCommand({
	name: 'artifact add',
	summary: 'copy a file into the content-addressed artifact store (03-output/artifacts/)',
	usage: 'engi artifact add --file <file> [--project <node>]',
	examples: ['engi artifact add --file report.pdf --project project:shop'],
	options: {file: {type: 'string', placeholder: '<file>', description: 'the file to store', value: textFlag(), required: true}, ...projectOption},
	needsRoot: true,
	mcp: {access: 'write'},
	output: addOutputSchema,
	async run(flags, context) {
		return {data: await addArtifact({file: flags.file, project: flags.project}, knowledgeBase(context), context.deps)};
	},
	human: result => [`${result.written ? 'stored' : 'present'}\t${result.path}\t${result.bytes} bytes`, `node\t${result.node_id}${result.project ? `\tin ${result.project}` : ''}`].join('\n'),
});

export const artifactAddTree = defineCommand({
	name: 'artifact add-tree',
	summary: 'record a directory by hash (a manifest, not a copy); symlinks are recorded, never followed',
	usage: 'engi artifact add-tree --directory <dir> --manifest <file outside it> [--project <node>]',
	examples: ['engi artifact add-tree --directory /data/run-42 --manifest /srv/receipts/run-42.json'],
	options: {
		directory: {type: 'string', placeholder: '<dir>', description: 'the directory to record', value: textFlag(), required: true},
		manifest: {type: 'string', placeholder: '<file>', description: 'where to write the manifest (outside the directory)', value: textFlag(), required: true},
		...projectOption,
	},
	needsRoot: true,
	mcp: {access: 'write'},
	output: addTreeOutputSchema,
	async run(flags, context) {
		return {data: await addArtifactTree({directory: flags.directory, manifest: flags.manifest, project: flags.project}, knowledgeBase(context), context.deps)};
	},
	human: result =>
		[
			`tree\t${result.tree_sha256}\t${result.files} files\t${result.symlinks} symlinks\t${result.source_bytes} bytes`,
			`manifest\t${result.manifest_path}\tstored as ${result.stored_path}`,
			...result.skipped.map(entry => `skipped\t${entry.path}\t${entry.reason}`),
		].join('\n'),
});

export const artifactFinalize = defineCommand({
	name: 'artifact finalize',
	summary: 'move final files into collections/<name>/ and delete the drafts (dry run unless --apply; exit 2 on a problem)',
	usage: 'engi artifact finalize --plan <plan.json> [--apply]',
	examples: ['engi artifact finalize --plan final.json', 'engi artifact finalize --plan final.json --apply'],
	options: {
		plan: {type: 'string', placeholder: '<plan.json>', description: 'an engi.final-collection.v1 plan', value: textFlag(), required: true},
		apply: {type: 'boolean', description: 'carry the plan out, every sha256 checked again right before each step', value: z.boolean()},
	},
	needsRoot: true,
	mcp: {access: 'read', withheld: ['apply']},
	output: finalizeOutputSchema,
	async run(flags, context) {
		const data = await finalizeCollection({plan: flags.plan, apply: Boolean(flags.apply)}, knowledgeBase(context), context.deps);
		return {data, exitCode: data.ok ? 0 : 2};
	},
	human: result =>
		[
			`${result.applied ? 'applied' : 'dry run'}\t${result.collection}\t${result.collection_path}${result.ok ? '' : result.applied ? '\ta step found a problem; see the statuses' : '\tproblems: nothing was done'}`,
			tsv(result.final_files.map(file => ['final', file.status, file.path, file.destination])),
			tsv(result.remove_files.map(file => ['remove', file.status, file.path])),
		]
			.filter(Boolean)
			.join('\n'),
});
