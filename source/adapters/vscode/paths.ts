import {basename, dirname, join} from 'node:path';
import {isDirectory} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';
import {electronAppData} from '../shared/app-data.js';

/**
 * The desktop builds whose chat store engi reads; each keeps its own `User` directory. Forks of
 * VS Code that run Copilot Chat (Cursor, Windsurf, Positron, Antigravity) write the same
 * `chatSessions` store under their own application directory.
 */
const appNames = ['Code', 'Code - Insiders', 'VSCodium', 'VSCodium - Insiders', 'Cursor', 'Windsurf', 'Positron', 'Antigravity'];

/** Where Electron keeps application data, as VS Code's own `getUserDataPath` decides it (`VSCODE_APPDATA` moves it). */
function appDataDirectory(context: AdapterContext): string | undefined {
	return context.env['VSCODE_APPDATA']?.trim() || electronAppData(context);
}

/**
 * The `User` directories of Code, Code - Insiders, VSCodium (and its Insiders build) and the forks above (`~/.config/<app>/User` on Linux,
 * `~/Library/Application Support/<app>/User` on macOS), a portable install (`VSCODE_PORTABLE`),
 * and the remote server's `~/.vscode-server/data/User` (`VSCODE_AGENT_FOLDER` moves it). A GitHub
 * Codespace's server keeps its data in `~/.vscode-remote` instead, so chats made in a codespace
 * are only there.
 */
export function vscodeRoots(context: AdapterContext): string[] {
	const roots: string[] = [];
	const portable = context.env['VSCODE_PORTABLE']?.trim();
	if (portable) {
		roots.push(join(portable, 'user-data', 'User'));
	}

	const appData = appDataDirectory(context);
	if (appData) {
		roots.push(...appNames.map(app => join(appData, app, 'User')));
	}

	const agentFolder = context.env['VSCODE_AGENT_FOLDER']?.trim();
	if (agentFolder) {
		roots.push(join(agentFolder, 'data', 'User'));
	} else if (context.home) {
		roots.push(
			join(context.home, '.vscode-server', 'data', 'User'),
			join(context.home, '.vscode-server-insiders', 'data', 'User'),
			join(context.home, '.vscode-remote', 'data', 'User'),
		);
	}

	return [...new Set(roots)];
}

/**
 * Accepts a `User` directory, the application directory above it (`~/.config/Code`), a server or
 * portable data directory (`~/.vscode-server`, `<portable>/user-data`), or `User/workspaceStorage`.
 */
export function resolveVscodeRoot(path: string): string[] {
	if (basename(path) === 'User') {
		return [path];
	}

	for (const inner of [join(path, 'User'), join(path, 'data', 'User'), join(path, 'user-data', 'User')]) {
		if (isDirectory(inner)) {
			return [inner];
		}
	}

	if (basename(path) === 'workspaceStorage' || basename(path) === 'globalStorage') {
		return [dirname(path)];
	}

	return [path];
}
