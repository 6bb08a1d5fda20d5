/** The first line of engi's OpenCode plugin: how install knows the file is its own to update. */
export const pluginMarker = '// engi hook plugin (engi hook install --agent opencode)';

/**
 * engi's OpenCode plugin. OpenCode has no session-end event, and a plugin gets no stdin payload:
 * on `session.idle` (the agent finished its turn) it hands `engi hook run` the session id and the
 * project directory as a hook payload on stdin, and never waits on it or lets it fail the agent.
 */
export function opencodePlugin(command: string): string {
	return [
		pluginMarker,
		'// Queues a candidate harvest of each OpenCode session when it goes idle. Written by engi; rewritten on install.',
		'import {spawn} from \'node:child_process\';',
		'',
		`const command = ${JSON.stringify(command)};`,
		'',
		'export const EngiHook = async ({directory}) => ({',
		'\tevent: async ({event}) => {',
		'\t\tif (event.type !== \'session.idle\') {',
		'\t\t\treturn;',
		'\t\t}',
		'',
		'\t\ttry {',
		'\t\t\tconst child = spawn(\'sh\', [\'-c\', command], {cwd: directory, stdio: [\'pipe\', \'ignore\', \'ignore\'], detached: true});',
		'\t\t\tchild.on(\'error\', () => {});',
		'\t\t\tchild.stdin.on(\'error\', () => {});',
		'\t\t\tchild.stdin.end(JSON.stringify({session_id: event.properties?.sessionID, cwd: directory, hook_event_name: event.type}));',
		'\t\t\tchild.unref();',
		'\t\t} catch {}',
		'\t},',
		'});',
		'',
	].join('\n');
}
