import * as z from 'zod/mini';
import {defineCommand} from '../cli/define.js';
import {syncWiki, wikiSyncOutputSchema, type WikiSyncOutput} from '../engine/upkeep/wiki-sync.js';
import {tsv} from '../output/text.js';
import {plural} from '../lib/words.js';
import {knowledgeBase} from './shared.js';

function renderHuman(result: WikiSyncOutput): string {
	const {counts} = result;
	const head = `${plural(result.appended, 'event')} appended: ${counts.new} new, ${counts.changed} changed, ${counts.unchanged} unchanged, ${counts.missing} missing, ${counts.held} held, ${counts.invalid} invalid`;
	const rows: unknown[][] = [
		...result.pages.map(page => [page.status, page.path, page.node]),
		...result.held.map(page => ['held', page.path, page.reason, page.detail]),
		...result.invalid.flatMap(page => page.reasons.map(reason => ['invalid', `${page.path}:${reason.line ?? 1}`, reason.message])),
		...result.cleared.map(path => ['cleared', path]),
		...result.missing.map(id => ['missing', id]),
		...result.unresolved.map(link => ['unresolved', `${link.path}:${link.line}`, link.ref]),
		...result.skipped.map(entry => ['skipped', entry.path, entry.reason]),
	];
	const tail = result.invalid.length > 0 ? ['nothing was appended: fix the frontmatter above and run engi wiki sync again'] : [];
	return [head, ...(rows.length > 0 ? [tsv(rows)] : []), ...tail].join('\n');
}

export const wikiSync = defineCommand({
	name: 'wiki sync',
	summary: 'read 02-wiki/ pages into the graph, holding conflicted pages in quarantine',
	usage: 'engi wiki sync [--all-pages]',
	examples: ['engi wiki sync', 'engi wiki sync --format json', 'engi wiki sync --all-pages --format json'],
	options: {'all-pages': {type: 'boolean', description: 'list every page in `pages`, unchanged ones too (by default only new and changed pages are listed; all are counted)', value: z.boolean()}},
	needsRoot: true,
	mcp: {access: 'write'},
	output: wikiSyncOutputSchema,
	async run(flags, context) {
		const {output, exitCode} = await syncWiki(knowledgeBase(context), context.deps, {allPages: Boolean(flags['all-pages'])});
		return {data: output, exitCode};
	},
	human: renderHuman,
});
