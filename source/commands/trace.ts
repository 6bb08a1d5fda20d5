import {defineCommand} from '../cli/define.js';
import {intFlag, textFlag, utcFlag} from '../cli/flag-schemas.js';
import {traceClue} from '../engine/upkeep/trace.js';
import {traceDefaults} from '../engine/upkeep/trace-budget.js';
import {traceOutputSchema, type TraceOutput} from '../engine/upkeep/trace-schema.js';
import {plural, shellWord} from '../lib/words.js';
import {stateText} from '../output/text.js';
import {knowledgeBase, sourceOptions} from './shared.js';

function renderHuman(result: TraceOutput): string {
	const spent = (['sources', 'bytes', 'records', 'nodes', 'depth'] as const).map(key => `${key} ${result.spent[key]}/${result.bounds[key]}`).join(', ');
	const lines = [
		`${stateText(result.state, result.reasons)}: ${plural(result.results.length, 'record')} for ${JSON.stringify(result.q)} from ${plural(result.seeds.length, 'seed')} through ${plural(result.transcripts.length, 'transcript')} as of ${result.as_of}`,
		`spent: ${spent}`,
	];
	for (const found of result.results) {
		const path = [found.seed, ...found.hops.map(hop => `${hop.direction === 'reverse' ? '<-' : '-'}${hop.type}${hop.direction === 'reverse' ? '-' : '->'} ${hop.to}`)].join(' ');
		lines.push(`${found.source}:${found.session_id} line ${found.line}\t${found.quote}`, `  via ${path}`, `  expand: ${found.expand.map(part => shellWord(part)).join(' ')}`);
	}

	return lines.join('\n');
}

const bound = (name: string, fallback: number, max: number) => ({type: 'string', placeholder: '<n>', description: `${name} (default ${fallback})`, value: intFlag(0, max)}) as const;

export default defineCommand({
	name: 'trace',
	summary: 'follow a clue from the knowledge base back to the transcripts it came from',
	usage: 'engi trace --q <clue> [--seed <node id>] [--as-of <utc>] [--max-sources <n>] [--max-bytes <n>] [--max-records <n>] [--max-nodes <n>] [--max-depth <n>] [--source <tool>] [--source-root <dir>]',
	examples: ['engi trace --q "streaming parser"', 'engi trace --q "cold start" --seed decision:cache-key', 'engi trace --q 方鸿渐 --max-depth 2 --max-records 10'],
	options: {
		q: {type: 'string', placeholder: '<clue>', description: 'what to trace: a node id, or words (all must match), in the knowledge base and then in the transcripts reached', value: textFlag(), required: true},
		seed: {type: 'string', placeholder: '<node id>', description: 'start from this node alone, not from the nodes the clue matches', value: textFlag()},
		'as-of': {type: 'string', placeholder: '<utc>', description: 'follow the graph as of a moment (YYYY-MM-DDTHH:MM:SSZ)', value: utcFlag()},
		'max-sources': bound('transcripts and evidence files read at most', traceDefaults.maxSources, 10_000),
		'max-bytes': bound('bytes of records and evidence files read at most', traceDefaults.maxBytes, Number.MAX_SAFE_INTEGER),
		'max-records': bound('transcript records read at most', traceDefaults.maxRecords, 10_000),
		'max-nodes': bound('knowledge nodes visited at most, seeds included', traceDefaults.maxNodes, 100_000),
		'max-depth': bound('provenance hops from a seed at most', traceDefaults.maxDepth, 64),
		...sourceOptions,
	},
	needsRoot: true,
	mcp: {access: 'read', quotesTranscripts: true},
	output: traceOutputSchema,
	async run(flags, context) {
		const {output, exitCode} = await traceClue(
			knowledgeBase(context),
			{
				q: flags.q,
				seed: flags.seed,
				asOf: flags['as-of'],
				maxSources: flags['max-sources'],
				maxBytes: flags['max-bytes'],
				maxRecords: flags['max-records'],
				maxNodes: flags['max-nodes'],
				maxDepth: flags['max-depth'],
				source: flags.source,
				sourceRoot: flags['source-root'],
			},
			context.deps,
		);
		return {data: output, exitCode};
	},
	human: renderHuman,
});
