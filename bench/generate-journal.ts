import {mkdirSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {prepareEvents, serializeEvent, type EventDraft} from '../source/engine/journal/append.js';
import {chineseSentence, seededRandom, sentence} from './lib/random.js';

/**
 * Writes a knowledge base whose journal has `events` events over a few hundred projects and
 * thousands of tasks: creation, membership, status churn, decisions, supporting edges and a
 * few retractions, observed over a year in increasing time order.
 */
export function generateJournal(root: string, events: number, seed = 7): void {
	const random = seededRandom(seed);
	const projects = Math.max(20, Math.round(events / 330));
	const tasks = Math.max(200, Math.round(events / 20));
	const start = Date.parse('2025-11-01T00:00:00Z');
	const step = (365 * 24 * 3600 * 1000) / events;
	const lines: string[] = [];
	const push = (draft: EventDraft) => {
		const when = new Date(start + lines.length * step);
		lines.push(serializeEvent(prepareEvents([draft], when)[0]!));
	};

	for (let p = 0; p < projects; p++) {
		push({op: 'node.upsert', payload: {id: `project:p${p}`, kind: 'Project', label: `Project ${p} ${sentence(random, 2)}`, path: `/src/p${p}`}});
	}

	for (let t = 0; t < tasks && lines.length < events; t++) {
		push({op: 'node.upsert', payload: {id: `task:t${t}`, kind: 'Task', label: sentence(random, 5), status: 'open', next_action: sentence(random, 6)}});
		push({op: 'edge.assert', payload: {from: `task:t${t}`, type: 'BELONGS_TO', to: `project:p${random.int(0, projects - 1)}`}});
	}

	const statuses = ['open', 'in_progress', 'blocked', 'review', 'done', 'cancelled'];
	let decisions = 0;
	while (lines.length < events) {
		const roll = random.next();
		const task = `task:t${random.int(0, tasks - 1)}`;
		if (roll < 0.7) {
			const status = random.pick(statuses);
			push({
				op: 'node.upsert',
				payload: {id: task, status, next_action: sentence(random, random.int(3, 9)), ...(status === 'blocked' ? {blockers: [sentence(random, 4)]} : {}), note: lines.length},
			});
		} else if (roll < 0.82) {
			// A quarter of the decisions are written in Chinese, as mixed-language teams write them.
			const zh = random.next() < 0.25;
			push({op: 'node.upsert', payload: {id: `decision:d${decisions}`, kind: 'Decision', label: zh ? chineseSentence(random, 4) : sentence(random, 6), body: zh ? `${chineseSentence(random, 12)} ${sentence(random, 5)}` : sentence(random, 30)}});
			decisions++;
		} else if (roll < 0.96 && decisions > 0) {
			push({op: 'edge.assert', payload: {from: `decision:d${random.int(0, decisions - 1)}`, type: 'SUPPORTS', to: task, provenance: 'bench'}});
		} else {
			push({op: 'edge.retract', payload: {from: task, type: 'BELONGS_TO', to: `project:p${random.int(0, projects - 1)}`}});
		}
	}

	for (const directory of ['00-inbox/harvest', '01-raw', '02-wiki', '03-output/artifacts', '.engi']) {
		mkdirSync(join(root, directory), {recursive: true});
	}

	writeFileSync(join(root, '.engi', 'journal.jsonl'), lines.join(''));
	writeFileSync(join(root, '.gitattributes'), '.engi/journal.jsonl merge=union\n');
}
