import assert from 'node:assert/strict';
import test from 'node:test';
import {clipMasked, maskedHead, maskedTail} from '../source/engine/search/secrets.js';
import {canaries, leakedNeedles} from './helpers/canaries.js';

const pem = canaries.find(canary => canary.pattern === 'private_key_block')!.text;
const google = canaries.find(canary => canary.pattern === 'google_api_key')!.text;
/** A key block of about `length` characters: masking it shrinks the text by nearly all of them. */
const pemOf = (length: number) => pem.replace('\n', `\n${'MIIEpQIBAAKCAQEAcanaryPemBodyLineOne0123456789\n'.repeat(Math.floor((length - pem.length) / 47))}`);

test('a cut text shows no raw text from where its window was cut, however much masking shrank what came before', () => {
	for (const limit of [200, 300, 500]) {
		// The key block masks to one marker, so the shown characters reach far past the first window.
		for (let offset = 0; offset < 80; offset += 7) {
			// The first window ends inside the key, a few characters after it starts.
			const block = pemOf(limit + 1024 - 200);
			const text = `${block}\n${'x'.repeat(limit + 1024 - block.length - 2 - 9 - 5 - offset)} maps key ${google} and more text after it ${'y'.repeat(2000)}`;
			for (const shown of [clipMasked(text, limit).text, clipMasked(text, limit, {oneLine: true}).text, maskedHead(text, limit).slice(0, limit)]) {
				assert.deepEqual(leakedNeedles(shown), [], `limit ${limit}, offset ${offset}: ${shown.slice(0, 120)}`);
			}
		}
	}
});

test('the end of a text shows no raw text from where its window began, however much masking shrank what came after', () => {
	const key = google.slice(google.indexOf('AIza'));
	const block = pemOf(1150);
	for (let offset = -3; offset <= 3; offset++) {
		// The last window begins just after the key's "AIza", so what remains of it is no longer a key.
		const after = 300 + 1024 - (key.length - 4) + offset;
		const text = `${'y'.repeat(3000)} maps key ${key} ${'x'.repeat(after - block.length - 6)}\n${block}\nend`;
		assert.deepEqual(leakedNeedles(maskedTail(text, 300).slice(-300)), [], `offset ${offset}`);
	}
});

test('short and unmasked texts come back as they were', () => {
	assert.deepEqual(clipMasked('plain words', 50), {text: 'plain words', truncated: false});
	assert.deepEqual(clipMasked('a'.repeat(60), 50), {text: `${'a'.repeat(49)}…`, truncated: true});
	assert.equal(maskedTail(`${'b'.repeat(5000)}end`, 10).slice(-10), `${'b'.repeat(7)}end`);
});
