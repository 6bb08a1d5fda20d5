import {defineCommand, type HumanContext} from '../cli/define.js';
import {choiceFlag, textFlag} from '../cli/flag-schemas.js';
import {promoteCandidate, promoteOutputSchema, type PromoteOutput} from '../engine/candidates/promote.js';
import {
	candidateRejectOutputSchema,
	candidateShowOutputSchema,
	candidatesListOutputSchema,
	candidatesPageSize,
	defaultListStatus,
	listCandidates,
	listStatuses,
	rejectCandidate,
	showCandidate,
	type CandidateShowOutput,
	type CandidatesListOutput,
} from '../engine/candidates/review.js';
import {plural} from '../lib/words.js';
import {clip, tsv} from '../output/text.js';
import {commandCounts} from './render-candidates.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';

const refPositional = [{name: 'ref', required: true, description: 'a candidate note\'s name (engi candidates list shows them) or its session id', value: textFlag()}] as const;

function renderList(result: CandidatesListOutput, context: HumanContext): string {
	const {counts} = result;
	const shown = result.filter === 'all' ? 'candidate note' : `${result.filter} candidate`;
	const lines = [
		`${plural(result.total, shown)} (queue: ${counts.pending} pending, ${counts.promoted} promoted, ${counts.rejected} rejected${counts.unreadable > 0 ? `; ${counts.unreadable} unreadable` : ''})`,
		tsv(
			result.candidates.map(row => [
				row.ref,
				row.unreadable ? 'unreadable' : row.status + (row.tier === 'distilled' ? ' (distilled)' : ''),
				row.source ?? '?',
				row.project ?? '-',
				row.turns === null ? '' : plural(row.turns, 'turn'),
				commandCounts(row.commands),
				row.unreadable ? (row.problem ?? '') : clip(row.first_request ?? '(no request)', 70),
			]),
		),
		...pageFooter(result, context),
	];
	return lines.filter(Boolean).join('\n');
}

export const candidatesList = defineCommand({
	name: 'candidates list',
	summary: 'the review queue of candidate notes, newest first',
	usage: 'engi candidates list [--status pending|promoted|rejected|all] [--limit <n>] [--offset <n>]',
	examples: ['engi candidates list', 'engi candidates list --status all --limit 20'],
	options: {
		status: {type: 'string', placeholder: '<status>', description: `one of ${listStatuses.join(', ')} (default: ${defaultListStatus})`, value: choiceFlag(listStatuses)},
		...pagingOptions,
		limit: {...pagingOptions.limit, description: `rows per page (default ${candidatesPageSize})`},
	},
	needsRoot: true,
	mcp: {access: 'read'},
	output: candidatesListOutputSchema,
	async run(flags, context) {
		return {data: await listCandidates(knowledgeBase(context), {status: flags.status, limit: flags.limit, offset: flags.offset})};
	},
	human: renderList,
});

function renderShow(result: CandidateShowOutput): string {
	const {candidate, note} = result;
	if (note === null) {
		return [`${candidate.ref}\tunreadable\t${candidate.problem ?? ''}`, `session\t${candidate.source ?? '?'} ${candidate.native_id} (from the file name)`, `note\t${candidate.path}`].join('\n');
	}

	const claims = (label: string, list: ReadonlyArray<{text: string; turns: number[]}>) => list.map(claim => [label, claim.text, `turns ${claim.turns.join(', ')}`]);
	return [
		`${candidate.ref}\t${note.status}\t${note.tier}${note.model === null ? '' : ` by ${note.model}`}`,
		`session\t${note.source} ${note.native_id}`,
		`transcript\t${note.source_path} (${note.source_bytes} bytes, sha256 ${note.source_sha256.slice(0, 12)}…)`,
		`project\t${note.project ?? 'unknown'}`,
		`when\t${note.started ?? '?'} → ${note.ended ?? '?'}, ${plural(note.turns, 'turn')}${note.skipped_lines > 0 ? `, ${plural(note.skipped_lines, 'line')} skipped` : ''}`,
		note.first_request === null ? '' : `first request\t(turn ${note.first_request.turn}) ${clip(note.first_request.text, 200)}`,
		tsv(note.files.map(file => ['file', file.path, `turn ${file.turn}`])),
		tsv(note.commands.map(command => ['command', `${command.status}${command.exit_code === null ? '' : ` (exit ${command.exit_code})`}`, clip(command.command, 120), `turn ${command.turn}`])),
		tsv([...claims('verified', note.verified), ...claims('failed', note.failed), ...claims('blocker', note.blockers), ...claims('decided', note.decided)]),
		note.next === null ? '' : `next\t${note.next}`,
		note.promoted === null ? '' : `promoted\t${note.promoted.outcome} → ${note.promoted.conversation}; checkpoint in ${note.promoted.checkpoints}`,
		result.review_notes === '' ? '' : `review notes\t${clip(result.review_notes, 200)}`,
		`note\t${candidate.path}`,
		...Object.values(result.commands).filter((command): command is string => command !== null).map(command => `run\t${command}`),
	]
		.filter(Boolean)
		.join('\n');
}

export const candidatesShow = defineCommand({
	name: 'candidates show',
	summary: 'one candidate note: its facts, claims and the turns they cite',
	usage: 'engi candidates show <ref>',
	examples: ['engi candidates show claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d'],
	options: {},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'read', quotesTranscripts: true},
	output: candidateShowOutputSchema,
	async run(flags, context) {
		return {data: await showCandidate(knowledgeBase(context), {ref: flags.ref})};
	},
	human: renderShow,
});

export const candidatesReject = defineCommand({
	name: 'candidates reject',
	summary: 'mark a pending candidate rejected (the note is kept)',
	usage: 'engi candidates reject <ref>',
	examples: ['engi candidates reject claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d'],
	options: {},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'write'},
	output: candidateRejectOutputSchema,
	async run(flags, context) {
		return {data: await rejectCandidate(knowledgeBase(context), {ref: flags.ref}, context.deps)};
	},
	human: result => `rejected\t${result.ref}\t(the note is kept: ${result.path})`,
});

function renderPromote(result: PromoteOutput): string {
	return [
		`promoted\t${result.ref}`,
		`journal\t${plural(result.events.appended, 'event')} appended${result.events.unchanged > 0 ? `, ${result.events.unchanged} already held` : ''}`,
		...result.nodes.map(node => `node\t${node}`),
		`checkpoint\timported into ${result.checkpoint.path}`,
		...result.quarantined.map(line => `quarantined\tline ${line.line}\t${line.reason}`),
	].join('\n');
}

export const candidatesPromote = defineCommand({
	name: 'candidates promote',
	summary: 'make a reviewed candidate durable: graph nodes and an imported checkpoint',
	usage: 'engi candidates promote <ref> [--project <dir>]',
	examples: ['engi candidates promote claude-0f9e2c1a-6b1d-4c1e-9a55-2d6f0e1b7c3d', 'engi candidates promote codex-0195a1c2-0a00-7a00-8a00-00000000000a --project .'],
	options: {project: {type: 'string', placeholder: '<dir>', description: 'the project whose .engi/checkpoints.jsonl takes the imported checkpoint (default: the session\'s own; needed when that is not on this machine)', value: textFlag()}},
	positionals: refPositional,
	needsRoot: true,
	mcp: {access: 'write'},
	output: promoteOutputSchema,
	async run(flags, context) {
		return {data: await promoteCandidate(knowledgeBase(context), {ref: flags.ref, project: flags.project}, context.deps)};
	},
	human: renderPromote,
});
