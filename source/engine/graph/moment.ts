import type {Deps} from '../deps.js';
import {canonicalUtc} from '../../lib/time.js';

/** What is visible at a moment: `asOf` bounds both what had been observed and which edges held. */
export type Moment = {
	readonly asOf: string;
	/** Keep edges whose validity window has closed (or not yet opened). */
	readonly includeExpired: boolean;
	/** True when `asOf` is "now", so the materialised node rows are already the answer. */
	readonly isNow: boolean;
};

/** The moment a read looks at: `--as-of` when given, else now. */
export function momentOf(deps: Deps, asOf?: string, includeExpired = false): Moment {
	const now = canonicalUtc(deps.now());
	return asOf === undefined || asOf >= now ? {asOf: now, includeExpired, isNow: true} : {asOf, includeExpired, isNow: false};
}
