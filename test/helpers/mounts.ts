import {spawnSync} from 'node:child_process';
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';

function mount(args: readonly string[]): {ok: boolean; stderr: string} {
	const result = spawnSync('mount', args, {encoding: 'utf8'});
	return {ok: result.status === 0, stderr: result.stderr ?? String(result.error ?? '')};
}

let unavailable: string | null | undefined;

/**
 * Why tests that mount file systems cannot run here (not root, or no permission to mount, as in
 * some containers), or undefined when they can. Root ignores file modes, so a read-only or full
 * file system has to be a real mount.
 */
export function mountsUnavailable(): string | undefined {
	if (unavailable === undefined) {
		if (process.getuid?.() !== 0) {
			unavailable = 'needs root to mount a tmpfs (run the fault tests as root)';
		} else {
			const probe = mkdtempSync(join(tmpdir(), 'engi-mount-probe-'));
			const mounted = mount(['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', probe]);
			unavailable = mounted.ok ? null : `mount is not permitted here: ${mounted.stderr.trim()}`;
			if (mounted.ok) {
				spawnSync('umount', [probe]);
			}

			rmSync(probe, {recursive: true, force: true});
		}
	}

	return unavailable ?? undefined;
}

export type MountSandbox = {
	readonly base: string;
	/** Mounts a tmpfs of `size` (e.g. `256k`, `16m`) on the directory, made if missing, and returns it. */
	tmpfs(directory: string, size: string): string;
	/** Binds the directory onto itself read-only. */
	readOnly(directory: string): void;
	/** Remounts a tmpfs mounted here read-only: writes then fail with EROFS, even for root. */
	remountReadOnly(directory: string): void;
	/** Makes a tmpfs remounted read-only writable again. */
	remountWritable(directory: string): void;
};

/**
 * A temporary directory for tests that mount file systems inside it (the one helper for mounts:
 * skip such a test with `{skip: mountsUnavailable()}`). When the test ends, everything mounted
 * is unmounted, last first (lazily if it is still busy), and only then is the directory removed.
 */
export function mountSandbox(t: TestContext): MountSandbox {
	const base = mkdtempSync(join(tmpdir(), 'engi-fault-'));
	const mounted: string[] = [];
	const must = (args: readonly string[]) => {
		const result = mount(args);
		if (!result.ok) {
			throw new Error(`mount ${args.join(' ')} failed: ${result.stderr}`);
		}
	};

	t.after(() => {
		for (const directory of mounted.reverse()) {
			if (spawnSync('umount', [directory]).status !== 0) {
				spawnSync('umount', ['-l', directory]);
			}
		}

		rmSync(base, {recursive: true, force: true});
	});
	return {
		base,
		tmpfs(directory, size) {
			mkdirSync(directory, {recursive: true});
			must(['-t', 'tmpfs', '-o', `size=${size},mode=0700`, 'tmpfs', directory]);
			mounted.push(directory);
			return directory;
		},
		readOnly(directory) {
			must(['--bind', directory, directory]);
			mounted.push(directory);
			must(['-o', 'remount,bind,ro', directory]);
		},
		remountReadOnly(directory) {
			must(['-o', 'remount,ro', directory]);
		},
		remountWritable(directory) {
			must(['-o', 'remount,rw', directory]);
		},
	};
}
