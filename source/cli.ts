#!/usr/bin/env node
/**
 * The executable. It stays tiny so `engi --version` costs no more than starting node; all other
 * work, and every import that comes with it, is loaded on demand.
 */
import {loadCachedMain} from './start/cached-main.js';

declare const __ENGI_VERSION__: string;

// A reader that stops early (`engi sessions | head -c 10`) closes the pipe. What it did not read
// is not an error: drop the rest quietly (writes to the closed stream fail silently) and end with
// the command's own exit code, never a stack trace.
for (const stream of [process.stdout, process.stderr]) {
	stream.on('error', (error: NodeJS.ErrnoException) => {
		if (error.code !== 'EPIPE') {
			throw error;
		}
	});
}

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
	process.stdout.write(`${typeof __ENGI_VERSION__ === 'string' ? __ENGI_VERSION__ : '0.0.0-dev'}\n`);
} else {
	// The dashboard can open only on a terminal; it is an ES module (Ink loads its layout engine
	// with top-level await), so such a call runs the split modules. Any other call runs the one
	// script compiled with a code cache (ENGI_CODE_CACHE=off: the modules, as a terminal does).
	const terminal = Boolean(process.stdin.isTTY && process.stdout.isTTY);
	const script = terminal || process.env['ENGI_CODE_CACHE'] === 'off' ? undefined : loadCachedMain(argv, process.env);
	const {main} = script ?? (await import('./main.js'));
	const code = await main(argv, {stdin: process.stdin, stdout: process.stdout, stderr: process.stderr});
	script?.finish(code);
	// main returns once the call's work is done (a dashboard closed, an MCP client gone, every
	// command it ran finished), so nothing is left for node to wait for. Exiting here skips the
	// tear-down of the heap, ~15 ms of a warm call over 15,000 sessions; what was printed is
	// handed to the system first (writes to a pipe are asynchronous on some platforms).
	await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
	process.exit(code);
}

/** Resolves once what was written to the stream has left the process (or the stream failed: a closed pipe). */
function flushed(stream: NodeJS.WriteStream): Promise<void> {
	return new Promise(resolve => {
		if (stream.writableEnded || stream.destroyed) {
			resolve();
		} else {
			stream.write('', () => resolve());
		}
	});
}
