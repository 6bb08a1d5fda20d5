import {join} from 'node:path';
import {rootOrChild} from '../shared/fs.js';
import type {AdapterContext} from '../types.js';

/** `$GROK_HOME/sessions`, else `~/.grok/sessions` (the same on macOS and Linux). */
export function grokRoots(context: AdapterContext): string[] {
	const configured = context.env['GROK_HOME']?.trim();
	if (configured) {
		return [join(configured, 'sessions')];
	}

	return context.home ? [join(context.home, '.grok', 'sessions')] : [];
}

/** Accepts `~/.grok` or `~/.grok/sessions`. */
export function resolveGrokRoot(path: string): string[] {
	return [rootOrChild(path, 'sessions')];
}
