import {basename, isAbsolute, join} from 'node:path';
import type {AdapterContext} from '../types.js';
import {childPath, listDirectory, readSmallFile, rootOrChild} from '../shared/fs.js';

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
	const others = [...(context.home ? ccMirrorRoots(context.home) : []), ...coworkRoots(context)];
	const configured = context.env['CLAUDE_CONFIG_DIR']?.trim();
	if (configured) {
		return [join(configured, 'projects'), ...others];
	}

	if (!context.home) {
		return others;
	}

	const config = context.env['XDG_CONFIG_HOME']?.trim() || join(context.home, '.config');
	return [join(context.home, '.claude', 'projects'), join(config, 'claude', 'projects'), ...others];
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
 * Claude Desktop's local agent mode (Cowork) runs Claude Code per task with CLAUDE_CONFIG_DIR at
 * `local-agent-mode-sessions/<org>/<account>/[agent/]local_<id>/.claude`: a root per task. The
 * walk never enters a task's directory (the person's files) nor `skills-plugin`.
 */
function coworkRoots(context: AdapterContext): string[] {
	return desktopDirectories(context).flatMap(desktop =>
		subdirectories(join(desktop, 'local-agent-mode-sessions'))
			.filter(org => basename(org) !== 'skills-plugin')
			.flatMap(subdirectories)
			.flatMap(account => [...tasks(account), ...tasks(join(account, 'agent'))])
			.map(task => join(task, '.claude', 'projects')),
	);
}

/** The Claude app's data (Electron's userData); on Windows also the Microsoft Store build's. */
function desktopDirectories({env, home, platform}: AdapterContext): string[] {
	if (platform === 'darwin') {
		return home ? [join(home, 'Library', 'Application Support', 'Claude')] : [];
	}

	if (platform === 'win32') {
		const roaming = env['APPDATA']?.trim() || (home && join(home, 'AppData', 'Roaming'));
		const local = env['LOCALAPPDATA']?.trim() || (home && join(home, 'AppData', 'Local'));
		return [roaming && join(roaming, 'Claude'), local && join(local, 'Packages', 'Claude_pzs8sxrjxfjjc', 'LocalCache', 'Roaming', 'Claude')].filter((path): path is string => !!path);
	}

	const config = env['XDG_CONFIG_HOME']?.trim() || (home && join(home, '.config'));
	return config ? [join(config, 'Claude')] : [];
}

function subdirectories(directory: string): string[] {
	return listDirectory(directory).flatMap(entry => (entry.isDirectory() ? [childPath(directory, entry.name)] : []));
}

function tasks(directory: string): string[] {
	return subdirectories(directory).filter(path => basename(path).startsWith('local_'));
}

/** Accepts `~/.claude` or `~/.claude/projects`. */
export function resolveClaudeRoot(path: string): string[] {
	return [rootOrChild(path, 'projects')];
}
