/**
 * Warnings about engi's own derived caches (an index or a catalog found damaged and rebuilt)
 * that a command's output may have no field for. The engine notes them as they happen; the CLI
 * prints on stderr those the command's `warnings` did not already carry.
 */
const pending: string[] = [];

export function noteCacheWarning(warning: string): void {
	pending.push(warning);
}

/** The warnings noted since the last call, oldest first. */
export function takeCacheWarnings(): string[] {
	return pending.splice(0);
}
