import {mkdtempSync, rmSync} from 'node:fs';
import {tmpdir} from 'node:os';
import {join} from 'node:path';
import type {TestContext} from 'node:test';

/** A real temporary directory, removed when the test ends. */
export function tempDir(t: TestContext, prefix = 'engi-test-'): string {
	const directory = mkdtempSync(join(tmpdir(), prefix));
	t.after(() => rmSync(directory, {recursive: true, force: true}));
	return directory;
}
