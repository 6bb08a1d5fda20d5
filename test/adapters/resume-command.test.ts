import assert from 'node:assert/strict';
import test from 'node:test';
import {availableStores} from '../../source/adapters/stores.js';

test('no store puts an id that is not a plain token into the native resume command a person may paste', () => {
	for (const store of availableStores()) {
		for (const id of ['x; rm -rf /', '$(id)', 'a b', '`id`', 'a\nb']) {
			assert.equal(store.nativeResumeCommand(id), null, `${store.id}: ${JSON.stringify(id)}`);
		}
	}
});
