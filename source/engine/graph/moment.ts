import type {Deps} from '../deps.js';
import type {Moment} from '../index/nodes.js';
import {canonicalUtc} from '../../lib/time.js';

/** The moment a read looks at: `--as-of` when given, else now. */
export function momentOf(deps: Deps, asOf?: string, includeExpired = false): Moment {
	const now = canonicalUtc(deps.now());
	return asOf === undefined || asOf >= now ? {asOf: now, includeExpired, isNow: true} : {asOf, includeExpired, isNow: false};
}
