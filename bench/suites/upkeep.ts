import {copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {generateJournal} from '../generate-journal.js';
import {cli, measure, runOnce, type Row} from '../lib/measure.js';
import {seededRandom, sentence} from '../lib/random.js';

const pages = 5000;

/** A wiki of `pages` pages with frontmatter (ids, tags, sources, related pages) and [[links]] in the body, the same every time. */
function writeWiki(root: string): void {
	const random = seededRandom(17);
	const wiki = join(root, '02-wiki');
	for (let page = 0; page < pages; page++) {
		const folder = join(wiki, `area-${page % 50}`);
		mkdirSync(folder, {recursive: true});
		const related = `page-${random.int(0, pages - 1)}`;
		writeFileSync(
			join(folder, `page-${page}.md`),
			[
				'---',
				`id: wiki:page-${page}`,
				`title: ${sentence(random, 4)}`,
				'kind: decision',
				`tags: [area-${page % 50}, ${random.pick(['infra', 'api', 'ui', 'data'])}]`,
				`sources: [https://example.org/spec/${page}]`,
				`related: [${related}]`,
				'---',
				`${sentence(random, 30)} See [[page-${random.int(0, pages - 1)}]].`,
				'',
			].join('\n'),
		);
	}
}

/** A knowledge base of its own (engi init), so a cold sync can start again from an empty journal. */
function freshKb(root: string, env: NodeJS.ProcessEnv): void {
	rmSync(join(root, '.engi'), {recursive: true, force: true});
	mkdirSync(root, {recursive: true});
	runOnce(['node', cli, 'init', root, '--no-register', '--force', '--format', 'json'], env);
}

/**
 * Issue 17's figures: `wiki sync` of 5,000 pages cold and with one page changed, `dream` over a
 * 100k-event journal, and ranked `query` at 100k events now that it ranks by the fused score.
 */
export function upkeepSuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	const wikiRoot = join(corpus, 'upkeep-wiki-5000');
	if (!existsSync(join(wikiRoot, '02-wiki'))) {
		freshKb(wikiRoot, env);
		writeWiki(wikiRoot);
	}

	const sync = ['node', cli, 'wiki', 'sync', '--root', wikiRoot, '--format', 'json'];
	rows.push({...measure('upkeep', `wiki sync, ${pages} pages, cold`, sync, env, {runs: 3, warmup: 0, before: () => freshKb(wikiRoot, env)}), note: 'every page new: an empty journal and no index'});
	runOnce(sync, env);
	const changed = join(wikiRoot, '02-wiki', 'area-7', 'page-7.md');
	const original = readFileSync(changed, 'utf8');
	let edits = 0;
	const changeOne = () => {
		edits++;
		writeFileSync(changed, `${original}Edited ${edits}.\n`);
	};

	rows.push(measure('upkeep', `wiki sync, ${pages} pages, one changed`, sync, env, {before: changeOne, target: '≤ 3× node -e 0'}));
	rows.push({...measure('upkeep', `wiki sync, ${pages} pages, none changed`, sync, env), note: 'appends nothing'});

	const source = join(corpus, 'kb-100000');
	if (!existsSync(join(source, '.engi', 'journal.jsonl'))) {
		mkdirSync(source, {recursive: true});
		generateJournal(source, 100_000);
	}

	// Dream appends, so it works on a copy of the journal (the corpus may be hard-linked elsewhere).
	const dreamRoot = join(corpus, 'upkeep-dream-100k');
	freshKb(dreamRoot, env);
	copyFileSync(join(source, '.engi', 'journal.jsonl'), join(dreamRoot, '.engi', 'journal.jsonl'));
	const dream = ['node', cli, 'dream', '--root', dreamRoot, '--format', 'json'];
	runOnce(['node', cli, 'status', '--root', dreamRoot, '--format', 'json'], env); // Build the index once.
	rows.push({...measure('upkeep', 'dream, 100k events, first run', dream, env, {runs: 1, warmup: 0, target: '≤ 10 s'}), note: 'steps 1-7; appends what it finds'});
	rows.push(measure('upkeep', 'dream, 100k events, nothing new', dream, env, {runs: 3, warmup: 0, target: '≤ 10 s'}));
	rows.push(measure('upkeep', 'dream --prepare contradictions, 100k events', ['node', cli, 'dream', '--prepare', 'contradictions', '--root', dreamRoot, '--format', 'json'], env, {runs: 3, warmup: 0}));

	const query = (q: string) => ['node', cli, 'query', '--q', q, '--view', 'hits', '--root', source, '--format', 'json'];
	runOnce(query('index'), env); // Build the index once.
	for (const [name, q] of [
		['common word', 'index'],
		['rare word', 'quarantine budget'],
	] as const) {
		rows.push(measure('upkeep', `ranked query ${name} (100k)`, query(q), env, {target: '≤ 2.5× node -e 0'}));
	}

	rows.push({...measure('upkeep', 'trace common word (100k)', ['node', cli, 'trace', '--q', 'index', '--root', source, '--format', 'json'], env), note: 'no transcripts reached: seeds and hops only'});
	return rows;
}
