import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {choiceFlag, intFlag, textFlag, utcFlag} from '../cli/flag-schemas.js';
import type {Deps} from '../engine/deps.js';
import {EngiError, type ExitCode} from '../lib/errors.js';
import type {KbPaths} from '../engine/kb/paths.js';
import {localScanLimits} from '../engine/knowledge/local-scan.js';
import {queryLimitMax, queryOutputSchema, queryPageSize, type QueryOutput} from '../engine/knowledge/query-schema.js';
import {clip, fieldLines, stateText, tsv} from '../output/text.js';
import {evaluationSchema} from '../engine/evidence/evaluation-schema.js';
import {proposalCheckOutputSchema, proposalContextOutputSchema, reviewCheckOutputSchema} from '../engine/evidence/proposal-output-schema.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';
import {plural} from '../lib/words.js';
import {lazySchema} from '../lib/lazy-schema.js';
import {contractText, type ContractAnswer} from './contract-text.js';

function renderHuman(result: QueryOutput | ContractAnswer, context: HumanContext): string {
	if ('scope' in result) {
		return contractText(result);
	}

	const hidden = result.archived_hidden > 0 ? `, ${result.archived_hidden} archived left out (--include-archived)` : '';
	const head = `${stateText(result.state, result.reasons)}: ${plural(result.total, 'match', 'matches')} for ${JSON.stringify(result.q)} as of ${result.as_of}${hidden}`;
	const lines = [head];
	if (result.total === 0) {
		lines.push(`try fewer or other words${context.flags['include-expired'] ? '' : ', or --include-expired for facts no longer valid'}`);
	}

	if (result.view === 'hits') {
		lines.push(tsv(result.hits.map(hit => [hit.node_id, hit.kind, hit.score, hit.why, hit.label])));
	} else if (result.view === 'context') {
		for (const row of result.rows) {
			lines.push(`${row.node_id}\t${row.kind ?? ''}\t${row.status ?? ''}\t${clip(row.label ?? '', 70)}`);
			if (row.linked_projects.length > 0) {
				lines.push(`  projects: ${row.linked_projects.map(project => project.id).join(', ')}`);
			}

			for (const decision of row.decisions) {
				lines.push(`  decision: ${decision.id} ${decision.label ?? ''} (${decision.edge})`);
			}

			for (const gap of row.authority_gaps) {
				lines.push(`  gap: ${gap.kind}: ${gap.detail}`);
			}
		}

		if (result.rows.length > 0) {
			lines.push(`evidence: ${result.expand.map(part => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ')}`);
		}
	} else {
		for (const candidate of result.candidates) {
			lines.push(`${candidate.id}\t${candidate.score}\t${candidate.why}\tsha256 ${candidate.node_sha256}`, ...fieldLines(candidate.node, '  '));
			for (const entry of candidate.history) {
				lines.push(`  journal line ${entry.line} ${entry.at} ${entry.op} ${entry.event}`, ...fieldLines(entry.payload, '    '));
			}
		}
	}

	const local = result.view === 'evidence' ? null : result.unindexed_local_candidates;
	if (local) {
		lines.push(`not in the knowledge base; file names matching in ${local.roots.join(', ')} (scanned ${local.limits.scanned}${local.limits.truncated ? ', stopped at the limit' : ''}):`, ...local.paths.map(path => `  ${path}`));
	}

	lines.push(...pageFooter(result, context));
	return lines.filter(Boolean).join('\n');
}

type ContractFlags = {
	'evidence-contract'?: string;
	'prepare-proposal'?: boolean;
	'evidence-ids'?: boolean;
	'task-proposal'?: string;
	'task-draft'?: string;
	'proposal-review'?: string;
};

/**
 * The contract modes: which evaluation the flags ask for (undefined for a plain query), after
 * checking that each flag has the one it needs. The engine loads only then, so a plain query
 * never pays for the tokenizer or the solver (nor a contract for the index).
 */
function contractInput(flags: ContractFlags) {
	const needs = (flag: string, needed: string) => new EngiError('missing_flag', `--${flag} needs --${needed}`, {hint: 'see engi query --help'});
	const file = flags['evidence-contract'];
	const proposal = flags['task-proposal'];
	const draft = flags['task-draft'];
	const review = flags['proposal-review'];
	for (const [flag, given] of [['prepare-proposal', flags['prepare-proposal']], ['task-proposal', proposal], ['task-draft', draft]] as const) {
		if (given !== undefined && file === undefined) {
			throw needs(flag, 'evidence-contract');
		}
	}

	if (flags['evidence-ids'] && !flags['prepare-proposal']) {
		throw needs('evidence-ids', 'prepare-proposal');
	}

	if (review !== undefined && proposal === undefined && draft === undefined) {
		throw needs('proposal-review', 'task-proposal or --task-draft');
	}

	if (file === undefined) {
		return undefined;
	}

	return async (paths: KbPaths, q: string, deps: Deps) => {
		if (flags['prepare-proposal']) {
			const {prepareProposal} = await import('../engine/evidence/proposal.js');
			return asOutcome(prepareProposal(paths, {file, q, evidenceIds: Boolean(flags['evidence-ids'])}, deps));
		}

		if (proposal !== undefined || draft !== undefined) {
			const {checkProposalInput} = await import('../engine/evidence/proposal.js');
			return asOutcome(checkProposalInput(paths, {file, q, proposal, draft, review}, deps));
		}

		const {evaluateContract} = await import('../engine/evidence/evaluate.js');
		return asOutcome(await evaluateContract(paths, {file, q}, deps));
	};
}

const asOutcome = ({output, exitCode}: {output: ContractAnswer; exitCode: ExitCode}) => ({data: output, exitCode});

export default defineCommand({
	name: 'query',
	summary: 'search the knowledge base by id or text (English and Chinese alike)',
	usage: 'engi query --q <text> [--view context|hits|evidence] [--as-of <utc>] [--include-expired] [--include-archived] [--limit <n>] [--offset <n>] [--local-scan] | --evidence-contract <file> [--prepare-proposal [--evidence-ids] | (--task-proposal|--task-draft) <file> [--proposal-review <file>]]',
	examples: [
		'engi query --q "streaming parser"',
		'engi query --q task:fts --view evidence',
		'engi query --q 方鸿渐 --view hits --limit 5',
		'engi query --q "q3 report" --local-scan',
		'engi query --q "why stream the CSV?" --evidence-contract contract.json',
	],
	options: {
		// Optional, so that `engi query` alone on a terminal opens the Query screen; printing needs it.
		q: {type: 'string', placeholder: '<text>', description: 'what to find: a node id, or words (all must match)', value: textFlag()},
		view: {type: 'string', placeholder: '<view>', description: 'context (default): candidates with projects, decisions and gaps; hits: ranked ids, each factor of the rank in why; evidence: nodes with hashes and journal history', value: choiceFlag(['context', 'hits', 'evidence'])},
		'as-of': {type: 'string', placeholder: '<utc>', description: 'look as of a moment (YYYY-MM-DDTHH:MM:SSZ): later events and edges not yet valid are ignored', value: utcFlag()},
		'include-expired': {type: 'boolean', description: 'keep edges whose validity window has closed', value: z.boolean()},
		'include-archived': {type: 'boolean', description: 'keep nodes engi dream archived (they drop out of answers otherwise)', value: z.boolean()},
		...pagingOptions,
		// Any number is taken; above the maximum the engine lowers it and says `truncated`.
		limit: {...pagingOptions.limit, description: `rows per page (default ${queryPageSize}, at most ${queryLimitMax})`, value: intFlag(1, Number.MAX_SAFE_INTEGER)},
		'local-scan': {type: 'boolean', description: `when nothing matches, also look for matching file names in ~/Documents and ~/Downloads (names only, ${localScanLimits.maxDepth} levels deep, at most ${localScanLimits.maxEntries} entries and ${localScanLimits.maxResults} results)`, value: z.boolean()},
		'evidence-contract': {type: 'string', placeholder: '<file>', description: 'answer --q from the journal as an evidence contract (JSON, at most 1 MiB) asks: the smallest pinned packet that covers its facts, or why none does (exit 2)', value: textFlag()},
		'prepare-proposal': {type: 'boolean', description: 'with a contract of facts: [] and 1 to 64 sources: the context a task proposal is made from', value: z.boolean()},
		'evidence-ids': {type: 'boolean', description: 'with --prepare-proposal: also the sources as numbered evidence units and the JSON Schema of a task draft citing them', value: z.boolean()},
		'task-proposal': {type: 'string', placeholder: '<file>', description: 'check a task proposal (citations quote the sources) against the contract\'s context', value: textFlag()},
		'task-draft': {type: 'string', placeholder: '<file>', description: 'check a task draft (citations are evidence ids) against the contract\'s context', value: textFlag()},
		'proposal-review': {type: 'string', placeholder: '<file>', description: 'with a proposal or draft: check a review of it (a verdict per premise); an approved one can be applied with engi proposal apply', value: textFlag()},
	},
	conflicts: [
		...(['as-of', 'include-expired', 'view', 'limit', 'offset', 'local-scan'] as const).map(flag => ['evidence-contract', flag] as const),
		['prepare-proposal', 'task-proposal'],
		['prepare-proposal', 'task-draft'],
		['prepare-proposal', 'proposal-review'],
		['task-proposal', 'task-draft'],
	],
	needsRoot: true,
	mcp: {access: 'read'},
	// Built only when asked for (engi schema): a query validates none of its output.
	output: lazySchema(() => z.union([queryOutputSchema, evaluationSchema, proposalContextOutputSchema, proposalCheckOutputSchema, reviewCheckOutputSchema])),
	screen: 'query',
	// The screen answers a search and an evidence contract; the proposal modes (and a contract with no question) print.
	opensScreen: flags => (flags.q !== undefined || flags['evidence-contract'] === undefined) && !flags['prepare-proposal'] && !flags['evidence-ids'] && [flags['task-proposal'], flags['task-draft'], flags['proposal-review']].every(file => file === undefined),
	async run(flags, context) {
		if (flags.q === undefined) {
			throw new EngiError('missing_flag', 'engi query needs --q', {hint: 'see engi query --help'});
		}

		const contract = contractInput(flags);
		if (contract) {
			return contract(knowledgeBase(context), flags.q, context.deps);
		}

		// Loaded only here: a contract never opens the index.
		const {queryKnowledge} = await import('../engine/knowledge/query.js');
		const {output, exitCode} = await queryKnowledge(
			knowledgeBase(context),
			{
				q: flags.q,
				view: flags.view,
				asOf: flags['as-of'],
				includeExpired: flags['include-expired'],
				includeArchived: flags['include-archived'],
				limit: flags.limit,
				offset: flags.offset,
				localScan: flags['local-scan'],
			},
			context.deps,
		);
		return {data: output, exitCode};
	},
	human: renderHuman,
});
