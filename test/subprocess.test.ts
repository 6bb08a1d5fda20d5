import assert from 'node:assert/strict';
import {existsSync, readFileSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {runCommand} from '../source/lib/subprocess.js';
import {shellWord} from '../source/lib/words.js';
import {tempDir} from './helpers/temp.js';

const node = shellWord(process.execPath);
const options = {input: '', timeoutMs: 10_000, maxStdoutBytes: 1024 * 1024, env: process.env, cwd: process.cwd()};

/** True while a process with this pid exists. */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

test('a command gets its stdin and its stdout, exit code and the end of its stderr come back', async () => {
	const run = await runCommand(`${node} -e "let s='';process.stdin.on('data',c=>s+=c).on('end',()=>{process.stdout.write(s.toUpperCase());console.error('done');process.exit(4)})"`, {...options, input: 'evidence'});
	assert.deepEqual([run.stdout.toString(), run.exitCode, run.stderrTail.trim(), run.timedOut, run.overflowed], ['EVIDENCE', 4, 'done', false, false]);
});

test('a command that runs past its time is stopped, with every process of its group', async t => {
	const directory = tempDir(t);
	const pidFile = join(directory, 'child.pid');
	// The shell starts a grandchild that would outlive a kill of the shell alone.
	const started = Date.now();
	const run = await runCommand(`${node} -e "require('fs').writeFileSync(${JSON.stringify(JSON.stringify(pidFile)).slice(1, -1)}, String(require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {stdio: 'ignore'}).pid)); setInterval(() => {}, 1000)"`, {...options, timeoutMs: 500});
	assert.equal(run.timedOut, true);
	assert.ok(Date.now() - started < 8000, 'it did not wait for the command to end on its own');
	assert.ok(existsSync(pidFile));
	const grandchild = Number(readFileSync(pidFile, 'utf8'));
	t.after(() => {
		if (alive(grandchild)) {
			process.kill(grandchild, 'SIGKILL');
		}
	});
	for (let waited = 0; alive(grandchild) && waited < 3000; waited += 100) {
		await new Promise(resolve => setTimeout(resolve, 100));
	}

	assert.equal(alive(grandchild), false, 'the grandchild was stopped too');
});

test('a command that prints past the cap is stopped, and what it printed is cut at the cap', async () => {
	const run = await runCommand(`${node} -e "const b=Buffer.alloc(65536,120);const w=()=>{while(process.stdout.write(b)){}process.stdout.once('drain',w)};w()"`, {...options, maxStdoutBytes: 100_000});
	assert.deepEqual([run.overflowed, run.stdout.length, run.timedOut], [true, 100_000, false]);
});

test('past the cap, the command\'s whole group is stopped at once, not when a child holding the pipe ends', async () => {
	const started = Date.now();
	const run = await runCommand(`${node} -e "process.stdout.write('x'.repeat(5000))"; sleep 30`, {...options, maxStdoutBytes: 1000});
	assert.deepEqual([run.overflowed, run.stdout.length, run.timedOut], [true, 1000, false]);
	assert.ok(Date.now() - started < 8000, `it took ${Date.now() - started} ms`);
});

test('a command that cannot be started (its directory is gone) throws the reason', async t => {
	await assert.rejects(runCommand('true', {...options, cwd: join(tempDir(t), 'gone')}), {code: 'ENOENT'});
});

test('a command that ignores its stdin, or does not exist, is an ordinary outcome', async () => {
	const quiet = await runCommand(`${node} -e "process.exit(0)"`, {...options, input: 'x'.repeat(4 * 1024 * 1024)});
	assert.equal(quiet.exitCode, 0);
	const missing = await runCommand('engi-no-such-distiller-command', options);
	assert.equal(missing.exitCode, 127, 'the shell says the command was not found');
});
