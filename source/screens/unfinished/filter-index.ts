import MiniSearch from 'minisearch';
import type {Candidate} from '../../engine/continuity/unfinished.js';

/**
 * Filter-as-you-type over the candidates' title, project, source and reasons, with prefix and
 * fuzzy matching. Built once per candidate list, on the first keystroke, and kept in memory.
 */
export function buildFilterIndex(candidates: readonly Candidate[]) {
	const search = new MiniSearch<{key: string; title: string; project: string; source: string; reasons: string}>({
		idField: 'key',
		fields: ['title', 'project', 'source', 'reasons'],
	});
	search.addAll(
		candidates.map(candidate => ({
			key: `${candidate.source}:${candidate.id}`,
			title: candidate.title ?? '',
			project: candidate.project,
			source: candidate.source,
			reasons: candidate.reasons.map(reason => `${reason.code.replaceAll('_', ' ')} ${reason.detail}`).join(' '),
		})),
	);
	return (text: string): Set<string> => new Set(search.search(text, {prefix: true, fuzzy: 0.2, combineWith: 'AND'}).map(result => String(result.id)));
}
