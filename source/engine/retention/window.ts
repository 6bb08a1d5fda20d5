import type {Deps} from '../deps.js';

/** Sessions active within this many days stay (innen's hot window). */
export const defaultRetentionDays = 7;

export type RetentionWindow = {
	readonly days: number;
	/** Sessions last active after this instant stay. */
	readonly cutoff: string;
};

export function retentionWindow(days: number, deps: Deps): RetentionWindow {
	return {days, cutoff: new Date(deps.now().getTime() - days * 24 * 60 * 60 * 1000).toISOString()};
}
