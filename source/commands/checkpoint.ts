import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, listFlag, textFlag} from '../cli/flag-schemas.js';
import {recordedStatuses, type Checkpoint} from '../engine/continuity/checkpoint-schema.js';
import {
	checkpointListOutputSchema,
	checkpointRecordOutputSchema,
	checkpointShowOutputSchema,
	listCheckpoints,
	recordCheckpoint,
	showCheckpoint,
} from '../engine/continuity/checkpoint-ops.js';
import {clip, tsv} from '../output/text.js';
import {plural} from '../lib/words.js';

const projectOption = {project: {type: 'string', placeholder: '<dir>', description: 'the project whose .engi/checkpoints.jsonl to use (default: the session\'s, else the working directory\'s)', value: textFlag()}} as const;

function renderCheckpoint(checkpoint: Checkpoint): string {
	return [
		`session\t${checkpoint.session} (${checkpoint.source})`,
		`status\t${checkpoint.status}`,
		`objective\t${checkpoint.objective}`,
		...checkpoint.completed_work.map(item => `done\t${item}`),
		...checkpoint.current_evidence.map(item => `evidence\t${item}`),
		...checkpoint.blockers.map(item => `blocker\t${item}`),
		checkpoint.next_action ? `next\t${checkpoint.next_action}` : '',
		checkpoint.verification ? `verify\t${checkpoint.verification}` : '',
		`updated\t${checkpoint.updated_at}`,
	]
		.filter(Boolean)
		.join('\n');
}

export const checkpointRecord = defineCommand({
	name: 'checkpoint record',
	summary: 'record a progress checkpoint for a session (unspecified fields are inherited)',
	usage: 'engi checkpoint record [--session <id>] [--status active|blocked|completed|superseded] [--objective <text>] [--completed a,b] [--evidence a,b] [--blocker a,b] [--next-action <text>] [--verification <text>] [--file <json|->]',
	examples: [
		'engi checkpoint record --session 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --objective "stream the parser" --next-action "handle CRLF"',
		'engi checkpoint record --status completed',
		'echo \'{"status":"blocked","blockers":["waiting for review"]}\' | engi checkpoint record --session ses_4kQ2ZpLmVn --file -',
	],
	options: {
		session: {type: 'string', placeholder: '<id>', description: 'the session (default: the one unfinished session of this project)', value: textFlag()},
		source: {type: 'string', placeholder: '<tool>', description: 'the session\'s tool (default: from the catalog)', value: textFlag()},
		project: {type: 'string', placeholder: '<dir>', description: 'the project whose .engi/checkpoints.jsonl to write: an existing directory inside a project (default: the session\'s own; needed when that is not on this machine)', value: textFlag()},
		status: {type: 'string', placeholder: '<status>', description: `one of ${recordedStatuses.join(', ')} (default: inherited, else active)`, value: choiceFlag(recordedStatuses)},
		objective: {type: 'string', placeholder: '<text>', description: 'what the session is for (required for its first checkpoint)', value: textFlag()},
		completed: {type: 'string', multiple: true, placeholder: '<a,b>', description: 'work done (comma-separated or repeated)', value: listFlag()},
		evidence: {type: 'string', multiple: true, placeholder: '<a,b>', description: 'current evidence: files, commits, test runs', value: listFlag()},
		blocker: {type: 'string', multiple: true, placeholder: '<a,b>', description: 'what blocks progress', value: listFlag()},
		'next-action': {type: 'string', placeholder: '<text>', description: 'the next concrete step', value: z.string()},
		verification: {type: 'string', placeholder: '<text>', description: 'how to check the work', value: z.string()},
		file: {type: 'string', placeholder: '<path|->', description: 'a checkpoint JSON object from a file or stdin; flags win over its fields', value: textFlag()},
	},
	needsRoot: false,
	mcp: {access: 'write', sets: ['continuity'], withheld: ['file']},
	output: checkpointRecordOutputSchema,
	async run(flags, context) {
		const data = await recordCheckpoint(
			{
				session: flags.session,
				source: flags.source,
				project: flags.project,
				status: flags.status,
				objective: flags.objective,
				completed_work: flags.completed,
				current_evidence: flags.evidence,
				blockers: flags.blocker,
				next_action: flags['next-action'],
				verification: flags.verification,
				file: flags.file,
			},
			context.stdin,
			context.deps,
		);
		return {data};
	},
	human: result => `recorded\t${result.path}\n${renderCheckpoint(result.checkpoint)}`,
});

export const checkpointShow = defineCommand({
	name: 'checkpoint show',
	summary: 'print a session\'s latest checkpoint',
	usage: 'engi checkpoint show [session] [--project <dir>]',
	examples: ['engi checkpoint show 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d', 'engi checkpoint show'],
	options: {session: {type: 'string', placeholder: '<id>', description: 'the session (or give it as the argument)', value: textFlag()}, ...projectOption},
	positionals: [{name: 'id', description: 'the session id', value: z.string()}],
	conflicts: [['id', 'session']],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity']},
	output: checkpointShowOutputSchema,
	async run(flags, context) {
		return {data: await showCheckpoint({session: flags.id ?? flags.session, project: flags.project}, context.deps)};
	},
	human: result => renderCheckpoint(result.checkpoint),
});

export const checkpointList = defineCommand({
	name: 'checkpoint list',
	summary: 'the latest checkpoint of each session in a project, newest first',
	usage: 'engi checkpoint list [--project <dir> | --all-projects]',
	examples: ['engi checkpoint list', 'engi checkpoint list --project ~/src/engi', 'engi checkpoint list --all-projects'],
	options: {...projectOption, 'all-projects': {type: 'boolean', description: 'every project with checkpoints: this one and those of every known session', value: z.boolean()}},
	conflicts: [['project', 'all-projects']],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity']},
	output: checkpointListOutputSchema,
	screen: 'checkpoints',
	async run(flags, context) {
		return {data: await listCheckpoints({project: flags.project, allProjects: Boolean(flags['all-projects'])}, context.deps)};
	},
	human: result =>
		[
			result.path === null
				? `${plural(result.count, 'checkpoint')} in ${plural(result.files.length, 'project')}`
				: `${plural(result.count, 'checkpoint')} in ${result.path}`,
			result.count === 0 ? `record one with engi checkpoint record --session <id> --objective <text>${result.path === null ? '' : ', or see every project\'s with --all-projects'}` : '',
			tsv(result.checkpoints.map(checkpoint => [checkpoint.updated_at, checkpoint.status, checkpoint.session, ...(result.path === null ? [checkpoint.project] : []), clip(checkpoint.next_action ?? checkpoint.objective, 70)])),
		]
			.filter(Boolean)
			.join('\n'),
});
