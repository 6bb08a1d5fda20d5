import {dirname, join, sep} from 'node:path';
import {isFile} from '../shared/fs.js';
import type {DiscoveredUnit, Retirement} from '../types.js';

/**
 * A conversation is `brain/<id>/` (its transcript and Markdown artifacts) or a flat
 * `brain/<id>.jsonl`, plus the step database `<app>/conversations/<id>.db` among its paths.
 * The database lies beside `brain/`, so removals stay inside the app directory; a conversation
 * read from the database alone (step-db.ts) takes its brain directory along when it has one.
 * The database's own `-wal` and `-shm` files go with it (SQLite keeps the latest steps in the
 * WAL), and so does the conversation's `annotations/<id>.pbtxt` (evidence: yangzichao/JustSessions
 * Services/Deletion/Antigravity/AntigravityDeletionFiles.swift, which removes exactly these).
 */
export function antigravityRetirement(unit: DiscoveredUnit, brain: string, sessionId: string): Retirement {
	const app = dirname(brain);
	const directory = join(brain, sessionId);
	// A conversation read from its step database may still have a brain directory (an empty transcript in it).
	const owned = unit.paths.some(path => path.startsWith(directory + sep));
	const database = unit.paths.find(path => path === join(app, 'conversations', `${sessionId}.db`));
	const companions = database === undefined ? [] : [`${database}-wal`, `${database}-shm`];
	const files = [...companions, join(app, 'annotations', `${sessionId}.pbtxt`)].filter(path => isFile(path));
	return {directories: owned ? [directory] : [], files, boundary: app};
}
