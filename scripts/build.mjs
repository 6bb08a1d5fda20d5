// Bundles the CLI with esbuild: one small entry (build/cli.js), code-split chunks loaded on
// demand, and the Ink dashboard (build/tui.mjs) as its own entry that only the TUI path imports;
// the same commands also as one script (build/chunks/main.cjs) for calls off a terminal. Native
// addons stay in node_modules and load lazily; the tokenizer's rank table is written beside the
// bundle in a form ready to read (build/o200k.bin).
import {createHash} from 'node:crypto';
import {readFileSync, rmSync, writeFileSync, chmodSync, mkdirSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';
import {fileURLToPath} from 'node:url';
import {build} from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../build', import.meta.url), {recursive: true, force: true});
const shared = {
	bundle: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	legalComments: 'none',
	// better-sqlite3's JavaScript is bundled (its addon stays in node_modules: source/lib/sqlite.ts
	// loads it); `bindings` and the package as installed serve only an install without the addon
	// where it normally is.
	external: ['bindings', 'nodejieba', 'js-tiktoken', 'js-tiktoken/*', 'fzstd'],
	define: {
		__ENGI_VERSION__: JSON.stringify(pkg.version),
		'process.env.NODE_ENV': '"production"',
	},
	// yaml's ES module build (the same code its `default` export condition serves): its CommonJS
	// build, which the `node` condition picks, costs wiki sync and harvest ~6 ms more at every
	// start to evaluate its module wrappers, and cannot be tree-shaken.
	alias: {'react-devtools-core': './scripts/stub-devtools.mjs', yaml: './node_modules/yaml/browser/index.js'},
	banner: {js: "import {createRequire as __engiCreateRequire} from 'node:module'; const require = __engiCreateRequire(import.meta.url);"},
	logLevel: 'warning',
};

// The MCP SDK is bundled on its own (build/mcp-sdk.js, loaded by `engi mcp` alone) with its own
// copy of zod: split with the rest, its use of zod (classic schemas, the JIT compiler, the
// memoizer) went into the zod chunk every command loads, ~50 KB more to compile on each call.
// No schema crosses between the two copies (the SDK is given JSON Schemas, build/mcp-tools.json).
const sdkBundle = {
	name: 'mcp-sdk-bundle',
	setup(plugin) {
		plugin.onResolve({filter: /^\.\/sdk\.js$/}, args => (args.importer.endsWith(join('source', 'mcp', 'server.ts')) ? {path: '../mcp-sdk.js', external: true} : undefined));
	},
};
await build({...shared, entryPoints: ['source/mcp/sdk.ts'], outfile: 'build/mcp-sdk.js'});
// The split modules are named .mjs: for a .js file node looks for the nearest package.json to
// learn its module type, for each of the ~40-55 modules a call loads (~0.5 M instructions each,
// 3% of a query at 100k events); .mjs says it. The executable (build/cli.js, built on its own
// below) keeps its name and imports build/main.mjs, where the split build starts.
const result = await build({
	...shared,
	plugins: [sdkBundle],
	entryPoints: ['source/main.ts', 'source/tui.tsx', 'source/engine/catalog/write-thread-entry.ts'],
	outdir: 'build',
	outExtension: {'.js': '.mjs'},
	splitting: true,
	entryNames: '[name]',
	chunkNames: 'chunks/[name]-[hash]',
	sourcemap: 'linked',
	metafile: true,
});
writeFileSync(new URL('../build/meta.json', import.meta.url), JSON.stringify(result.metafile));

// The same commands as one CommonJS script (build/chunks/main.cjs), which build/cli.js runs for a
// call that cannot open the dashboard (source/start/cached-main.ts), compiled with V8's code cache
// kept in engi's cache: node 20 keeps no compiled code for ES modules, and compiling the modules
// of a call was a tenth of a warm search at L. Everything but the dashboard is in it: a module
// only some commands need is bundled behind its dynamic import, which esbuild turns into a
// wrapper run on first use, so a call still runs only the modules it reaches, and V8 compiles a
// function only when it is first called. It sits in chunks/ so the paths the modules make from
// import.meta.url (build/mcp-tools.json, build/o200k.bin, build/jieba) are the split build's.
const dashboard = {
	name: 'dashboard-stays-esm',
	setup(plugin) {
		plugin.onResolve({filter: /^\.\.\/tui\.js$/}, () => ({path: '../tui.mjs', external: true}));
	},
};
const script = await build({
	...shared,
	format: 'cjs',
	plugins: [sdkBundle, dashboard],
	entryPoints: ['source/main.ts'],
	outfile: 'build/chunks/main.cjs',
	define: {...shared.define, 'import.meta': '__engiImportMeta'},
	// The script is a function expression, compiled as it is read: wrapping it at run time made a
	// second copy of its 2.6 MB.
	// Strict, as the ES modules it is made of are (esbuild's own "use strict" comes after the banner).
	banner: {js: "(function (exports, require, module, __filename, __dirname) {'use strict'; var __engiImportMeta = {url: require('node:url').pathToFileURL(__filename).href};"},
	footer: {js: '})'},
	sourcemap: 'linked',
	metafile: true,
});
writeFileSync(new URL('../build/meta-cjs.json', import.meta.url), JSON.stringify(script.metafile));
// ASCII only, so V8 holds the source read at each call as one byte per character: esbuild keeps
// comments and regular expression literals as written, and one character past Latin-1 (a '…' in
// a comment, a Han word in a pattern) made all 2.6 MB two bytes each. \uXXXX means the same
// character in a comment, a string, a pattern and a template's cooked text (the source's
// String.raw templates are ASCII).
const scriptFile = new URL('../build/chunks/main.cjs', import.meta.url);
writeFileSync(scriptFile, readFileSync(scriptFile, 'utf8').replaceAll(/[^\x00-\x7f]/g, character => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`));
// Names the script's code cache: a cache made from other source must never be handed to V8,
// which checks only the source's length.
const scriptHash = createHash('sha256').update(readFileSync(new URL('../build/chunks/main.cjs', import.meta.url))).digest('hex').slice(0, 16);

const splitEntry = {
	name: 'split-entry',
	setup(plugin) {
		plugin.onResolve({filter: /^\.\/main\.js$/}, () => ({path: './main.mjs', external: true}));
	},
};
await build({...shared, banner: {}, define: {...shared.define, __ENGI_SCRIPT_HASH__: JSON.stringify(scriptHash)}, plugins: [splitEntry], entryPoints: ['source/cli.ts'], outfile: 'build/cli.js', sourcemap: 'linked'});
chmodSync(new URL('../build/cli.js', import.meta.url), 0o755);

// `engi mcp` answers tools/list from build/mcp-tools.json (source/mcp/manifest.ts): every tool's
// description, made here by the same code from the same command table, because loading every
// command and converting its schemas on each start would cost a host ~200 ms per server start.
const describer = new URL('../build/describe-tools.mjs', import.meta.url);
await build({
	...shared,
	stdin: {
		contents: "import {commandTable} from './source/commands.ts'; import {describeTools} from './source/mcp/tools.ts'; export const described = await describeTools(commandTable);",
		resolveDir: fileURLToPath(new URL('..', import.meta.url)),
		loader: 'ts',
	},
	outfile: fileURLToPath(describer),
});
const {described} = await import(describer.href);
writeFileSync(new URL('../build/mcp-tools.json', import.meta.url), JSON.stringify(described));
rmSync(describer);

// o200k_base's rank table, ready to read (source/engine/tokens-table.ts): an exact token count
// reads build/o200k.bin into typed arrays instead of compiling js-tiktoken's 2.3 MB rank module
// and hashing its 200k tokens, which cost every evidence contract about 120 ms at start.
const tabler = new URL('../build/rank-table.mjs', import.meta.url);
await build({
	...shared,
	external: [],
	stdin: {
		contents: "import ranks from 'js-tiktoken/ranks/o200k_base'; import {encodeRankTable} from './source/engine/tokens-table.ts'; export const table = encodeRankTable(ranks);",
		resolveDir: fileURLToPath(new URL('..', import.meta.url)),
		loader: 'ts',
	},
	outfile: fileURLToPath(tabler),
});
const {table} = await import(tabler.href);
writeFileSync(new URL('../build/o200k.bin', import.meta.url), table);
rmSync(tabler);

// jieba's dictionary, trimmed for indexing. Building the full 349k-word trie takes about three
// seconds here, which dominated a 100k-event index rebuild; words seen fewer than 5 times in
// jieba's corpus (61% of entries, a tiny share of its probability mass) are left to its HMM,
// and the keyword-extraction IDF table, which engi never uses, is replaced by a stub. Recall
// does not depend on this: every Han character is indexed on its own as well.
const minimumFrequency = 5;
try {
	const jiebaDictionaries = join(dirname(createRequire(import.meta.url).resolve('nodejieba/package.json')), 'submodules', 'cppjieba', 'dict');
	const words = readFileSync(join(jiebaDictionaries, 'jieba.dict.utf8'), 'utf8')
		.split('\n')
		.filter(line => Number(line.split(' ')[1]) >= minimumFrequency);
	mkdirSync(new URL('../build/jieba', import.meta.url), {recursive: true});
	writeFileSync(new URL('../build/jieba/dict.utf8', import.meta.url), words.join('\n') + '\n');
	writeFileSync(new URL('../build/jieba/idf.utf8', import.meta.url), 'engi 1.0\n');
} catch (error) {
	// Without nodejieba (its build failed), Han text is still indexed character by character.
	console.warn(`build: jieba dictionary not trimmed (${error instanceof Error ? error.message : error}); the full one will load`);
}
