import {readdirSync, readlinkSync} from 'node:fs';
import {sep} from 'node:path';
import {systemErrorCode} from '../../lib/errors.js';

/**
 * Which files other processes hold open, read from /proc/<pid>/fd. Only links under the given
 * directories are kept, so the scan costs one readlink per descriptor and nothing more.
 * Processes this one may not inspect are passed over (another user's, a protected init);
 * where /proc cannot be read at all, nothing can be said and every check is `unknown`.
 */
export type OpenFiles = {
	readonly available: boolean;
	/** Why the check cannot be made, when it cannot. */
	readonly reason: string | null;
	/** Pids (other than this one) holding the file open, by the path the kernel gives it. */
	holders(canonicalPath: string): number[];
	/** Open files inside a directory (by the kernel's path for it), with their holders. */
	under(canonicalDirectory: string): Array<{path: string; pids: number[]}>;
	/** True when no other process holds anything open in the directories asked about: nothing to look up. */
	readonly none: boolean;
};

const procRoot = '/proc';
const deletedSuffix = ' (deleted)';

export function scanOpenFiles(directories: readonly string[], platform: NodeJS.Platform, ownPid = process.pid): OpenFiles {
	if (platform !== 'linux') {
		return unavailable(`open files cannot be listed on ${platform} (no /proc)`);
	}

	let pids: string[];
	try {
		pids = readdirSync(procRoot).filter(name => /^\d+$/.test(name));
		readdirSync(`${procRoot}/self/fd`);
	} catch {
		return unavailable('/proc cannot be read, so open files cannot be listed');
	}

	const prefixes = [...new Set(directories)].map(directory => (directory.endsWith(sep) ? directory : directory + sep));
	const open = new Map<string, number[]>();
	for (const pid of pids) {
		if (Number(pid) === ownPid) {
			continue;
		}

		let descriptors: string[];
		try {
			descriptors = readdirSync(`${procRoot}/${pid}/fd`);
		} catch {
			continue; // Gone since the listing, or not ours to inspect.
		}

		for (const descriptor of descriptors) {
			let target: string;
			try {
				target = readlinkSync(`${procRoot}/${pid}/fd/${descriptor}`);
			} catch (error) {
				// May this process be inspected is asked of the process, not of each descriptor: one
				// refusal (a protected init holds hundreds) refuses the rest, so they are not asked.
				if (systemErrorCode(error) === 'EACCES' || systemErrorCode(error) === 'EPERM') {
					break;
				}

				continue; // Closed since the listing.
			}

			if (target.endsWith(deletedSuffix)) {
				target = target.slice(0, -deletedSuffix.length);
			}

			if (prefixes.some(prefix => target.startsWith(prefix))) {
				const holders = open.get(target) ?? [];
				holders.push(Number(pid));
				open.set(target, holders);
			}
		}
	}

	return {
		available: true,
		reason: null,
		none: open.size === 0,
		holders: path => open.get(path) ?? [],
		under(directory) {
			const prefix = directory.endsWith(sep) ? directory : directory + sep;
			return [...open].filter(([path]) => path.startsWith(prefix)).map(([path, pids]) => ({path, pids}));
		},
	};
}

function unavailable(reason: string): OpenFiles {
	return {available: false, reason, none: true, holders: () => [], under: () => []};
}
