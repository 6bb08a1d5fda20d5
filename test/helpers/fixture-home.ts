import {cpSync, mkdirSync, readdirSync, statSync, utimesSync} from 'node:fs';
import {join} from 'node:path';
import {fixtureStores} from './adapters.js';

/**
 * Lays every source's fixture store out as the tools themselves would under an environment's
 * HOME, XDG_CONFIG_HOME (VS Code) and XDG_DATA_HOME (OpenCode), so the built CLI finds all ten
 * through their default paths.
 */
export function buildFixtureHome(env: Record<string, string | undefined>): string {
	const home = env['HOME']!;
	const config = env['XDG_CONFIG_HOME'] ?? join(home, '.config');
	const data = env['XDG_DATA_HOME'] ?? join(home, '.local', 'share');
	const placements: ReadonlyArray<readonly [string, string]> = [
		['claude', join(home, '.claude')],
		['codex', join(home, '.codex')],
		['copilot', join(home, '.copilot')],
		['cursor', join(home, '.cursor')],
		['gemini', join(home, '.gemini')],
		['antigravity', home],
		['qwen', join(home, '.qwen')],
		['grok', join(home, '.grok')],
		['opencode', join(data, 'opencode')],
		['vscode', config],
	];
	for (const [source, destination] of placements) {
		mkdirSync(destination, {recursive: true});
		cpSync(join(fixtureStores, source), destination, {recursive: true});
	}

	settle(home, fixtureMtime);
	for (const directory of [config, data]) {
		settle(directory, fixtureMtime);
	}

	return home;
}

/** When the fixture files were "last written": long enough ago that no session looks active now. */
export const fixtureMtime = new Date('2026-11-26T12:00:00Z');

/** Copying stamps files with the current time; give them a fixed past one instead. */
export function settle(directory: string, when: Date): void {
	for (const name of readdirSync(directory, {recursive: true, encoding: 'utf8'})) {
		const path = join(directory, name);
		if (statSync(path).isFile()) {
			utimesSync(path, when, when);
		}
	}
}
