import {spawnSync} from 'node:child_process';
import {randomBytes} from 'node:crypto';
import {readFileSync} from 'node:fs';

/** True when a tmux binary can be run (CI installs it; a developer's machine may not have it). */
export function hasTmux(): boolean {
	return spawnSync('tmux', ['-V'], {encoding: 'utf8'}).status === 0;
}

export type TmuxPane = {
	/** The visible screen as plain text, one line per row; with `escapes`, SGR codes kept. */
	capture(escapes?: boolean): string;
	/** tmux key names or literal text (`literal`), as a person would type them. */
	send(keys: string[], literal?: boolean): void;
	resize(columns: number, rows: number): void;
	/** Polls the screen until `predicate` holds; fails with the last screen after `timeoutMs`. */
	waitFor(predicate: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
	/** The pid of the command the pane runs (the pane's shell runs it as its child). */
	commandPid(): number;
	kill(): void;
};

/**
 * Starts `command` in a detached tmux session on a private server socket, so nothing touches a
 * tmux the developer is running. The server inherits `env` (our sandboxed HOME and XDG dirs),
 * and the pane's shell keeps the screen after the command exits, to read what it printed.
 */
export function startTmux(command: string, options: {env: Record<string, string>; cwd: string; columns: number; rows: number}): TmuxPane {
	const socket = `engi-test-${randomBytes(4).toString('hex')}`;
	const env = {...options.env, TERM: 'xterm-256color', TMUX: ''};
	const tmux = (args: string[]) => {
		const result = spawnSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], {env, cwd: options.cwd, encoding: 'utf8'});
		if (result.status !== 0) {
			throw new Error(`tmux ${args[0]} failed: ${result.stderr}`);
		}

		return result.stdout;
	};

	tmux(['new-session', '-d', '-s', 'engi', '-x', String(options.columns), '-y', String(options.rows), '-c', options.cwd, `${command}; echo "[exited $?]"; sleep 600`]);
	const pane: TmuxPane = {
		capture: (escapes = false) => tmux(['capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'engi']),
		send(keys, literal = false) {
			tmux(['send-keys', '-t', 'engi', ...(literal ? ['-l'] : []), ...keys]);
		},
		resize(columns, rows) {
			tmux(['resize-window', '-t', 'engi', '-x', String(columns), '-y', String(rows)]);
		},
		async waitFor(predicate, what, timeoutMs = 15_000) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const screen = pane.capture();
				if (predicate(screen)) {
					return screen;
				}

				if (Date.now() > deadline) {
					throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
				}

				await new Promise(resolve => setTimeout(resolve, 25));
			}
		},
		commandPid() {
			const shell = tmux(['display-message', '-p', '-t', 'engi', '#{pane_pid}']).trim();
			const child = readFileSync(`/proc/${shell}/task/${shell}/children`, 'utf8').trim().split(' ')[0];
			if (!child) {
				throw new Error(`the pane's shell (${shell}) runs no command`);
			}

			return Number(child);
		},
		kill() {
			spawnSync('tmux', ['-L', socket, 'kill-server'], {env});
		},
	};
	return pane;
}
