import {join} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {openIndexReadOnly} from '../index/open.js';
import {nodesOfKindByLine} from '../index/store.js';
import {kbPaths} from '../kb/paths.js';
import {resolveRoot} from '../kb/root.js';
import {retentionKinds, toOutcome} from './journal.js';

/**
 * The error `read` gives for a session engi retention retired, instead of "not found": when and
 * by which receipt, and where its compact copy is if a sweep kept one. Read-only: the index is
 * opened as it is, and nothing is said when no knowledge base (or no index) is there to ask.
 */
export function retiredSessionError(id: string, rootFlag: string | undefined, deps: Deps): EngiError | undefined {
	let db;
	let paths;
	try {
		paths = kbPaths(resolveRoot(rootFlag, deps).root);
		db = openIndexReadOnly(paths);
	} catch {
		return undefined;
	}

	if (!db) {
		return undefined;
	}

	try {
		const same = (value: unknown) => typeof value === 'string' && value.toLowerCase() === id.toLowerCase();
		const purged = nodesOfKindByLine(db, retentionKinds.purged).filter(record => same(record.payload['session_id'])).at(-1);
		if (!purged) {
			return undefined;
		}

		const outcome = toOutcome(purged, 'purged');
		const compact = nodesOfKindByLine(db, retentionKinds.compact).filter(record => same(record.payload['session_id']) && record.payload['source'] === outcome.source).at(-1);
		const copy = typeof compact?.payload['path'] === 'string' ? join(paths.root, compact.payload['path']) : null;
		return new EngiError('session_retired', `${outcome.source} session ${outcome.session_id} was retired by engi retention on ${outcome.observed_utc}${copy ? `; its compact copy (user and assistant text) is ${copy}` : ''}`, {
			hint: copy ? `read the copy: one JSON line per message, e.g. head ${copy}` : 'the knowledge taken from it is in the knowledge base: engi retention log shows the receipt',
			details: {purge_receipt: outcome.id, compact_path: copy},
		});
	} catch {
		return undefined;
	} finally {
		db.close();
	}
}
