import {existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs';
import {execFileSync} from 'node:child_process';
import {isAbsolute, join, relative} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode} from '../../lib/errors.js';
import {writeConfigValue} from './config.js';
import {globalConfigPath, kbPaths} from './paths.js';

export const initOutputSchema = z.object({
	root: z.string(),
	created: z.array(z.string()),
	registered: z.boolean(),
	config_path: z.nullable(z.string()),
	/** With --git: whether the root's git repository was made now or was there already; null without. */
	git: z.nullable(z.enum(['initialized', 'existing'])),
});

export type InitOutput = z.infer<typeof initOutputSchema>;

/** Derived and machine-local files that must never be committed with a knowledge base. */
const gitignoreLines = ['.engi/index.sqlite', '.engi/index.sqlite-*', '.engi/*.lock', '.engi/config.json', '.engi/*.tmp'];
const gitattributesLine = '.engi/journal.jsonl merge=union';

/**
 * Creates (or completes) a knowledge base at an absolute path. Running it again changes nothing;
 * a non-empty directory that is not a knowledge base is refused unless `force` is set.
 */
export function initKnowledgeBase(input: {path: string; register: boolean; force: boolean; git?: boolean}, deps: Deps): InitOutput {
	if (!isAbsolute(input.path)) {
		throw new EngiError('path_not_absolute', `engi init needs an absolute path, got ${input.path}`, {
			hint: 'engi never guesses from the working directory; pass e.g. engi init "$HOME/kb"',
		});
	}

	const paths = kbPaths(input.path);
	if (existsSync(paths.root)) {
		if (!statSync(paths.root).isDirectory()) {
			throw new EngiError('not_a_directory', `${paths.root} exists and is not a directory`);
		}

		const entries = readdirSync(paths.root).filter(name => name !== '.git' && name !== '.DS_Store');
		if (entries.length > 0 && !existsSync(paths.engi) && !input.force) {
			throw new EngiError('directory_not_empty', `${paths.root} is not empty and is not a knowledge base`, {
				hint: 'choose an empty directory, or pass --force to add the knowledge base layout beside the existing files',
			});
		}
	}

	// A knowledge base holds what its owner learned from private transcripts: owner-only, whatever the umask.
	const created: string[] = [];
	const ensureDirectory = (path: string) => {
		if (!existsSync(path)) {
			mkdirSync(path, {recursive: true, mode: 0o700});
			created.push(relative(paths.root, path) || '.');
		}
	};

	try {
		ensureDirectory(paths.root);
		for (const directory of [paths.harvest, paths.raw, paths.wiki, paths.artifacts, paths.engi]) {
			ensureDirectory(directory);
		}

		if (!existsSync(paths.journal)) {
			writeFileSync(paths.journal, '', {mode: 0o600});
			created.push('.engi/journal.jsonl');
		}

		if (ensureLines(paths.gitignore, gitignoreLines)) {
			created.push('.gitignore');
		}

		if (ensureLines(paths.gitattributes, [gitattributesLine])) {
			created.push('.gitattributes');
		}
	} catch (error) {
		if (error instanceof EngiError) {
			throw error;
		}

		throw new EngiError('init_failed', `could not create the knowledge base at ${paths.root} (${systemErrorCode(error) ?? 'error'})`, {cause: error});
	}

	const git = input.git === true ? initGitRepository(paths.root) : null;
	let configPath: string | null = null;
	if (input.register) {
		configPath = globalConfigPath(deps);
		writeConfigValue(configPath, 'root', paths.root);
	}

	return {root: paths.root, created, registered: input.register, config_path: configPath, git};
}

/**
 * Makes the root a git repository of its own (`git init`), so two machines can share the
 * knowledge base with plain pull and push: the journal merges line by line (merge=union in
 * .gitattributes; replay applies each event id once) and the derived files stay out (.gitignore).
 */
function initGitRepository(root: string): 'initialized' | 'existing' {
	if (existsSync(join(root, '.git'))) {
		return 'existing';
	}

	try {
		execFileSync('git', ['init', '--quiet', root], {stdio: ['ignore', 'ignore', 'pipe']});
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			throw new EngiError('git_unavailable', 'engi init --git needs git, which is not on PATH', {hint: 'install git, or run engi init without --git'});
		}

		const stderr = String((error as {stderr?: Buffer}).stderr ?? '').trim();
		throw new EngiError('git_init_failed', `git init ${root} failed${stderr === '' ? '' : `: ${stderr}`}`, {hint: 'the knowledge base itself was created; fix the cause and run engi init --git again', cause: error});
	}

	return 'initialized';
}

/** Appends the missing lines to a text file; true when the file changed. */
function ensureLines(path: string, wanted: readonly string[]): boolean {
	const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
	const present = new Set(current.split(/\r?\n/).map(line => line.trim()));
	const missing = wanted.filter(line => !present.has(line));
	if (missing.length === 0) {
		return false;
	}

	const prefix = current === '' || current.endsWith('\n') ? '' : '\n';
	writeFileSync(path, current + prefix + missing.join('\n') + '\n', {mode: 0o600});
	return true;
}

export {gitattributesLine};
