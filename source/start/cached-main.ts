import {existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import vm from 'node:vm';
import {crc32} from 'node:zlib';
import {cacheDirectory} from '../engine/kb/paths.js';
import type {main as Main} from '../main.js';

/**
 * Runs engi's commands from one script, build/chunks/main.cjs, compiled with a V8 code cache kept
 * in engi's cache (`<cache>/code/`), for a call that cannot open the dashboard. Node 20 keeps no
 * compiled code for ES modules, so every call compiled the modules it loaded again: a tenth of a
 * warm search at L. The cache is an optimisation only: a cache that cannot be read, was made by
 * another build or node, or fails its checksum is ignored (and replaced); one that cannot be
 * written is not. It holds compiled code of engi's own script, nothing of any session.
 */

declare const __ENGI_SCRIPT_HASH__: string;

type Loaded = {main: typeof Main; finish(exitCode: number): void};

/**
 * The file: `ENGICC1\n`, the payload's CRC-32 and the length of the list after it (two 32-bit
 * words), the shapes of call the cache has seen (JSON), then V8's cached data. V8 verifies no
 * checksum of cached data in release builds, and damaged bytes it accepts could crash the
 * process: the CRC is checked before V8 sees them.
 */
const magic = Buffer.from('ENGICC1\n');
const headerBytes = magic.length + 8;
/** Shapes remembered at most: past this, a new shape no longer rewrites the cache. */
const shapesKept = 64;
/**
 * A longer call writes no cache: V8 drops the bytecode of functions idle through many
 * collections, so a long scan's cache would lack the start-up code it ran first.
 */
const longCallMs = 5000;

/** The commands' `main`, or undefined when this node cannot run the script (the ES modules serve). */
export function loadCachedMain(argv: readonly string[], env: NodeJS.ProcessEnv): Loaded | undefined {
	const loader = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
	if (typeof __ENGI_SCRIPT_HASH__ !== 'string' || loader === undefined) {
		return undefined;
	}

	const started = Date.now();
	const file = fileURLToPath(new URL('chunks/main.cjs', import.meta.url));
	let source: string;
	try {
		// The build leaves the script ASCII: read as Latin-1, nothing is decoded or checked.
		source = readFileSync(file, 'latin1');
	} catch {
		return undefined; // A build without the script: the modules serve.
	}

	const cacheFile = codeCacheFile(env);
	const cached = cacheFile === undefined ? undefined : readCache(cacheFile);
	// The build wrapped the script in a function of the five names a CommonJS module is given.
	const script = new vm.Script(source, {
		filename: file,
		...(cached ? {cachedData: cached.data} : {}),
		importModuleDynamically: loader,
	});
	const module = {exports: {} as {main: typeof Main}};
	(script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, dirname(file));
	const shape = shapeOf(argv);
	return {
		main: module.exports.main,
		finish(exitCode) {
			const fresh = !cached || script.cachedDataRejected === true;
			const newShape = cached !== undefined && !cached.shapes.includes(shape) && cached.shapes.length < shapesKept;
			// Only a call that succeeded, in a cache engi already keeps: a call refused for its
			// input creates nothing, not even engi's cache directory.
			if (cacheFile === undefined || exitCode !== 0 || !(fresh || newShape) || Date.now() - started > longCallMs || !existsSync(dirname(dirname(cacheFile)))) {
				return;
			}

			const shapes = fresh ? [shape] : [...cached.shapes, shape];
			writeCache(cacheFile, shapes, script.createCachedData());
		},
	};
}

/**
 * A call's shape: its first word and the flags it names. Calls of one shape run mostly the same
 * functions; V8 caches those a call compiled, so each new shape adds its own to the cache once.
 */
export function shapeOf(argv: readonly string[]): string {
	const command = argv.find(word => !word.startsWith('-')) ?? '';
	const flags = [...new Set(argv.filter(word => word.startsWith('--')).map(word => word.split('=', 1)[0]!))].sort();
	return [command, ...flags].join(' ');
}

/** `<engi's cache>/code/<script hash>-<node version>-<arch>.v8`; undefined where engi has no cache directory. */
function codeCacheFile(env: NodeJS.ProcessEnv): string | undefined {
	try {
		return join(cacheDirectory({env, platform: process.platform}), 'code', `${__ENGI_SCRIPT_HASH__}-${process.version}-${process.arch}.v8`);
	} catch {
		return undefined; // No usable HOME or XDG_CACHE_HOME: the command itself says so, if it needs one.
	}
}

export function readCache(file: string): {data: Buffer; shapes: string[]} | undefined {
	let bytes: Buffer;
	try {
		bytes = readFileSync(file);
	} catch {
		return undefined;
	}

	if (bytes.length < headerBytes || !bytes.subarray(0, magic.length).equals(magic)) {
		return undefined;
	}

	const checksum = bytes.readUInt32LE(magic.length);
	const listLength = bytes.readUInt32LE(magic.length + 4);
	const data = bytes.subarray(headerBytes + listLength);
	if (headerBytes + listLength > bytes.length || data.length === 0 || crc32(bytes.subarray(headerBytes)) !== checksum) {
		return undefined;
	}

	try {
		const shapes = JSON.parse(bytes.subarray(headerBytes, headerBytes + listLength).toString('utf8')) as unknown;
		return Array.isArray(shapes) && shapes.every(shape => typeof shape === 'string') ? {data, shapes: shapes as string[]} : undefined;
	} catch {
		return undefined;
	}
}

/**
 * Written whole to a file of this process, then renamed over the cache, so a reader sees the old
 * cache or the new one, never a part. Caches of other builds left a day are removed. Any failure
 * (a read-only or full disk) leaves things as they were.
 */
function writeCache(file: string, shapes: readonly string[], data: Buffer): void {
	const list = Buffer.from(JSON.stringify(shapes));
	const header = Buffer.alloc(headerBytes);
	magic.copy(header);
	header.writeUInt32LE(crc32(data, crc32(list)), magic.length);
	header.writeUInt32LE(list.length, magic.length + 4);
	const temporary = `${file}.${process.pid}.tmp`;
	try {
		mkdirSync(dirname(file), {recursive: true, mode: 0o700});
		writeFileSync(temporary, Buffer.concat([header, list, data]), {mode: 0o600});
		renameSync(temporary, file);
		removeStaleCaches(dirname(file), file);
	} catch {
		try {
			rmSync(temporary, {force: true});
		} catch {
			// Nothing was written there either.
		}
	}
}

const staleMs = 24 * 60 * 60 * 1000;

function removeStaleCaches(directory: string, kept: string): void {
	for (const name of readdirSync(directory)) {
		const path = join(directory, name);
		if (path !== kept && (name.endsWith('.v8') || name.endsWith('.tmp')) && Date.now() - statSync(path).mtimeMs > staleMs) {
			rmSync(path, {force: true});
		}
	}
}
