// Bundles the CLI with esbuild: one small entry (build/cli.js), code-split chunks loaded on
// demand, and the Ink dashboard (build/tui.js) as its own entry that only the TUI path imports.
// Native addons and the tokenizer's rank tables stay in node_modules and load lazily.
import {readFileSync, rmSync, writeFileSync, chmodSync, existsSync} from 'node:fs';
import {build} from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../build', import.meta.url), {recursive: true, force: true});
const entryPoints = ['source/cli.ts'];
if (existsSync(new URL('../source/tui.tsx', import.meta.url))) {
	entryPoints.push('source/tui.tsx');
}

const result = await build({
	entryPoints,
	outdir: 'build',
	bundle: true,
	splitting: true,
	format: 'esm',
	platform: 'node',
	target: 'node20',
	entryNames: '[name]',
	chunkNames: 'chunks/[name]-[hash]',
	sourcemap: 'linked',
	legalComments: 'none',
	metafile: true,
	external: ['better-sqlite3', 'nodejieba', 'js-tiktoken', 'js-tiktoken/*'],
	define: {
		__ENGI_VERSION__: JSON.stringify(pkg.version),
		'process.env.NODE_ENV': '"production"',
	},
	alias: {'react-devtools-core': './scripts/stub-devtools.mjs'},
	banner: {js: "import {createRequire as __engiCreateRequire} from 'node:module'; const require = __engiCreateRequire(import.meta.url);"},
	logLevel: 'warning',
});
writeFileSync(new URL('../build/meta.json', import.meta.url), JSON.stringify(result.metafile));
chmodSync(new URL('../build/cli.js', import.meta.url), 0o755);
