import {stateReason, type StateReason} from '../search/result-state.js';

/** The work bounds of `engi trace` and their defaults: enough for a few seeds' provenance, small enough to answer at once. */
export const traceDefaults = {maxSources: 20, maxBytes: 8 * 1024 * 1024, maxRecords: 50, maxNodes: 200, maxDepth: 3} as const;

export type TraceBounds = {readonly maxSources: number; readonly maxBytes: number; readonly maxRecords: number; readonly maxNodes: number; readonly maxDepth: number};

const flagOf = {maxSources: 'max-sources', maxBytes: 'max-bytes', maxRecords: 'max-records', maxNodes: 'max-nodes', maxDepth: 'max-depth'} as const;

/**
 * What a trace has spent of its bounds. Every charge is asked for before the work it pays for,
 * so a counter never passes its bound; a refused charge records, once per bound, that the bound
 * stopped the trace short (`bound_reached`, naming the flag).
 */
export class TraceBudget {
	readonly spent = {sources: 0, bytes: 0, records: 0, nodes: 0, depth: 0};
	readonly reasons: StateReason[] = [];
	private readonly reached = new Set<keyof TraceBounds>();

	constructor(readonly bounds: TraceBounds) {}

	/** One more node visited, if --max-nodes allows. */
	node(): boolean {
		return this.take('maxNodes', 'nodes', 1, 'more nodes were reachable');
	}

	/** One more transcript or evidence file read, if --max-sources allows. */
	source(): boolean {
		return this.take('maxSources', 'sources', 1, 'more sources were reachable');
	}

	/** One more record of a transcript, if --max-records allows. */
	record(): boolean {
		return this.take('maxRecords', 'records', 1, 'more records matched');
	}

	/** `bytes` more bytes of source read, if --max-bytes allows (a source that does not fit is not read at all). */
	bytes(bytes: number): boolean {
		return this.take('maxBytes', 'bytes', bytes, 'a source did not fit in what was left');
	}

	/** A hop at this depth, if --max-depth allows; the deepest taken is kept. */
	depth(depth: number): boolean {
		if (depth > this.bounds.maxDepth) {
			this.stop('maxDepth', 'nodes lay further away');
			return false;
		}

		this.spent.depth = Math.max(this.spent.depth, depth);
		return true;
	}

	/** Whether a bound has refused a charge. */
	stopped(bound: keyof TraceBounds): boolean {
		return this.reached.has(bound);
	}

	private take(bound: 'maxNodes' | 'maxSources' | 'maxRecords' | 'maxBytes', counter: 'nodes' | 'sources' | 'records' | 'bytes', amount: number, why: string): boolean {
		if (this.spent[counter] + amount > this.bounds[bound]) {
			this.stop(bound, why);
			return false;
		}

		this.spent[counter] += amount;
		return true;
	}

	private stop(bound: keyof TraceBounds, why: string): void {
		if (!this.reached.has(bound)) {
			this.reached.add(bound);
			this.reasons.push(stateReason('bound_reached', `--${flagOf[bound]} ${this.bounds[bound]} stopped the trace: ${why}`, {subject: `--${flagOf[bound]}`}));
		}
	}
}
