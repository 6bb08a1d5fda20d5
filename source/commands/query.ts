import * as z from 'zod/mini';
import {defineCommand, type HumanContext} from '../cli/define.js';
import {choiceFlag, intFlag, textFlag, utcFlag} from '../cli/flag-schemas.js';
import {EngiError} from '../lib/errors.js';
import {localScanLimits} from '../engine/knowledge/local-scan.js';
import {queryKnowledge, queryLimitMax, queryPageSize} from '../engine/knowledge/query.js';
import {queryOutputSchema, type QueryOutput} from '../engine/knowledge/query-schema.js';
import {clip, fieldLines, tsv} from '../output/text.js';
import {knowledgeBase, pageFooter, pagingOptions} from './shared.js';
import {plural} from '../lib/words.js';

function renderHuman(result: QueryOutput, context: HumanContext): string {
	const head = `${result.state}: ${plural(result.total, 'match', 'matches')} for ${JSON.stringify(result.q)} as of ${result.as_of}${result.reasons.length > 0 ? ` (${result.reasons.join('; ')})` : ''}`;
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

export default defineCommand({
	name: 'query',
	summary: 'search the knowledge base by id or text (English and Chinese alike)',
	usage: 'engi query --q <text> [--view context|hits|evidence] [--as-of <utc>] [--include-expired] [--limit <n>] [--offset <n>] [--local-scan]',
	examples: ['engi query --q "streaming parser"', 'engi query --q task:fts --view evidence', 'engi query --q 方鸿渐 --view hits --limit 5', 'engi query --q "q3 report" --local-scan'],
	options: {
		// Optional, so that `engi query` alone on a terminal opens the Query screen; printing needs it.
		q: {type: 'string', placeholder: '<text>', description: 'what to find: a node id, or words (all must match)', value: textFlag()},
		view: {type: 'string', placeholder: '<view>', description: 'context (default): candidates with projects, decisions and gaps; hits: ranked ids; evidence: nodes with hashes and journal history', value: choiceFlag(['context', 'hits', 'evidence'])},
		'as-of': {type: 'string', placeholder: '<utc>', description: 'look as of a moment (YYYY-MM-DDTHH:MM:SSZ): later events and edges not yet valid are ignored', value: utcFlag()},
		'include-expired': {type: 'boolean', description: 'keep edges whose validity window has closed', value: z.boolean()},
		...pagingOptions,
		// Any number is taken; above the maximum the engine lowers it and says `truncated`.
		limit: {...pagingOptions.limit, description: `rows per page (default ${queryPageSize}, at most ${queryLimitMax})`, value: intFlag(1, Number.MAX_SAFE_INTEGER)},
		'local-scan': {type: 'boolean', description: `when nothing matches, also look for matching file names in ~/Documents and ~/Downloads (names only, ${localScanLimits.maxDepth} levels deep, at most ${localScanLimits.maxEntries} entries and ${localScanLimits.maxResults} results)`, value: z.boolean()},
	},
	needsRoot: true,
	mcp: {access: 'read'},
	output: queryOutputSchema,
	screen: 'query',
	async run(flags, context) {
		if (flags.q === undefined) {
			throw new EngiError('missing_flag', 'engi query needs --q', {hint: 'see engi query --help'});
		}

		const {output, exitCode} = await queryKnowledge(
			knowledgeBase(context),
			{
				q: flags.q,
				view: flags.view,
				asOf: flags['as-of'],
				includeExpired: flags['include-expired'],
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
