import assert from 'node:assert/strict';
import test from 'node:test';
import {projectName} from '../source/lib/project.js';

test('a project is named by the last segment of its path, with either separator (a Windows session read on Linux too)', () => {
	assert.equal(projectName('/home/pat/loom'), 'loom');
	assert.equal(projectName('/home/pat/loom/'), 'loom');
	assert.equal(projectName('C:\\Users\\pat\\loom'), 'loom');
	assert.equal(projectName('C:\\Users\\pat\\loom\\'), 'loom');
	assert.equal(projectName('\\\\wsl$\\Ubuntu\\home\\pat\\loom'), 'loom');
	assert.equal(projectName('/'), '/', 'a root has no segment: the path itself');
	assert.equal(projectName('loom'), 'loom');
});
