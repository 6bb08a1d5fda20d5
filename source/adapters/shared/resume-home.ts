import {resolve} from 'node:path';
import {shellWord} from '../../lib/words.js';

/**
 * `tool`, or `VARIABLE=<store> tool` when the store a session was found in is not one the tool
 * reads with the environment as it is (`plain`: the directory or file it reads, or several).
 * Each adapter's resume.ts says which variable moves its tool and where it looks unmoved. Apart
 * from shared/resume.ts, which every store loads: only a resume needs this.
 */
export function pointedAt(tool: string, variable: string, store: string, plain: string | readonly string[] | undefined): string {
	const reads = plain === undefined ? [] : typeof plain === 'string' ? [plain] : plain;
	return reads.some(read => resolve(read) === resolve(store)) ? tool : `${variable}=${shellWord(store)} ${tool}`;
}
