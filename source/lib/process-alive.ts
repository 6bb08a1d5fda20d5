import {systemErrorCode} from './errors.js';

/** Whether a process of this host still runs (one we may not signal counts as running). */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return systemErrorCode(error) !== 'ESRCH';
	}
}
