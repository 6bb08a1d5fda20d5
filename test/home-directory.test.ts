import assert from 'node:assert/strict';
import test from 'node:test';
import {adapterContext} from '../source/engine/catalog/targets.js';
import {homeOf, type Deps} from '../source/engine/deps.js';
import {homeDirectory} from '../source/engine/kb/paths.js';

const deps = (env: Record<string, string>, platform: NodeJS.Platform): Deps => ({env, platform, cwd: '/', now: () => new Date(0)});

test('home: HOME where it is set; on Windows, where HOME is rarely set, USERPROFILE (as os.homedir reads it there)', () => {
	assert.equal(homeOf(deps({HOME: '/home/pat'}, 'linux')), '/home/pat');
	assert.equal(homeOf(deps({USERPROFILE: '/home/pat'}, 'linux')), undefined, 'USERPROFILE means nothing elsewhere');
	assert.equal(homeOf(deps({USERPROFILE: 'C:\\Users\\pat'}, 'win32')), 'C:\\Users\\pat');
	assert.equal(homeOf(deps({HOME: ' ', USERPROFILE: 'C:\\Users\\pat'}, 'win32')), 'C:\\Users\\pat', 'a blank HOME is no home');
	assert.equal(homeOf(deps({HOME: 'D:\\home', USERPROFILE: 'C:\\Users\\pat'}, 'win32')), 'D:\\home', 'HOME, set, wins there too');
	// The stores' roots and engi's own files follow it (an absolute path on this platform stands for one on Windows).
	assert.equal(adapterContext(deps({USERPROFILE: '/users/pat'}, 'win32')).home, '/users/pat');
	assert.equal(homeDirectory(deps({USERPROFILE: '/users/pat'}, 'win32')), '/users/pat');
	assert.throws(() => homeDirectory(deps({}, 'win32')), /HOME or USERPROFILE is not set/);
	assert.throws(() => homeDirectory(deps({}, 'linux')), /^EngiError: HOME is not set|HOME is not set/);
});
