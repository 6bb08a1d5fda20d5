// `npm test`: build the CLI (tests drive the real binary), type-check, then run every
// test/**/*.test.ts(x) file with node's own test runner (through tsx for TypeScript).
// `npm run test:chaos` (`--chaos`) runs the chaos suite, test/chaos/*.chaos.ts, instead:
// full size unless ENGI_CHAOS_SCALE says less (.ci/run runs it small).
import {spawnSync} from 'node:child_process';
import {readdirSync, statSync} from 'node:fs';
import {join} from 'node:path';

const run = (command, args, env = process.env) => {
	const result = spawnSync(command, args, {stdio: 'inherit', env});
	if (result.status !== 0) {
		process.exit(result.status ?? 1);
	}
};

function collect(directory) {
	return readdirSync(directory)
		.sort()
		.flatMap(name => {
			const path = join(directory, name);
			if (statSync(path).isDirectory()) {
				return name === 'fixtures' || name === 'helpers' ? [] : collect(path);
			}

			return pattern.test(name) ? [path] : [];
		});
}

const chaos = process.argv[2] === '--chaos';
const pattern = chaos ? /\.chaos\.ts$/ : /\.test\.tsx?$/;
const only = process.argv.slice(chaos ? 3 : 2);
run(process.execPath, ['scripts/build.mjs']);
if (only.length === 0 && !chaos) {
	run(process.execPath, ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'tsconfig.test.json']);
}

const files = only.length > 0 ? only : collect(chaos ? 'test/chaos' : 'test');
run(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {...process.env, FORCE_COLOR: '0', NO_COLOR: '1'});
