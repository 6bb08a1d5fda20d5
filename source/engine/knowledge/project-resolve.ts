import {EngiError} from '../../lib/errors.js';
import type {Database} from '../../lib/sqlite.js';
import {nodesOfKind} from '../index/store.js';

export type ProjectRef = {readonly id: string; readonly label: string | null; readonly path: string | null};

function normalize(text: string): string {
	let value = text.trim().replace(/\/+$/, '').replaceAll('\\', '/').toLowerCase();
	const workspace = value.lastIndexOf('/workspace/');
	if (workspace !== -1) {
		value = value.slice(workspace + '/workspace/'.length);
	}

	return value.replace(/^\.\//, '');
}

const stripPrefix = (id: string) => id.replace(/^(project|workspace|p):/, '');
const lastSegment = (id: string) => id.split(/[/\\:]/).filter(Boolean).at(-1) ?? id;

export function listProjects(db: Database): ProjectRef[] {
	return nodesOfKind(db, 'Project').map(node => {
		const path = node.payload['path'];
		return {id: node.id, label: node.label, path: typeof path === 'string' ? path : null};
	});
}

/**
 * Finds the project a user means by id, slug, path, label or basename. The best-ranked match
 * wins; two projects matching equally well is an error that lists them, never a guess.
 */
export function resolveProject(db: Database, input: string): ProjectRef {
	const wanted = normalize(input);
	const ranked: Array<{project: ProjectRef; rank: number}> = [];
	for (const project of listProjects(db)) {
		const id = normalize(project.id);
		let rank: number | undefined;
		if (id === wanted) {
			rank = 0;
		} else if (stripPrefix(id) === wanted || (project.path !== null && normalize(project.path) === wanted)) {
			rank = 1;
		} else if (project.label !== null && normalize(project.label) === wanted) {
			rank = 2;
		} else if (normalize(lastSegment(project.id)) === wanted || (project.path !== null && normalize(lastSegment(project.path)) === wanted)) {
			rank = 3;
		}

		if (rank !== undefined) {
			ranked.push({project, rank});
		}
	}

	if (ranked.length === 0) {
		throw new EngiError('unknown_project', `unknown project: ${input}`, {hint: 'engi project lists the recorded projects'});
	}

	const best = Math.min(...ranked.map(entry => entry.rank));
	const winners = ranked.filter(entry => entry.rank === best).map(entry => entry.project);
	if (winners.length > 1) {
		throw new EngiError('ambiguous_project', `ambiguous project: ${input}; candidates: ${winners.map(project => project.id).join(', ')}`, {
			hint: 'pass the full project id',
			details: {candidates: winners.map(project => project.id)},
		});
	}

	return winners[0]!;
}
