import assert from 'node:assert/strict';
import test from 'node:test';
import {headerOf} from '../../source/adapters/codex/tool-output.js';
import {shellOutcome} from '../../source/adapters/shared/gemini-parts.js';

// gemini-cli's and Qwen's shell template: the command's own text, then the template's labels.
const template = (output: string, exit: string, signal = '(none)') => `Command: npm test\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit}\nSignal: ${signal}\nBackground PIDs: (none)\nProcess Group PGID: 4242`;

test('shell outcome (gemini-cli, Qwen): the template\'s last Exit Code label decides, an earlier one is the command\'s text', () => {
	assert.deepEqual(shellOutcome(template('ok', '0')), {exitCode: 0, failed: false});
	assert.deepEqual(shellOutcome(template('Exit Code: 0 (printed by the test)', '2')), {exitCode: 2, failed: true});
	assert.deepEqual(shellOutcome(template('Exit Code: 5', '0')), {exitCode: 0, failed: false});
	assert.deepEqual(shellOutcome('escaped by another tool\\nExit Code: 1'), {exitCode: 1, failed: true});
});

test('shell outcome: a signal after the template\'s label is a failure with no exit code; one the command printed is not', () => {
	assert.deepEqual(shellOutcome(template('killed', '(none)', 'SIGTERM')), {exitCode: undefined, failed: true});
	assert.deepEqual(shellOutcome(template('Signal: SIGKILL', '(none)')), {exitCode: undefined, failed: false});
	assert.deepEqual(shellOutcome('Signal: SIGKILL was printed and no template followed'), {exitCode: undefined, failed: false}, 'a signal counts only after the Exit Code label');
});

test('shell outcome: without the label, a stated status or the timeout note decides; a stated status decides alone', () => {
	assert.deepEqual(shellOutcome('make: *** [all] Error 2\nexit code: 2'), {exitCode: 2, failed: true});
	assert.deepEqual(shellOutcome('Command timed out after 120000ms'), {exitCode: undefined, failed: true});
	assert.deepEqual(shellOutcome('Command was automatically cancelled because it exceeded the timeout of 5 minutes'), {exitCode: undefined, failed: true});
	assert.deepEqual(shellOutcome('all good'), {exitCode: undefined, failed: false});
	assert.deepEqual(shellOutcome(template('ok', '0'), 3), {exitCode: 3, failed: true}, 'the record\'s own exit code outranks the text');
});

test('shell outcome: a long output without the template keeps its answer (it is searched for the label once)', () => {
	const long = `${'a line of build output\n'.repeat(200_000)}exit code: 4`;
	assert.deepEqual(shellOutcome(long), {exitCode: 4, failed: true});
	assert.deepEqual(shellOutcome(template('x'.repeat(3_000_000), '1')), {exitCode: 1, failed: true});
});

test('codex header: only an output\'s first KiB is its header, so a status deep in one long line is the command\'s own text', () => {
	assert.equal(headerOf('Exit code: 1\nWall time: 0.2 seconds\nOutput:\nexit code 7'), 'Exit code: 1\nWall time: 0.2 seconds');
	const oneLine = `${'y'.repeat(3000)} exit code 7 ${'y'.repeat(3000)}`;
	assert.equal(headerOf(oneLine).length, 1024);
	assert.ok(!headerOf(oneLine).includes('exit code 7'));
	assert.equal(headerOf('Process running with session ID 12\nOutput:\n' + 'z'.repeat(5000)), 'Process running with session ID 12');
});
