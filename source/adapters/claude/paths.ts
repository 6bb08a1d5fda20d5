import {isAbsolute, join} from 'node:path';
import type {AdapterContext} from '../types.js';
import {electronAppData} from '../shared/app-data.js';
import {isDirectory, listDirectory, readSmallFile, rootOrChild} from '../shared/fs.js';
import {coworkDirectory} from './discover.js';

/**
 * `$CLAUDE_CONFIG_DIR/projects` when the variable is set (it replaces every default, as in Claude
 * Code itself); otherwise `~/.claude/projects` and `$XDG_CONFIG_HOME/claude/projects`
 * (`~/.config/claude/projects`), where releases from 1.0.30 on wrote, unannounced (readers of
 * the store such as ccusage look in both): one history can span the two. The same on macOS and
 * Linux. Either way, the projects of cc-mirror's variants and of Claude Desktop's Cowork tasks
 * (below), which set the variable themselves. A dotfiles setup that links
 * one to the other, or a variant whose configDir is ~/.claude, is read once (resolveTargets
 * keeps one root per real directory).
 */
export function claudeRoots(context: AdapterContext): string[] {
	const variants = context.home ? ccMirrorRoots(context.home) : [];
	const own = [...variants, ...coworkRoots(context)];
	const configured = context.env['CLAUDE_CONFIG_DIR']?.trim();
	if (configured) {
		return [join(configured, 'projects'), ...own];
	}

	if (!context.home) {
		return own;
	}

	const config = context.env['XDG_CONFIG_HOME']?.trim() || join(context.home, '.config');
	return [join(context.home, '.claude', 'projects'), join(config, 'claude', 'projects'), ...own];
}

/**
 * Claude Desktop runs each Cowork task (local agent mode) as Claude Code with a config directory
 * of its own, inside the app's data directory:
 * `local-agent-mode-sessions/<account>/<workspace>/local_<id>/.claude/projects/`. Those sessions
 * are in no other root; the whole tree is one root, which discovery walks (discover.ts). The
 * app's data directory is Electron's: Application Support on macOS, %APPDATA% on Windows (the
 * Microsoft Store build's is in its package's LocalCache), the XDG config directory elsewhere
 * (community Linux builds). The app sets the config directory itself, so this stays a root
 * whatever this process's CLAUDE_CONFIG_DIR says. Named only where it exists (one stat each):
 * most machines have no Claude Desktop, and a root that is never there is noise in every list of
 * roots engi prints.
 */
function coworkRoots(context: AdapterContext): string[] {
	return desktopDirectories(context)
		.map(desktop => join(desktop, coworkDirectory))
		.filter(root => isDirectory(root));
}

/** The Claude app's data directories: Electron's, and on Windows the Microsoft Store build's too. */
function desktopDirectories(context: AdapterContext): string[] {
	const appData = electronAppData(context);
	const directories = appData ? [join(appData, 'Claude')] : [];
	const local = context.platform === 'win32' ? context.env['LOCALAPPDATA']?.trim() || (context.home && join(context.home, 'AppData', 'Local')) : undefined;
	if (local) {
		directories.push(join(local, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude'));
	}

	return directories;
}

/**
 * cc-mirror installs Claude Code variants (other providers, other settings) in
 * `~/.cc-mirror/<name>/`, each described by a `variant.json`, and runs each with
 * CLAUDE_CONFIG_DIR at its own config directory (`configDir` there, an absolute path;
 * `<name>/config` as cc-mirror creates it), so a variant's sessions are only in
 * `<configDir>/projects`. The wrapper sets the variable itself, so these stay roots whatever this
 * process's CLAUDE_CONFIG_DIR says.
 */
function ccMirrorRoots(home: string): string[] {
	const root = join(home, '.cc-mirror');
	return listDirectory(root).flatMap(entry => {
		const variant = join(root, entry.name);
		const meta = entry.isDirectory() ? readSmallFile(join(variant, 'variant.json')) : undefined;
		return meta === undefined ? [] : [join(configDirectory(meta) ?? join(variant, 'config'), 'projects')];
	});
}

function configDirectory(meta: string): string | undefined {
	try {
		const configDir: unknown = (JSON.parse(meta) as {configDir?: unknown} | null)?.configDir;
		return typeof configDir === 'string' && isAbsolute(configDir) ? configDir : undefined;
	} catch {
		return undefined; // A file cc-mirror did not finish writing: the directory it creates.
	}
}

/**
 * Accepts `~/.claude` or `~/.claude/projects`, a Claude Desktop Cowork tree, or the app's data
 * directory that holds one (`…/Application Support/Claude`).
 */
export function resolveClaudeRoot(path: string): string[] {
	const cowork = join(path, coworkDirectory);
	return [isDirectory(cowork) ? cowork : rootOrChild(path, 'projects')];
}
