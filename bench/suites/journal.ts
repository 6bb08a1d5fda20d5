import {appendFileSync, existsSync, mkdirSync, rmSync} from 'node:fs';
import {join} from 'node:path';
import {prepareEvents, serializeEvent} from '../../source/engine/journal/append.js';
import {generateJournal} from '../generate-journal.js';
import {cli, measure, runOnce, type Row} from '../lib/measure.js';

/** Issue 2's figures: start-up, status, project brief, rebuild and refresh on 10k/100k journals. */
export function journalSuite(corpus: string, env: NodeJS.ProcessEnv): Row[] {
	const rows: Row[] = [];
	rows.push(measure('journal', 'engi --version', ['node', cli, '--version'], env, {target: '≤ 1.5× node -e 0', runs: 15}));
	for (const events of [10_000, 100_000]) {
		const root = join(corpus, `kb-${events}`);
		if (!existsSync(join(root, '.engi', 'journal.jsonl'))) {
			mkdirSync(root, {recursive: true});
			generateJournal(root, events);
		}

		rmSync(join(root, '.engi', 'index.sqlite'), {force: true});
		const run = (...args: string[]) => ['node', cli, ...args, '--root', root];
		runOnce(run('status', '--format', 'json'), env); // Build the index once.
		const label = `${events / 1000}k`;
		rows.push(measure('journal', `status --format json (${label})`, run('status', '--format', 'json'), env, {target: events === 10_000 ? '≤ 2.5× node -e 0' : undefined}));
		rows.push(measure('journal', `project --format json (${label})`, run('project', '--format', 'json'), env, {target: events === 100_000 ? '≤ 3× node -e 0' : undefined}));
		rows.push(measure('journal', `index rebuild (${label})`, run('index', 'rebuild', '--format', 'json'), env, {runs: 3, warmup: 0, target: events === 100_000 ? '≤ 5 s' : undefined}));
		let counter = 0;
		const appendOne = () => {
			counter++;
			const line = serializeEvent(prepareEvents([{op: 'node.upsert', payload: {id: `task:bench-${Date.now()}-${counter}`, kind: 'Task', label: 'appended'}}], new Date())[0]!);
			appendFileSync(join(root, '.engi', 'journal.jsonl'), line);
		};

		rows.push(measure('journal', `status after 1 appended event (${label})`, run('status', '--format', 'json'), env, {before: appendOne, target: '≤ status + 50 ms'}));
	}

	return rows;
}
