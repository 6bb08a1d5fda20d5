import {existsSync} from 'node:fs';
import {join} from 'node:path';
import {fileURLToPath} from 'node:url';
import type {TestContext} from 'node:test';
import {sessionEventSchema, type SessionEvent} from '../../source/adapters/events.js';
import {readAllRows} from '../../source/adapters/rows.js';
import {fileUnit} from '../../source/adapters/shared/fs.js';
import type {DiscoveredUnit, LoadedSession, SourceAdapter} from '../../source/adapters/types.js';
import {summarizeEvents, type SessionSummary} from '../../source/engine/catalog/summarize.js';
import {wholeUnit} from '../../source/adapters/types.js';

export {fixtureStores} from '../fixtures/home.js';
export const sharedStores = fileURLToPath(new URL('../../../shared/fixtures/stores', import.meta.url));

/** The shared third-party fixtures, or undefined (with the test skipped and why) when absent. */
export function sharedFixtures(t: TestContext, source: string): string | undefined {
	const directory = join(sharedStores, source);
	if (!existsSync(directory)) {
		t.skip(`../shared/fixtures/stores/${source} is not present (a fresh clone has no ../shared); conformance check skipped`);
		return undefined;
	}

	return directory;
}

export type ReadSession = {unit: DiscoveredUnit; loaded: LoadedSession; events: SessionEvent[]; summary: SessionSummary};

/** Reads one unit completely, checking every event against the event model's schema. */
export function readUnit(adapter: SourceAdapter, unit: DiscoveredUnit): ReadSession {
	const loaded = readAllRows(adapter, unit);
	loaded.rows.forEach((row, index) => {
		const previous = loaded.rows[index - 1];
		if (previous && row.line < previous.line) {
			throw new Error(`${unit.path}: rows out of line order (${previous.line} then ${row.line}); paging counts lines`);
		}
	});
	const events = loaded.rows.flatMap(row => row.events);
	for (const event of events) {
		const parsed = sessionEventSchema.safeParse(event);
		if (!parsed.success) {
			throw new Error(`${unit.path}:${event.line}: event does not match the event model: ${JSON.stringify(parsed.error.issues[0])}`);
		}
	}

	return {unit, loaded, events, summary: summarizeEvents(unit, events)};
}

/** Discovers every unit under each of the adapter's resolved roots and reads them all. */
export function readStore(adapter: SourceAdapter, sourceRoot: string): ReadSession[] {
	return adapter
		.resolveRoot(sourceRoot)
		.flatMap(root => adapter.discover(root).map(wholeUnit))
		.map(unit => readUnit(adapter, unit));
}

/** A unit for a loose fixture file (shared fixtures are not laid out like a real store). */
export function looseUnit(path: string, extra: Parameters<typeof fileUnit>[1] = {}): DiscoveredUnit {
	const unit = fileUnit(path, extra);
	if (!unit) {
		throw new Error(`no such fixture file: ${path}`);
	}

	return unit;
}
