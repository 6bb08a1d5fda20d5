import {defineCommand} from '../cli/define.js';
import {intFlag, listFlag, textFlag} from '../cli/flag-schemas.js';
import {acceptDistillation, acceptOutputSchema, type AcceptOutput} from '../engine/candidates/accept.js';
import {defaultTimeoutSeconds, distillCandidate, distillOutputSchema, maxDistillerOutput, type DistillOutput} from '../engine/candidates/distill.js';
import {parseDistillation} from '../engine/candidates/distillation.js';
import {candidateEvidence, defaultMaxTurns, evidenceOutputSchema, formatRanges, renderEvidenceText} from '../engine/candidates/evidence.js';
import {EngiError} from '../lib/errors.js';
import {plural} from '../lib/words.js';
import {readTextInput} from '../lib/text-input.js';
import {tsv} from '../output/text.js';
import {knowledgeBase} from './shared.js';

const refPositional = [{name: 'ref', required: true, description: 'a pending candidate note\'s name, or its session id', value: textFlag()}] as const;
const maxTurnsOption = {'max-turns': {type: 'string', placeholder: '<n>', description: `how many turns a distiller is served (default ${defaultMaxTurns}); accept with the same number`, value: intFlag(1, 100_000)}} as const;

export const candidatesEvidence = defineCommand({
	name: 'candidates evidence',
	summary: 'a candidate\'s numbered turns, masked and fenced as untrusted evidence',
	usage: 'engi candidates evidence <ref> [--max-turns <n>] [--turns <a,b>]',
	examples: ['engi candidates evidence claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d', 'engi candidates evidence claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --turns 3,7'],
	options: {...maxTurnsOption, turns: {type: 'string', multiple: true, placeholder: '<a,b>', description: 'only these turns (the ones a claim cites)', value: listFlag()}},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'read', quotesTranscripts: true},
	output: evidenceOutputSchema,
	async run(flags, context) {
		const turns = flags.turns?.map(turn => {
			if (!/^\d+$/.test(turn)) {
				throw new EngiError('invalid_flag_value', `--turns: "${turn}" is not a turn number`, {hint: 'e.g. --turns 3,7'});
			}

			return Number(turn);
		});
		return {data: await candidateEvidence(knowledgeBase(context), {ref: flags.ref, maxTurns: flags['max-turns'], ...(turns ? {turns} : {})}, context.deps)};
	},
	human: renderEvidenceText,
});

function renderAccepted(result: AcceptOutput | DistillOutput): string {
	const kept = result.kept;
	const claims = kept.verified.length + kept.failed.length + kept.blockers.length + kept.decided.length;
	return [
		`accepted\t${result.ref}\tby ${result.model}: ${plural(claims, 'claim')} kept (${kept.verified.length} verified, ${kept.failed.length} failed, ${kept.blockers.length} blockers, ${kept.decided.length} decided)${kept.next === null ? '' : ', a next step'}; ${result.dropped.length} dropped`,
		`served\tturns ${formatRanges(result.served)}`,
		tsv(result.dropped.map(claim => ['dropped', `${claim.field}[${claim.index}]`, claim.reason, claim.detail, claim.text])),
		tsv(result.masked.map(masked => ['masked', masked.field, masked.pattern])),
		'the candidate is still pending: review it with engi candidates show, then promote or reject it',
	]
		.filter(Boolean)
		.join('\n');
}

export const candidatesAccept = defineCommand({
	name: 'candidates accept',
	summary: 'take a distillation of a candidate through the citation filter into its note',
	usage: 'engi candidates accept <ref> --file <distillation.json|-> [--max-turns <n>]',
	examples: ['engi candidates accept claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --file distillation.json', 'cat reply.json | engi candidates accept claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --file -'],
	options: {file: {type: 'string', placeholder: '<path|->', description: 'the distillation JSON ({model, verified, failed, blockers, decided, next}), or - for stdin', value: textFlag(), required: true}, ...maxTurnsOption},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'write'},
	output: acceptOutputSchema,
	async run(flags, context) {
		const text = await readTextInput(flags.file, context.stdin, context.deps.cwd);
		const distillation = parseDistillation(text, flags.file === '-' ? 'stdin' : flags.file);
		return {data: await acceptDistillation(knowledgeBase(context), {ref: flags.ref, maxTurns: flags['max-turns'], distillation}, context.deps)};
	},
	human: renderAccepted,
});

export const candidatesDistill = defineCommand({
	name: 'candidates distill',
	summary: 'run a distiller command on a candidate\'s evidence, through the citation filter',
	usage: 'engi candidates distill <ref> --with "<command>" [--max-turns <n>] [--timeout <seconds>]',
	examples: ['engi candidates distill claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d --with "claude -p"', 'engi candidates distill codex-0195a1c2-0a00-7a00-8a00-00000000000a --with "ollama run qwen3" --timeout 300'],
	options: {
		with: {type: 'string', placeholder: '<command>', description: `the distiller: a shell command that reads the evidence on stdin and prints one JSON distillation (at most ${maxDistillerOutput / 1024} KiB)`, value: textFlag(), required: true},
		...maxTurnsOption,
		timeout: {type: 'string', placeholder: '<seconds>', description: `stop the distiller after this long (default ${defaultTimeoutSeconds})`, value: intFlag(1, 86_400)},
	},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'never'},
	output: distillOutputSchema,
	async run(flags, context) {
		return {data: await distillCandidate(knowledgeBase(context), {ref: flags.ref, maxTurns: flags['max-turns'], command: flags.with, timeoutSeconds: flags.timeout}, context.deps)};
	},
	human: renderAccepted,
});
