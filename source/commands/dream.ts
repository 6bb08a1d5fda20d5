import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {choiceFlag, intFlag, sha256Flag, textFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {dream, dreamOutputSchema, type DreamOutput} from '../engine/upkeep/dream.js';
import {contradictionDefaults, contradictionPacketSchema, prepareContradictions, type ContradictionPacket} from '../engine/upkeep/contradictions.js';
import {acceptContradictions, contradictionAcceptSchema, type ContradictionAccept} from '../engine/upkeep/contradictions-accept.js';
import {tsv} from '../output/text.js';
import {plural, shellWord} from '../lib/words.js';
import {knowledgeBase} from './shared.js';

function renderHuman(result: DreamOutput | ContradictionPacket | ContradictionAccept): string {
	if ('status' in result && result.status === 'prepared') {
		const head = `${plural(result.pairs.length, 'candidate pair')} of ${result.counts.candidates} (${result.counts.left_out} left out by the bounds), ${plural(result.units.length, 'unit')}, ${result.counts.bytes} bytes of node text; packet ${result.packet.sha256}`;
		return [head, tsv(result.pairs.map(pair => [pair.a, pair.b, pair.score, pair.shared.join(' ')])), tsv(result.units.map(unit => [unit.n, unit.node_id, unit.node_sha256]))].join('\n');
	}

	if ('status' in result) {
		const lines = [`${result.status === 'applied' ? `${plural(result.events.appended, 'CONTRADICTS edge')} appended, reviewed by ${result.reviewer ?? ''}` : 'checked: nothing written'}; ${result.kept.length} kept, ${result.dropped.length} dropped`];
		lines.push(...result.kept.map(entry => `kept\t${entry.index}\t${entry.from} CONTRADICTS ${entry.to}\t${entry.text}`), ...result.dropped.map(entry => `dropped\t${entry.index}\t${entry.reason}\t${entry.detail}`));
		if (result.approve) {
			lines.push(`after review: ${result.approve.map(part => shellWord(part)).join(' ')}`);
		}

		return lines.join('\n');
	}

	const head = `${result.dry_run ? 'dry run: would append ' : ''}${plural(result.appended, 'event')}${result.dry_run ? '' : ' appended'} as of ${result.as_of}${result.resumed ? ' (resumed a stopped run)' : ''}`;
	const rows = result.steps.map(step => [step.step, step.name, step.status, Object.entries(step.counts).map(([key, value]) => `${key} ${value}`).join(', '), `${step.appended} events`, `${step.ms} ms`]);
	return [head, tsv(rows)].join('\n');
}

/** `--approve all` or a list of proposal indexes. */
function approveFlag() {
	return z.pipe(
		z.string(),
		z.transform((value, context) => {
			if (value.trim() === 'all') {
				return 'all' as const;
			}

			const parts = value.split(',').map(part => part.trim());
			if (parts.some(part => !/^\d+$/.test(part))) {
				context.issues.push({code: 'custom', message: `must be all or proposal indexes separated by commas, got "${value}"`, input: value});
				return z.NEVER;
			}

			return [...new Set(parts.map(Number))];
		}),
	);
}

const modelSteps = ['contradictions'] as const;

export default defineCommand({
	name: 'dream',
	summary: 'deterministic upkeep: decay, lifecycle, entities, trivia, wiki sync, archiving, co-occurrence; contradictions through a packet and review',
	usage: 'engi dream [--steps 1-7] [--dry-run] | --prepare contradictions [--max-pairs <n>] [--max-bytes <n>] | --accept contradictions --file <proposal.json> [--approve all|<i,j> --reviewer <name> --review-sha256 <hex>]',
	examples: ['engi dream', 'engi dream --steps 1,2,6 --dry-run', 'engi dream --prepare contradictions --max-pairs 10', 'engi dream --accept contradictions --file proposal.json'],
	options: {
		steps: {type: 'string', placeholder: '<list>', description: 'which of steps 1-7 to run: a range (1-7) or a list (1,3,5); default all', value: textFlag()},
		'dry-run': {type: 'boolean', description: 'count what each step would do; append and save nothing (wiki sync is left out)', value: z.boolean()},
		prepare: {type: 'string', placeholder: 'contradictions', description: 'print the evidence packet a model needs to propose which node pairs contradict (engi calls no model); writes nothing', value: choiceFlag(modelSteps)},
		'max-pairs': {type: 'string', placeholder: '<n>', description: `with --prepare: candidate pairs at most (default ${contradictionDefaults.maxPairs})`, value: intFlag(1, 1000)},
		'max-bytes': {type: 'string', placeholder: '<n>', description: `with --prepare: bytes of node text at most (default ${contradictionDefaults.maxBytes})`, value: intFlag(1, 16 * 1024 * 1024)},
		accept: {type: 'string', placeholder: 'contradictions', description: 'take a model\'s proposals (--file) through the citation filter; a dry run unless --approve', value: choiceFlag(modelSteps)},
		file: {type: 'string', placeholder: '<file|->', description: 'with --accept: the proposal (JSON, at most 1 MiB)', value: textFlag()},
		approve: {type: 'string', placeholder: 'all|<i,j>', description: 'with --accept: write these kept proposals (indexes in the file) as CONTRADICTS edges, after review', value: approveFlag()},
		reviewer: {type: 'string', placeholder: '<name>', description: 'with --approve: who reviewed the proposals', value: textFlag()},
		'review-sha256': {type: 'string', placeholder: '<hex>', description: 'with --approve: the review_sha256 of the dry run that was reviewed', value: sha256Flag()},
	},
	conflicts: [
		['prepare', 'accept'],
		...(['steps', 'dry-run'] as const).flatMap(flag => [['prepare', flag] as const, ['accept', flag] as const]),
	],
	needsRoot: true,
	// An agent may check its proposals over MCP; approving them is a person's review.
	mcp: {access: 'write', withheld: ['approve', 'reviewer', 'review-sha256']},
	output: z.union([dreamOutputSchema, contradictionPacketSchema, contradictionAcceptSchema]),
	async run(flags, context) {
		const paths = knowledgeBase(context);
		const needs = (flag: string, needed: string) => new EngiError('missing_flag', `--${flag} needs --${needed}`, {hint: 'see engi dream --help'});
		for (const flag of ['max-pairs', 'max-bytes'] as const) {
			if (flags[flag] !== undefined && flags.prepare === undefined) {
				throw needs(flag, 'prepare contradictions');
			}
		}

		for (const flag of ['file', 'approve'] as const) {
			if (flags[flag] !== undefined && flags.accept === undefined) {
				throw needs(flag, 'accept contradictions');
			}
		}

		if ((flags.reviewer !== undefined || flags['review-sha256'] !== undefined) && flags.approve === undefined) {
			throw needs(flags.reviewer === undefined ? 'review-sha256' : 'reviewer', 'approve');
		}

		if (flags.prepare !== undefined) {
			return {data: await prepareContradictions(paths, {maxPairs: flags['max-pairs'], maxBytes: flags['max-bytes']}, context.deps)};
		}

		if (flags.accept !== undefined) {
			if (flags.file === undefined) {
				throw needs('accept', 'file');
			}

			return {data: await acceptContradictions(paths, {file: flags.file, approve: flags.approve, reviewer: flags.reviewer, reviewSha256: flags['review-sha256']}, context.stdin, context.deps)};
		}

		return {data: await dream(paths, {steps: flags.steps, dryRun: Boolean(flags['dry-run'])}, context.deps)};
	},
	human: renderHuman,
});
