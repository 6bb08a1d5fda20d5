import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {textFlag} from '../cli/flag-schemas.js';
import {pickupOutputSchema, pickupSession, type PickupOutput} from '../engine/continuity/pickup.js';
import {sourceOptions} from './shared.js';
import {quoted, renderBrief} from './render-brief.js';

function renderHuman(result: PickupOutput, context: HumanContext): string {
	if (result.status !== 'ok') {
		return renderBrief(result, context);
	}

	const {target} = result;
	return [
		`Pick up: ${target.source} ${target.id} (project ${target.project}, last active ${target.modified ?? 'unknown'})`,
		'',
		...quoted('Title', target.title === null ? [] : [target.title]),
		...quoted('Why it looks unfinished', result.reasons.map(reason => `${reason.code}${reason.line === null ? '' : ` (line ${reason.line})`}: ${reason.detail}`)),
		result.checkpoint ? `Checkpoint (recorded with engi checkpoint): ${result.checkpoint.status} — ${result.checkpoint.next_action ?? result.checkpoint.objective}` : 'No checkpoint yet.',
		'',
		`Brief:  ${result.resume_command}`,
		result.native_resume_command ? `Resume: ${result.native_resume_command}` : `Resume: (${result.native_resume_unavailable === undefined ? 'this tool has no resume command' : `no native resume command: ${result.native_resume_unavailable}`})`,
		...result.evidence.map(command => `Evidence: ${command}`),
	].join('\n');
}

export default defineCommand({
	name: 'pickup',
	summary: 'choose a session to continue and print the commands that resume it (runs nothing)',
	usage: 'engi pickup [id] [--source <tool>] [--project <dir>] [--since <when>]',
	examples: ['engi pickup', 'engi pickup 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d', 'engi pickup --project ~/src/engi'],
	options: {
		...sourceOptions,
		project: {type: 'string', placeholder: '<dir>', description: 'without an id: the unfinished session of this project (default: the working directory\'s)', value: textFlag()},
		since: {type: 'string', placeholder: '<when>', description: 'without an id: choose among sessions active since (default: yesterday); as in engi unfinished', value: textFlag()},
	},
	positionals: [{name: 'id', description: 'the session (default: the one unfinished session of this project)', value: z.string()}],
	conflicts: [['id', 'since']],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: pickupOutputSchema,
	screen: 'pickup',
	async run(flags, context) {
		const data = await pickupSession({id: flags.id, source: flags.source, sourceRoot: flags['source-root'], project: flags.project, since: flags.since}, context.deps);
		return {data, exitCode: data.status === 'ok' ? 0 : 1};
	},
	human: renderHuman,
});
