import {EngiError} from '../../lib/errors.js';
import type {CatalogView} from '../catalog/view.js';
import {loadCandidates, type RetentionCandidate} from './candidates.js';

export type Found = {readonly candidate: RetentionCandidate; readonly all: RetentionCandidate[]};

/**
 * The one session retention acts on by id, among the stores in scope (the id already checked).
 * Undefined when no store holds it any more; several copies are ambiguous, and a subagent
 * inside its parent's directory is retired with the parent, never alone.
 */
export function findCandidate(view: CatalogView, id: string): Found | undefined {
	const all = loadCandidates(view);
	const same = (sessionId: string) => sessionId.toLowerCase() === id.toLowerCase();
	const matches = all.filter(candidate => same(candidate.unit.session_id));
	if (matches.length > 1) {
		throw new EngiError('session_ambiguous', `ambiguous conversation: ${id} exists in ${matches.length} places`, {
			hint: 'select one with --source and --source-root',
			details: {candidates: matches.map(candidate => ({source: candidate.unit.source, path: candidate.unit.path}))},
		});
	}

	if (matches.length === 1) {
		return {candidate: matches[0]!, all};
	}

	const parent = all.find(candidate => candidate.nested.some(unit => same(unit.session_id)));
	if (parent) {
		throw new EngiError('session_nested', `${id} lives inside session ${parent.unit.session_id} (${parent.unit.source}) and is retired with it`, {
			hint: `attest and purge ${parent.unit.session_id} instead`,
		});
	}

	return undefined;
}
