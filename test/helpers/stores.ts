import {cpSync, mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {fixtureStores} from './adapters.js';

/** Copies a committed fixture store into a temp directory, so a test may change it freely. */
export function copyStore(source: string, destination: string): string {
	cpSync(join(fixtureStores, source), destination, {recursive: true});
	return destination;
}

/** Writes a small Claude Code session file with the given cwd, for project-scoping tests. */
export function writeClaudeSession(projectsDir: string, id: string, cwd: string, turns: Array<{user: string; assistant?: string; at: string}>): string {
	const slug = cwd.replaceAll(/[^A-Za-z0-9]/g, '-');
	const path = join(projectsDir, slug, `${id}.jsonl`);
	mkdirSync(dirname(path), {recursive: true});
	let parent: string | null = null;
	const lines: string[] = [];
	turns.forEach((turn, index) => {
		const userId = `${id.slice(0, 4)}-u${index}`;
		lines.push(JSON.stringify({parentUuid: parent, isSidechain: false, type: 'user', cwd, sessionId: id, uuid: userId, timestamp: turn.at, message: {role: 'user', content: turn.user}}));
		parent = userId;
		if (turn.assistant) {
			const assistantId = `${id.slice(0, 4)}-a${index}`;
			lines.push(JSON.stringify({parentUuid: parent, isSidechain: false, type: 'assistant', cwd, sessionId: id, uuid: assistantId, timestamp: turn.at, message: {id: `msg-${assistantId}`, role: 'assistant', content: [{type: 'text', text: turn.assistant}]}}));
			parent = assistantId;
		}
	});
	writeFileSync(path, lines.join('\n') + '\n');
	return path;
}
