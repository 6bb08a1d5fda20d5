import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag, linesFlag, textFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {decodePacketFile, encodeJsonFile, readAttachment, readEncoded, readResultSchema, validatePacketFile} from '../engine/conversation/packets.js';
import {readPageSize} from '../engine/conversation/read.js';
import {views} from '../engine/conversation/views.js';
import {attachmentLine, checkPacketFlags, packetConflicts, packetOptions, renderPacketResult} from './packet-flags.js';
import {sourceOptions} from './shared.js';

/** How a read picks its rows: a page from a line (`--offset`, `--limit`) or exact `--lines`; resume's other views take the same. */
export const rangeOptions = {
	offset: {type: 'string', placeholder: '<n>', description: 'zero-based source line to start at (see next_offset)', value: intFlag(0, Number.MAX_SAFE_INTEGER)},
	limit: {type: 'string', placeholder: '<n>', description: `source rows per page, 1–100 (default ${readPageSize})`, value: intFlag(1, 100)},
	lines: {type: 'string', placeholder: '<a,b,c>', description: 'exactly these 1-based lines as native records (at most 100)', value: linesFlag()},
} as const;

const offlineModes = ['encode-json', 'validate-packet', 'decode-packet'] as const;
/** A saved page or packet is read from its file alone: none of the session's flags apply. */
const offlineConflicts = offlineModes.flatMap((mode, index) => [
	...offlineModes.slice(index + 1).map(other => [mode, other] as const),
	...['id', 'source', 'source-root', 'view', 'offset', 'limit', 'lines', 'prune', 'preview-chars', 'attachment', 'expect-sha256'].map(flag => [mode, flag] as const),
	...(mode === 'encode-json' ? [] : ['compact', 'deltas', 'attachment-refs'].map(flag => [mode, flag] as const)),
]);

export default defineCommand({
	name: 'read',
	summary: 'read one agent session, a page at a time (alias: conversation); the one command that shows transcript text unmasked, secrets included',
	usage: 'engi read <id> [--source <tool>] [--source-root <dir>] [--view dialogue|events|context|index] [--offset <n>] [--limit <n>] | [--lines a,b,c] [--compact [--deltas]] [--attachment-refs] [--prune] [--preview-chars <n|all>] | [--lines <n> --attachment <pointer> --expect-sha256 <hex>] | --encode-json|--validate-packet|--decode-packet <file>',
	examples: [
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d',
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --view context --offset 40 --limit 20',
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --view context --preview-chars all --prune',
		'engi read ses_4kQ2ZpLmVn --source opencode --lines 12,15',
		'engi read 0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --view events --compact --deltas --attachment-refs --prune',
		'engi read --decode-packet page.json',
	],
	options: {
		...sourceOptions,
		view: {type: 'string', placeholder: '<view>', description: 'dialogue (default): user and assistant text; events: native records; context: text plus bounded tool previews (see --preview-chars); index: one line per event', value: choiceFlag(views)},
		...rangeOptions,
		...packetOptions,
		'encode-json': {type: 'string', placeholder: '<page.json|->', description: 'encode a page saved earlier, offline (implies --compact; at most 16 MiB)', value: textFlag()},
		'validate-packet': {type: 'string', placeholder: '<packet.json|->', description: 'check a packet offline and print it unchanged when it is sound', value: textFlag()},
		'decode-packet': {type: 'string', placeholder: '<packet.json|->', description: 'decode a packet offline back to its page', value: textFlag()},
	},
	positionals: [{name: 'id', description: 'a full session UUID or the tool\'s own session id (not with the offline packet modes)', value: z.string()}],
	conflicts: [
		['lines', 'offset'],
		['lines', 'limit'],
		...packetConflicts,
		...offlineConflicts,
	],
	needsRoot: false,
	mcp: {access: 'read', sets: ['continuity'], quotesTranscripts: true},
	output: readResultSchema,
	async run(flags, context) {
		const {cwd} = context.deps;
		if (flags['encode-json'] !== undefined) {
			return {data: await encodeJsonFile(flags['encode-json'], {compact: true, deltas: Boolean(flags.deltas), attachmentRefs: Boolean(flags['attachment-refs'])}, context.stdin, cwd)};
		}

		if (flags['validate-packet'] !== undefined) {
			return {data: await validatePacketFile(flags['validate-packet'], context.stdin, cwd)};
		}

		if (flags['decode-packet'] !== undefined) {
			return {data: await decodePacketFile(flags['decode-packet'], context.stdin, cwd)};
		}

		if (flags.id === undefined) {
			throw new EngiError('missing_argument', 'engi read needs <id>', {hint: 'or read a saved page or packet with --encode-json, --validate-packet or --decode-packet'});
		}

		checkPacketFlags(flags, false);
		const selection = {id: flags.id, source: flags.source, sourceRoot: flags['source-root']};
		if (flags.attachment !== undefined) {
			return {data: await readAttachment({...selection, line: attachmentLine(flags), pointer: flags.attachment, sha256: flags['expect-sha256']!}, context.deps)};
		}

		if (flags.lines && flags.view && flags.view !== 'events') {
			throw new EngiError('conflicting_flags', '--lines returns native records (the events view) and cannot be combined with --view ' + flags.view, {hint: 'drop --view, or use --offset/--limit'});
		}

		try {
			return {
				data: await readEncoded(
					{
						...selection,
						view: flags.lines ? 'events' : (flags.view ?? 'dialogue'),
						offset: flags.offset,
						limit: flags.limit,
						lines: flags.lines,
						prune: Boolean(flags.prune),
						previewChars: flags['preview-chars'],
						encoding: {compact: Boolean(flags.compact), deltas: Boolean(flags.deltas), attachmentRefs: Boolean(flags['attachment-refs'])},
					},
					context.deps,
				),
			};
		} catch (error) {
			// A session engi retired is not merely missing: say so, and where its compact copy is.
			if (error instanceof EngiError && error.code === 'session_not_found') {
				throw (await import('../engine/retention/retired.js')).retiredSessionError(flags.id, context.rootFlag, context.deps) ?? error;
			}

			throw error;
		}
	},
	human: (result, context) => renderPacketResult(result, context),
});
