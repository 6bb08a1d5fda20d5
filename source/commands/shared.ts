import {kbPaths, type KbPaths} from '../engine/kb/paths.js';
import {resolveRoot} from '../engine/kb/root.js';
import * as z from 'zod/mini';
import type {CommandContext, HumanContext} from '../cli/define.js';
import {intFlag, listFlag, textFlag} from '../cli/flag-schemas.js';
import type {ScopeInput} from '../engine/catalog/view.js';

/** The knowledge base a command works on, from --root, ENGI_ROOT or the registered root. */
export function knowledgeBase(context: CommandContext): KbPaths {
	return kbPaths(resolveRoot(context.rootFlag, context.deps).root);
}

/** `--limit` and `--offset` of a paged listing: at most 500 rows a page (a command may say otherwise). */
export const pagingOptions = {
	limit: {type: 'string', placeholder: '<n>', description: 'rows per page', value: intFlag(1, 500)},
	offset: {type: 'string', placeholder: '<n>', description: 'rows to skip (see next_offset)', value: intFlag(0, Number.MAX_SAFE_INTEGER)},
} as const;

/** `--source` as a list of the stores named, at least one. */
function sourceListFlag() {
	return z.pipe(listFlag(), z.array(z.string()).check(z.minLength(1, 'must name a source')));
}

/** Flags that choose which agent stores a command reads, shared by sessions, read and continuity. */
export const sourceOptions = {
	source: {type: 'string', multiple: true, placeholder: '<tool>', description: 'only these stores (or comma-separated): claude, codex, opencode, gemini, qwen, grok, copilot, cursor, vscode, antigravity (default: all)', value: sourceListFlag()},
	'source-root': {type: 'string', multiple: true, placeholder: '<dir>', description: 'read this store directory instead of the default; each goes with the --source in the same place', value: z.array(textFlag())},
} as const;

export const scopeOptions = {
	...sourceOptions,
	since: {type: 'string', placeholder: '<when>', description: 'only sessions active since: 3d, 48h, 2w, today, yesterday, YYYY-MM-DD or RFC3339', value: textFlag()},
	project: {type: 'string', placeholder: '<dir>', description: 'sessions of this project (default: the working directory\'s git project)', value: textFlag()},
	'all-projects': {type: 'boolean', description: 'sessions of every project', value: z.boolean()},
} as const;

type ScopeFlags = {source?: string[]; 'source-root'?: string[]; since?: string; project?: string; 'all-projects'?: boolean};

/** Parsed scope flags as the engine's ScopeInput. */
export function scopeInput(flags: ScopeFlags): ScopeInput {
	return {source: flags.source, sourceRoot: flags['source-root'], since: flags.since, project: flags.project, allProjects: Boolean(flags['all-projects'])};
}

/**
 * What to try when a listing of sessions came back empty: each wider scope not used yet, as the
 * flag that gives it, or '' when the scope is already as wide as it goes.
 */
export function widerScope(scope: {all_projects: boolean; since: string | null}, context: HumanContext): string {
	const tries = [...(scope.all_projects ? [] : ['--all-projects']), ...(scope.since === null ? [] : [context.flags['since'] === undefined ? '--since 2w' : 'a wider --since (e.g. --since 4w)'])];
	return tries.length === 0 ? '' : `try ${tries.join(' or ')}`;
}

/** The lines that close a paged human listing: any warnings, then the exact command for the next page. */
export function pageFooter(result: {next_offset: number | null; warnings?: readonly string[]}, context: HumanContext): string[] {
	// Warnings first, so paged output ends with the exact command for the next page.
	return [...(result.warnings ?? []).map(warning => `warning\t${warning}`), result.next_offset === null ? '' : `next: ${context.page(result.next_offset)}`];
}
