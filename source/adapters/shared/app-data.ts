import {join} from 'node:path';
import type {AdapterContext} from '../types.js';

/**
 * Where an Electron app keeps its data, as Electron decides it: Application Support on macOS,
 * %APPDATA% on Windows, the XDG config directory elsewhere. VS Code and Claude Desktop both
 * keep their stores under it, in a folder named for the app.
 */
export function electronAppData(context: AdapterContext): string | undefined {
	switch (context.platform) {
		case 'darwin':
			return context.home ? join(context.home, 'Library', 'Application Support') : undefined;
		case 'win32':
			return context.env['APPDATA']?.trim() || undefined;
		default:
			return context.env['XDG_CONFIG_HOME']?.trim() || (context.home ? join(context.home, '.config') : undefined);
	}
}
