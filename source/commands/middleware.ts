import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {listFlag, sha256Flag, textFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {expandMiddleware, expandOutputSchema, prepareMiddleware, prepareOutputSchema} from '../engine/middleware/prepare.js';

const fileOption = {file: {type: 'string', placeholder: '<request.json|->', description: 'the request: {stable_prefix, task, items: [{id, content, required, priority?}], budget_tokens} (at most 16 MiB, 256 items; - for stdin)', value: textFlag(), required: true}} as const;

export const middlewarePrepare = defineCommand({
	name: 'middleware prepare',
	summary: 'choose the context items that fit a token budget and print the packet',
	usage: 'engi middleware prepare --file <request.json|-> [--packet-only]',
	examples: ['engi middleware prepare --file request.json', 'engi middleware prepare --file - --packet-only < request.json'],
	options: {
		...fileOption,
		'packet-only': {type: 'boolean', description: 'print exactly {"stable_prefix":…,"task":…,"items":[…]} and nothing else, byte for byte the same for the same request', value: z.boolean()},
	},
	needsRoot: false,
	mcp: {access: 'read'},
	output: prepareOutputSchema,
	async run(flags, context) {
		const {output, packetText} = await prepareMiddleware(flags.file, context.stdin, context.deps.cwd);
		return {data: output, ...(flags['packet-only'] ? {raw: `${packetText}\n`} : {})};
	},
	human: result => [`prepared: ${result.selected_ids.length} item${result.selected_ids.length === 1 ? '' : 's'}, ${result.packet_tokens} of ${result.budget_tokens} o200k tokens (required alone: ${result.required_tokens})`, `selected\t${result.selected_ids.join(',')}`, `omitted\t${result.omitted_ids.join(',')}`, `source_sha256\t${result.source_sha256}`].join('\n'),
});

export const middlewareExpand = defineCommand({
	name: 'middleware expand',
	summary: 'the content of chosen items, from the request a packet was prepared from',
	usage: 'engi middleware expand --file <request.json|-> --expect-source-sha256 <hex> --ids a,b',
	examples: ['engi middleware expand --file request.json --expect-source-sha256 5d41…e5 --ids notes,spec'],
	options: {
		...fileOption,
		'expect-source-sha256': {type: 'string', placeholder: '<hex>', description: 'the source_sha256 prepare printed; a request with other bytes is refused (exit 2)', value: sha256Flag(), required: true},
		ids: {type: 'string', multiple: true, placeholder: '<a,b>', description: 'the items to return (comma-separated or repeated)', value: listFlag(), required: true},
	},
	needsRoot: false,
	mcp: {access: 'read'},
	output: expandOutputSchema,
	async run(flags, context) {
		if (flags.ids.length === 0) {
			throw new EngiError('missing_flag', 'engi middleware expand needs --ids with at least one id', {hint: 'see engi middleware expand --help'});
		}

		return {data: await expandMiddleware({file: flags.file, expectSha256: flags['expect-source-sha256'], ids: flags.ids}, context.stdin, context.deps.cwd)};
	},
	human: result => result.items.map(item => `── ${item.id}\n${typeof item.content === 'string' ? item.content : JSON.stringify(item.content, null, 2)}`).join('\n'),
});
