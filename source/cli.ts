#!/usr/bin/env node
/**
 * The executable. It stays tiny so `engi --version` costs no more than starting node; all other
 * work, and every import that comes with it, is loaded on demand.
 */
declare const __ENGI_VERSION__: string;

const argv = process.argv.slice(2);
if (argv.length === 1 && argv[0] === '--version') {
	process.stdout.write(`${typeof __ENGI_VERSION__ === 'string' ? __ENGI_VERSION__ : '0.0.0-dev'}\n`);
} else {
	const {main} = await import('./main.js');
	process.exitCode = await main(argv, {stdin: process.stdin, stdout: process.stdout, stderr: process.stderr});
}
