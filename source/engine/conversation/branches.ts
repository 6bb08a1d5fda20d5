import type {SessionEvent} from '../../adapters/events.js';

/**
 * Branches of a conversation kept as a tree (Claude Code and Qwen Code: `uuid`/`parentUuid`).
 * A rewind or an edited prompt adds a sibling under an earlier record; only the chain ending at
 * the newest record is the live conversation (formats.md §1, §5). Walking up from the newest
 * record gives the live chain; at each fork on it, the other children and everything below them
 * were abandoned. Compaction does not branch: a compact boundary's parent is the record it
 * continues (adapters give its logical parent).
 *
 * A sibling that is only a tool result is never taken for a branch: results of parallel tool
 * calls may hang off the call that made them. The live leaf is the newest record a reader sees:
 * bookkeeping written after it (attachments hang off one record side by side) does not move it.
 * Subagent (sidechain) records are trees of their own and stay out. Sources without tree links
 * have no forks and nothing is abandoned.
 */
export class BranchTree {
	private readonly parentOf = new Map<string, string | null>();
	private readonly children = new Map<string, string[]>();
	/** Nodes with a tool result, and nodes with anything else a reader sees. */
	private readonly results = new Set<string>();
	private readonly others = new Set<string>();
	/** The newest node a reader sees: the leaf of the live chain. */
	newest: string | undefined;
	/** Every node, in the order first seen. */
	readonly order: string[] = [];

	/** Takes an event of a tree store (one that states its parent, `null` for a root); others have no tree. */
	add(event: SessionEvent): void {
		const id = event.uuid;
		if (id === undefined || event.parent === undefined || event.sidechain) {
			return;
		}

		this.addNode(id, event.parent ?? null);
		if (event.kind === 'tool_result') {
			this.results.add(id);
		} else if (event.kind !== 'meta') {
			this.others.add(id);
			// Bookkeeping records written after the last message (attachments, hook output) do not end the conversation.
			this.newest = id;
		}
	}

	/** A node known from an earlier read (TreeNode), before the events that continue it. */
	seed(node: TreeNode): void {
		const [id, parent, shown] = node;
		this.addNode(id, parent);
		if (shown) {
			this.others.add(id);
			this.newest = id;
		}
	}

	private addNode(id: string, parent: string | null): void {
		if (this.parentOf.has(id)) {
			return;
		}

		this.order.push(id);
		this.parentOf.set(id, parent);
		if (parent !== null) {
			const siblings = this.children.get(parent);
			if (siblings) {
				siblings.push(id);
			} else {
				this.children.set(parent, [id]);
			}
		}
	}

	has(id: string): boolean {
		return this.parentOf.has(id);
	}

	parent(id: string): string | null | undefined {
		return this.parentOf.get(id);
	}

	/** True when the node holds something a reader sees (not only a place in the tree). */
	shown(id: string): boolean {
		return this.others.has(id) || this.results.has(id);
	}

	/** The last `count` nodes, to continue this tree from when the file grows. */
	lastNodes(count: number, abandoned: ReadonlySet<string>): TreeNode[] {
		return this.order.slice(-count).map(id => [id, this.parentOf.get(id) ?? null, this.shown(id), abandoned.has(id)]);
	}

	/** The nodes off the live chain: every non-live child of a fork on it, and all below. */
	abandoned(): Set<string> {
		const abandoned = new Set<string>();
		if (this.newest === undefined || ![...this.children.values()].some(siblings => siblings.length > 1)) {
			return abandoned;
		}

		const live = new Set<string>();
		for (let cursor: string | null | undefined = this.newest; cursor !== null && cursor !== undefined && !live.has(cursor); cursor = this.parentOf.get(cursor)) {
			live.add(cursor);
		}

		const pending: string[] = [];
		for (const [parent, siblings] of this.children) {
			if (siblings.length > 1 && live.has(parent)) {
				pending.push(...siblings.filter(child => !live.has(child) && !(this.results.has(child) && !this.others.has(child))));
			}
		}

		while (pending.length > 0) {
			const node = pending.pop()!;
			if (!abandoned.has(node)) {
				abandoned.add(node);
				pending.push(...(this.children.get(node) ?? []));
			}
		}

		return abandoned;
	}
}

/** A node as the catalog remembers it: uuid, parent, whether it shows anything, whether it was abandoned. */
export type TreeNode = [string, string | null, boolean, boolean];

/** The events of the live conversation: those on abandoned branches, and those a rewind marker discarded, dropped. */
export function liveEvents(events: readonly SessionEvent[]): SessionEvent[] {
	const tree = new BranchTree();
	for (const event of events) {
		tree.add(event);
	}

	const abandoned = tree.abandoned();
	const rewound = rewoundRanges(events);
	return abandoned.size === 0 && rewound.length === 0 ? [...events] : events.filter(event => !isOn(event, abandoned) && !isAbandoned(event, rewound));
}

/**
 * The lines rewind markers discarded (SessionEvent.rewound_from), as ranges: in stores without
 * a tree, every record from the first discarded line up to the marker.
 */
export function rewoundRanges(events: Iterable<SessionEvent>): LineRanges {
	const ranges: LineRanges = [];
	for (const event of events) {
		if (event.rewound_from !== undefined && !event.sidechain && event.rewound_from < event.line) {
			ranges.push([event.rewound_from, event.line - 1]);
		}
	}

	return ranges;
}

function isOn(event: SessionEvent, abandoned: ReadonlySet<string>): boolean {
	return event.uuid !== undefined && event.parent !== undefined && !event.sidechain && abandoned.has(event.uuid);
}

/** Inclusive line ranges: how the catalog keeps which lines hold abandoned records. */
export type LineRanges = Array<[number, number]>;

/**
 * The lines whose records are abandoned, as ranges. A range may span subagent records and lines
 * with nothing to show, never a line of the live chain or one with no place in the tree.
 */
export function abandonedRanges(lines: ReadonlyArray<{line: number; abandoned: boolean}>): LineRanges {
	const ranges: LineRanges = [];
	let open: [number, number] | undefined;
	for (const {line, abandoned} of [...lines].sort((a, b) => a.line - b.line)) {
		if (!abandoned) {
			open = undefined;
		} else if (open) {
			open[1] = line;
		} else {
			open = [line, line];
			ranges.push(open);
		}
	}

	return ranges;
}

/**
 * True when an event lies on an abandoned branch, by the ranges the catalog kept for its session.
 * Subagent records are never on the main conversation's branches, and session facts hold
 * whatever branch is live.
 */
export function isAbandoned(event: SessionEvent, ranges: LineRanges): boolean {
	if (ranges.length === 0 || event.sidechain || event.kind === 'meta') {
		return false;
	}

	return ranges.some(([from, to]) => event.line >= from && event.line <= to);
}
