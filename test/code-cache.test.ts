import assert from 'node:assert/strict';
import {spawn, spawnSync} from 'node:child_process';
import {chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {cliPath, repoRoot, runCli} from './helpers/cli.js';
import {makeKb} from './helpers/kb.js';
import {buildFixtureHome} from './fixtures/home.js';
import {readCache, shapeOf} from '../source/start/cached-main.js';

/**
 * A call that cannot open the dashboard runs build/chunks/main.cjs compiled with a V8 code cache
 * kept in engi's cache (source/start/cached-main.ts). These drive the built CLI as a subprocess,
 * with real files: the cache is written, used, extended, and survives damage and a cache
 * directory it cannot write.
 */

const codeDirectory = (env: Record<string, string>) => join(env['XDG_CACHE_HOME']!, 'engi', 'code');
const cacheFiles = (env: Record<string, string>) => (existsSync(codeDirectory(env)) ? readdirSync(codeDirectory(env)).map(name => join(codeDirectory(env), name)) : []);

function onlyCache(env: Record<string, string>): string {
	const files = cacheFiles(env);
	assert.equal(files.length, 1, `one code cache file: ${files.join(', ')}`);
	return files[0]!;
}

/** Whether a fresh node, with no flags, accepts the file's cached data for the script. */
function acceptedByV8(file: string): boolean {
	assert.ok(readCache(file), 'the cache reads back');
	const script = join(repoRoot, 'build/chunks/main.cjs');
	// The file's layout (cached-main.ts): 8 bytes of magic, the CRC, the list's length, the list, the
	// data. The script is compiled as the file holds it (the build wrapped it in a function).
	const check = `
		const vm = require('node:vm'); const fs = require('node:fs');
		const bytes = fs.readFileSync(process.argv[1]);
		const data = bytes.subarray(16 + bytes.readUInt32LE(12));
		const source = fs.readFileSync(${JSON.stringify(script)}, 'utf8');
		const compiled = new vm.Script(source, {filename: ${JSON.stringify(script)}, cachedData: data});
		process.stdout.write(String(compiled.cachedDataRejected));`;
	const result = spawnSync(process.execPath, ['-e', check, file], {encoding: 'utf8'});
	assert.equal(result.status, 0, result.stderr);
	return result.stdout === 'false';
}

const calls: ReadonlyArray<readonly string[]> = [
	['sessions', '--all-projects'],
	['unfinished', '--all-projects', '--since', '2020-01-01'],
	['read', '11111111-1111-4111-8111-111111111111', '--view', 'context'],
	['sessions', '--all-projects', '--q', 'migration'],
	['status'],
];

test('a call off the terminal keeps a code cache in engi\'s cache, reuses it for its shape and adds each new shape once; the output is the modules\' output', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	assert.equal(kb.run(['sessions', '--all-projects', '--format', 'json']).code, 0, 'the catalog, warmed');
	const first = kb.run(['sessions', '--all-projects', '--format', 'json']);
	assert.equal(first.code, 0, first.stderr);
	const file = onlyCache(kb.env);
	assert.match(file, /[\da-f]{16}-v\d+\.\d+\.\d+-\w+\.v8$/);
	assert.equal(statSync(file).mode & 0o777, 0o600);
	assert.deepEqual(readCache(file)?.shapes, ['sessions --all-projects --format'], 'the shape of the call (engi init, before it, kept no cache: engi had no cache directory yet)');
	assert.ok(acceptedByV8(file), 'V8 accepts the cached data for the script');

	const before = readFileSync(file);
	assert.equal(kb.run(['sessions', '--all-projects', '--format', 'json']).stdout, first.stdout);
	assert.deepEqual(readFileSync(file), before, 'a call of a shape the cache has seen leaves it as it is');

	assert.equal(kb.run(['unfinished', '--all-projects', '--since', '2020-01-01', '--format', 'json']).code, 0);
	const grown = readCache(file)!;
	assert.ok(grown.shapes.includes('unfinished --all-projects --format --since'), `a new shape is added: ${grown.shapes.join(' | ')}`);
	assert.ok(acceptedByV8(file));

	for (const args of calls) {
		kb.run([...args, '--format', 'json']); // What a first call builds (the catalog, the index), built.
		const cachedRun = kb.run([...args, '--format', 'json']);
		const modulesRun = runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_CODE_CACHE: 'off'}});
		assert.equal(cachedRun.code, modulesRun.code, `engi ${args.join(' ')}: ${cachedRun.stderr}`);
		assert.equal(cachedRun.stdout, modulesRun.stdout, `engi ${args.join(' ')} prints the same from the script as from the modules`);
		assert.equal(cachedRun.stderr, modulesRun.stderr);
	}

	const failing = ['read', 'no-such-session', '--format', 'json'];
	assert.equal(kb.run(failing).stderr, runCli(failing, {env: {...kb.env, ENGI_CODE_CACHE: 'off'}}).stderr, 'an error envelope is the same too');
});

test('a call that reads sessions writes a cache V8 accepts under its own flags: the inlining budget a refresh lowers while it reads is put back', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const call = ['sessions', '--all-projects', '--format', 'json'];
	assert.equal(kb.run(call).code, 0, 'engi\'s cache directory, made');
	const expected = (JSON.parse(kb.run(call).stdout) as {sessions: unknown}).sessions;
	// A cold catalog and no code cache: the next call reads every session, then writes the cache.
	rmSync(join(kb.env['XDG_CACHE_HOME']!, 'engi', 'catalog.sqlite'), {force: true});
	rmSync(codeDirectory(kb.env), {recursive: true, force: true});
	const cold = kb.run(call);
	assert.equal(cold.code, 0, cold.stderr);
	assert.deepEqual((JSON.parse(cold.stdout) as {sessions: unknown}).sessions, expected);
	assert.ok(acceptedByV8(onlyCache(kb.env)), 'a fresh node with no flags accepts the cache the reading call wrote');
});

test('a damaged, truncated or foreign code cache is never handed to V8: the call answers as before and the cache is written again', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const call = ['sessions', '--all-projects', '--format', 'json'];
	kb.run(call); // The catalog, warmed: each call below lists the same.
	const expected = kb.run(call).stdout;
	const file = onlyCache(kb.env);
	const whole = readFileSync(file);
	const flipped = Buffer.from(whole);
	flipped[flipped.length - 100] = flipped[flipped.length - 100]! ^ 0xff;
	const damages: Array<[string, Buffer]> = [
		['a flipped byte in the compiled code', flipped],
		['the file cut in half', whole.subarray(0, whole.length >> 1)],
		['the header alone', whole.subarray(0, 16)],
		['an empty file', Buffer.alloc(0)],
		['another program\'s bytes', Buffer.from('#!/bin/sh\necho not a cache\n')],
	];
	for (const [damage, bytes] of damages) {
		writeFileSync(file, bytes);
		assert.equal(readCache(file), undefined, `${damage} is refused`);
		const result = kb.run(call);
		assert.equal(result.code, 0, `${damage}: ${result.stderr}`);
		assert.equal(result.stdout, expected, `${damage}: the same listing`);
		assert.equal(result.stderr, '', `${damage}: nothing said of engi's own cache`);
		assert.ok(readCache(file) && acceptedByV8(file), `${damage}: the cache is whole again`);
	}
});

test('a code cache that cannot be written costs the call nothing; ENGI_CODE_CACHE=off runs the modules and writes none', t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const call = ['unfinished', '--all-projects', '--since', '2020-01-01', '--format', 'json'];
	const expected = runCli(call, {env: {...kb.env, ENGI_CODE_CACHE: 'off'}}).stdout;
	rmSync(codeDirectory(kb.env), {recursive: true, force: true});
	assert.deepEqual(cacheFiles(kb.env), [], 'ENGI_CODE_CACHE=off wrote no cache');

	// A file where the directory belongs: no write can succeed, even as root.
	writeFileSync(codeDirectory(kb.env), 'in the way');
	const blocked = kb.run(call);
	assert.equal(blocked.code, 0, blocked.stderr);
	assert.equal(blocked.stdout, expected);
	assert.equal(blocked.stderr, '');
	assert.equal(readFileSync(codeDirectory(kb.env), 'utf8'), 'in the way');
	rmSync(codeDirectory(kb.env));

	// A read-only code directory (for a user other than root: root writes anyway).
	mkdirSync(codeDirectory(kb.env));
	chmodSync(codeDirectory(kb.env), 0o500);
	const readOnly = kb.run(call);
	chmodSync(codeDirectory(kb.env), 0o700);
	assert.equal(readOnly.code, 0, readOnly.stderr);
	assert.equal(readOnly.stdout, expected);
	assert.equal(readOnly.stderr, '');
	assert.deepEqual(cacheFiles(kb.env).filter(file => file.endsWith('.tmp')), [], 'no partial file is left behind');
});

test('eight calls racing on an empty cache all answer, and leave one whole cache and no partial file', async t => {
	const kb = makeKb(t);
	buildFixtureHome(kb.env);
	const runs = Array.from({length: 8}, (_, index) => calls[index % calls.length]!);
	for (const args of calls) {
		runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_CODE_CACHE: 'off'}}); // The catalog, warmed.
	}

	rmSync(codeDirectory(kb.env), {recursive: true, force: true});
	const expected = runs.map(args => runCli([...args, '--format', 'json'], {env: {...kb.env, ENGI_CODE_CACHE: 'off'}}).stdout);
	const outputs = await Promise.all(
		runs.map(
			args =>
				new Promise<{code: number | null; stdout: string}>(resolve => {
					const child = spawn(process.execPath, [cliPath, ...args, '--format', 'json'], {env: kb.env, cwd: kb.env['HOME'], stdio: ['ignore', 'pipe', 'ignore']});
					let stdout = '';
					child.stdout.setEncoding('utf8').on('data', chunk => (stdout += chunk));
					child.on('close', code => resolve({code, stdout}));
				}),
		),
	);
	assert.deepEqual(
		outputs.map(output => output.code),
		runs.map(() => 0),
	);
	assert.deepEqual(
		outputs.map(output => output.stdout),
		expected,
	);
	const file = onlyCache(kb.env);
	assert.ok(readCache(file) && acceptedByV8(file));
});

test('a call\'s shape is its command word and the flags it names, values left out', () => {
	assert.equal(shapeOf(['sessions', '--all-projects', '--q', 'quarantine', '--format', 'json']), 'sessions --all-projects --format --q');
	assert.equal(shapeOf(['--format=json', 'candidates', 'list', '--limit', '5']), 'candidates --format --limit');
	assert.equal(shapeOf(['sessions', '--q', 'a', '--q', 'b']), 'sessions --q');
	assert.equal(shapeOf([]), '');
});

test('the script is ASCII, so V8 keeps its source one byte per character, and strict, as the modules it is made of', () => {
	const source = readFileSync(join(repoRoot, 'build/chunks/main.cjs'), 'latin1');
	assert.deepEqual(source.match(/[^\x00-\x7f]/g) ?? [], [], 'no character past ASCII (the build escapes them)');
	assert.match(source, /^\(function \(exports, require, module, __filename, __dirname\) \{'use strict';/);
	assert.ok(source.includes('\\u2026'), 'an escaped character (the source\'s comments hold "…")');
});
