import assert from 'node:assert/strict';
import {cpSync, mkdirSync, renameSync, symlinkSync} from 'node:fs';
import {join} from 'node:path';
import test from 'node:test';
import {claudeAdapter} from '../source/adapters/claude/index.js';
import {copilotAdapter} from '../source/adapters/copilot/index.js';
import {writeClaudeTranscript} from './helpers/claude-transcript.js';
import {repoRoot, runCli, sandboxEnv} from './helpers/cli.js';
import {tempDir} from './helpers/temp.js';

/**
 * Stores that live in more than one place: Claude Code wrote to `~/.config/claude` from 1.0.30 on
 * (ccusage reads it beside `~/.claude`), and Copilot CLI kept its sessions under `XDG_STATE_HOME`
 * before it moved them home and left a link behind (VS Code's Copilot extension still looks
 * there). Every place is read; one directory reached by two names is read once.
 */
const copilotSession = join(repoRoot, 'test', 'fixtures', 'stores', 'copilot', 'session-state', '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01');

type Listed = {sessions: Array<{id: string; source: string}>; scope: {sources: Array<{source: string; roots: string[]}>}};
const rootsRead = (env: Record<string, string>, source: string) => {
	const result = runCli(['sessions', '--all-projects', '--source', source, '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	return result.json<Listed>().scope.sources.flatMap(entry => entry.roots);
};
const listed = (env: Record<string, string>, source: string) => {
	const result = runCli(['sessions', '--all-projects', '--source', source, '--format', 'json'], {env});
	assert.equal(result.code, 0, result.stderr);
	return result.json<Listed>().sessions.map(session => session.id).sort();
};

/** A Claude transcript written under `directory/projects` (the helper writes below a home's `.claude`). */
function claudeSessionIn(base: string, directory: string, id: string): void {
	const scratch = join(base, `scratch-${id}`);
	writeClaudeTranscript(scratch, {id, cwd: '/work/app'}, [{user: `Port the ${id.slice(0, 4)} parser`}, {assistant: 'Ported.'}]);
	mkdirSync(directory, {recursive: true});
	cpSync(join(scratch, '.claude', 'projects'), join(directory, 'projects'), {recursive: true});
}

test('claude: the default roots are ~/.claude/projects and $XDG_CONFIG_HOME/claude/projects; CLAUDE_CONFIG_DIR replaces both', () => {
	assert.deepEqual(claudeAdapter.defaultRoots({env: {}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.claude/projects', '/home/ada/.config/claude/projects']);
	assert.deepEqual(claudeAdapter.defaultRoots({env: {XDG_CONFIG_HOME: '/cfg'}, home: '/home/ada', platform: 'darwin'}), ['/home/ada/.claude/projects', '/cfg/claude/projects']);
	assert.deepEqual(claudeAdapter.defaultRoots({env: {CLAUDE_CONFIG_DIR: '/srv/claude', XDG_CONFIG_HOME: '/cfg'}, home: '/home/ada', platform: 'linux'}), ['/srv/claude/projects']);
	assert.deepEqual(claudeAdapter.defaultRoots({env: {}, home: undefined, platform: 'linux'}), []);
});

test('copilot: sessions under $XDG_STATE_HOME/.copilot are a default root beside the Copilot home', () => {
	assert.deepEqual(copilotAdapter.defaultRoots({env: {XDG_STATE_HOME: '/state'}, home: '/home/ada', platform: 'linux'}), ['/home/ada/.copilot/session-state', '/state/.copilot/session-state']);
	assert.deepEqual(copilotAdapter.defaultRoots({env: {COPILOT_HOME: '/data/copilot', XDG_STATE_HOME: ' '}, home: '/home/ada', platform: 'linux'}), ['/data/copilot/session-state', '/home/ada/.local/state/.copilot/session-state'], 'a blank XDG_STATE_HOME is unset: its default');
});

test('engi sessions lists Claude sessions kept under ~/.config/claude, beside those under ~/.claude', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: undefined});
	const home = env['HOME']!;
	claudeSessionIn(base, join(home, '.config', 'claude'), 'c0ffee00-0000-4000-8000-000000000001');
	assert.deepEqual(listed(env, 'claude'), ['c0ffee00-0000-4000-8000-000000000001'], 'the XDG place alone, with XDG_CONFIG_HOME unset');
	claudeSessionIn(base, join(home, '.claude'), 'c0ffee00-0000-4000-8000-000000000002');
	assert.deepEqual(listed(env, 'claude'), ['c0ffee00-0000-4000-8000-000000000001', 'c0ffee00-0000-4000-8000-000000000002']);

	const moved = sandboxEnv(join(base, 'second'));
	claudeSessionIn(base, join(moved['XDG_CONFIG_HOME']!, 'claude'), 'c0ffee00-0000-4000-8000-000000000003');
	assert.deepEqual(listed(moved, 'claude'), ['c0ffee00-0000-4000-8000-000000000003'], 'XDG_CONFIG_HOME moves it');
});

test('a store reached by two names (a link from one default place to the other) is read once', t => {
	const base = tempDir(t);
	const env = sandboxEnv(base, {XDG_CONFIG_HOME: undefined, XDG_STATE_HOME: join(base, 'state')});
	const home = env['HOME']!;
	claudeSessionIn(base, join(home, '.claude'), 'c0ffee00-0000-4000-8000-000000000004');
	mkdirSync(join(home, '.config'), {recursive: true});
	symlinkSync(join(home, '.claude'), join(home, '.config', 'claude'));
	assert.deepEqual(listed(env, 'claude'), ['c0ffee00-0000-4000-8000-000000000004']);
	assert.deepEqual(rootsRead(env, 'claude'), [join(home, '.claude', 'projects')], 'the link is not read as a second store');

	// Copilot's move: the sessions go home, and the old place becomes a link to the new one.
	const stateStore = join(base, 'state', '.copilot', 'session-state');
	mkdirSync(stateStore, {recursive: true});
	cpSync(copilotSession, join(stateStore, '7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01'), {recursive: true});
	assert.deepEqual(listed(env, 'copilot'), ['7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01'], 'found under XDG_STATE_HOME before the move');
	mkdirSync(join(home, '.copilot'), {recursive: true});
	renameSync(stateStore, join(home, '.copilot', 'session-state'));
	symlinkSync(join(home, '.copilot', 'session-state'), stateStore);
	assert.deepEqual(listed(env, 'copilot'), ['7d2b9c40-1a2b-4c3d-8e4f-5a6b7c8d9e01']);
	assert.deepEqual(rootsRead(env, 'copilot'), [join(home, '.copilot', 'session-state')], 'read from the Copilot home, the first root, and not again through the link');
});
