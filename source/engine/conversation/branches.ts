import type {SessionEvent} from '../../adapters/events.js';
import {IntList} from '../../lib/int-list.js';

/**
 * Branches of a conversation kept as a tree (Claude Code and Qwen Code: `uuid`/`parentUuid`).
 * A rewind or an edited prompt adds a sibling under an earlier record; only the chain ending at
 * the newest record is the live conversation (formats.md §1, §5). Walking up from the newest
 * record gives the live chain; at each fork on it, the other children and everything below them
 * were abandoned. Compaction does not branch: a compact boundary's parent is the record it
 * continues (adapters give its logical parent).
 *
 * A sibling that is only a tool result is never taken for a branch: results of parallel tool
 * calls may hang off the call that made them. Nor is a reply record under a reply record beside
 * the result the conversation went on from: the next call of the same response, or the
 * continuation written while a call ran (a rewind re-sends a prompt; it never forks there). The
 * live leaf is the newest record a reader sees: bookkeeping written after it (attachments hang
 * off one record side by side) does not move it.
 * Subagent (sidechain) records are trees of their own and stay out. Sources without tree links
 * have no forks and nothing is abandoned.
 */
export class BranchTree {
	// Nodes are numbered as their ids are first met (a parent may be named before it is seen) and
	// kept in integer columns beside a table of id hashes (IdNumbers), so the tree of a huge
	// transcript costs about 30 bytes a record outside the JavaScript heap, and no id strings.
	private readonly numbers = new IdNumbers();
	/** Per number: flags (below), the parent's number (-1 for a root), first child, next sibling. */
	private readonly flags = new IntList();
	private readonly parents = new IntList();
	private readonly firstChild = new IntList();
	private readonly nextSibling = new IntList();
	/** Numbers of the nodes, in the order first added. */
	private readonly order = new IntList();
	/** The ids of the last nodes added (TreeNode needs them: see lastNodes), newest last. */
	private recent: Array<{number: number; id: string; parent: string | null}> = [];
	private forks = 0;
	private newest = -1;

	/**
	 * Takes an event of a tree store (one that states its parent, `null` for a root); others have
	 * no tree. Returns the node's number, or -1 for an event outside the tree.
	 */
	add(event: SessionEvent): number {
		const id = event.uuid;
		if (id === undefined || event.parent === undefined || event.sidechain) {
			return -1;
		}

		const number = this.addNode(id, event.parent ?? null);
		if (event.kind === 'tool_result') {
			this.flags.set(number, this.flags.get(number) | result);
		} else if (event.kind === 'meta') {
			// The place of a reply's record that shows nothing (a thinking block alone) names its message.
			this.flags.set(number, this.flags.get(number) | (event.message_id === undefined ? 0 : reply));
		} else {
			this.flags.set(number, this.flags.get(number) | other | (event.kind === 'assistant' || event.kind === 'tool_call' ? reply : 0));
			// Bookkeeping records written after the last message (attachments, hook output) do not end the conversation.
			this.newest = number;
		}

		return number;
	}

	/** A node known from an earlier read (TreeNode), before the events that continue it. */
	seed(node: TreeNode): void {
		const [id, parent, shown, , replied] = node;
		const number = this.addNode(id, parent);
		this.flags.set(number, this.flags.get(number) | (replied === true ? reply : 0));
		if (shown) {
			this.flags.set(number, this.flags.get(number) | other);
			this.newest = number;
		}
	}

	/** The number of an id, given one if it has none yet (a node of the tree or not). */
	numberOf(id: string): number {
		const number = this.numbers.intern(id);
		if (number === this.flags.length) {
			this.flags.push(0);
			this.parents.push(-1);
			this.firstChild.push(-1);
			this.nextSibling.push(-1);
		}

		return number;
	}

	private addNode(id: string, parent: string | null): number {
		const number = this.numberOf(id);
		if (this.isNode(number)) {
			return number;
		}

		this.flags.set(number, this.flags.get(number) | added);
		this.order.push(number);
		this.recent.push({number, id, parent});
		if (this.recent.length > 2 * recentNodes) {
			this.recent = this.recent.slice(-recentNodes);
		}

		if (parent !== null) {
			const up = this.numberOf(parent);
			const sibling = this.firstChild.get(up);
			if (sibling !== -1 && this.nextSibling.get(sibling) === -1) {
				this.forks++; // Its second child.
			}

			this.parents.set(number, up);
			this.nextSibling.set(number, sibling);
			this.firstChild.set(up, number);
		}

		return number;
	}

	private isNode(number: number): boolean {
		return (this.flags.get(number) & added) !== 0;
	}

	/** True when the node holds something a reader sees (not only a place in the tree). */
	private shown(number: number): boolean {
		return (this.flags.get(number) & (result | other)) !== 0;
	}

	/** True when the node holds a tool result and nothing else a reader sees. */
	private onlyResult(number: number): boolean {
		return number !== -1 && (this.flags.get(number) & (result | other)) === result;
	}

	/** The child on the live chain among the siblings from `first`, or -1. */
	private liveChild(first: number, live: Uint8Array): number {
		for (let child = first; child !== -1; child = this.nextSibling.get(child)) {
			if (live[child] === 1) {
				return child;
			}
		}

		return -1;
	}

	/** True when the node is a reply's record (the agent's text or call), not a prompt, result or notice. */
	private isReply(number: number): boolean {
		return (this.flags.get(number) & reply) !== 0;
	}

	/** True when the tree holds a node of this id (not only a parent some node names). */
	holds(id: string): boolean {
		const number = this.numbers.get(id);
		return number !== undefined && this.isNode(number);
	}

	/** True when a node added besides the `known` ones hangs off a parent the tree does not hold. */
	hasOrphanBesides(known: Iterable<string>): boolean {
		const knownNumbers = new Set([...known].map(id => this.numbers.get(id)));
		for (let index = 0; index < this.order.length; index++) {
			const number = this.order.get(index);
			const up = this.parents.get(number);
			if (up !== -1 && !knownNumbers.has(number) && !this.isNode(up)) {
				return true;
			}
		}

		return false;
	}

	/** The last `count` nodes (at most 32), to continue this tree from when the file grows. */
	lastNodes(count: number, abandoned: AbandonedNodes): TreeNode[] {
		return this.recent.slice(-Math.min(count, recentNodes)).map(({number, id, parent}) => [id, parent, this.shown(number), abandoned.hasNumber(number), this.isReply(number)]);
	}

	/** The nodes off the live chain: every non-live child of a fork on it, and all below. */
	abandoned(): AbandonedNodes {
		if (this.newest === -1 || this.forks === 0) {
			return new AbandonedNodes(this.numbers, undefined, 0);
		}

		const size = this.flags.length;
		const live = new Uint8Array(size);
		for (let cursor = this.newest; cursor !== -1 && live[cursor] === 0; cursor = this.isNode(cursor) ? this.parents.get(cursor) : -1) {
			live[cursor] = 1;
		}

		const pending: number[] = [];
		for (let up = 0; up < size; up++) {
			const first = this.firstChild.get(up);
			if (live[up] === 1 && first !== -1 && this.nextSibling.get(first) !== -1) {
				// Beside the result of a call the conversation went on from, a reply's record under the
				// reply that made the call is that response going on (another call, its thinking).
				const goesOnFromResult = this.isReply(up) && this.onlyResult(this.liveChild(first, live));
				for (let child = first; child !== -1; child = this.nextSibling.get(child)) {
					const replyGoesOn = goesOnFromResult && this.isReply(child);
					if (live[child] === 0 && !this.onlyResult(child) && !replyGoesOn) {
						pending.push(child);
					}
				}
			}
		}

		const abandoned = new Uint8Array(size);
		let count = 0;
		while (pending.length > 0) {
			const node = pending.pop()!;
			if (abandoned[node] === 0) {
				abandoned[node] = 1;
				count++;
				for (let child = this.firstChild.get(node); child !== -1; child = this.nextSibling.get(child)) {
					pending.push(child);
				}
			}
		}

		return new AbandonedNodes(this.numbers, abandoned, count);
	}
}

const added = 1;
const result = 2;
const other = 4;
/** The node holds the agent's reply (text or a call): a record of a response, never a prompt. */
const reply = 8;
const recentNodes = 32;

/**
 * Numbers for ids, found by a 64-bit hash of the id (two different 32-bit hashes) in an
 * open-addressing table, so no id string is kept. Two ids of one session with the same hash
 * (odds about 3 in 10^8 for a million records) would be taken for one node.
 */
class IdNumbers {
	// Grown as ids come (at most half full): most sessions hold a few hundred ids or none.
	private slots = new Int32Array(16).fill(-1);
	private readonly high = new IntList();
	private readonly low = new IntList();

	get(id: string): number | undefined {
		const [high, low] = hashId(id);
		const number = this.slots[this.find(high, low)]!;
		return number === -1 ? undefined : number;
	}

	intern(id: string): number {
		const [high, low] = hashId(id);
		const slot = this.find(high, low);
		if (this.slots[slot] !== -1) {
			return this.slots[slot]!;
		}

		const number = this.high.push(high);
		this.low.push(low);
		this.slots[slot] = number;
		if (this.high.length * 2 > this.slots.length) {
			this.grow();
		}

		return number;
	}

	/** The slot holding this hash, or the empty slot where it would go. */
	private find(high: number, low: number): number {
		const mask = this.slots.length - 1;
		for (let slot = low & mask; ; slot = (slot + 1) & mask) {
			const number = this.slots[slot]!;
			if (number === -1 || (this.high.get(number) === high && this.low.get(number) === low)) {
				return slot;
			}
		}
	}

	private grow(): void {
		this.slots = new Int32Array(this.slots.length * 2).fill(-1);
		for (let number = 0; number < this.high.length; number++) {
			this.slots[this.find(this.high.get(number), this.low.get(number))] = number;
		}
	}
}

function hashId(id: string): [number, number] {
	let high = 0x81_1c_9d_c5;
	let low = 0x9e_37_79_b9;
	for (let index = 0; index < id.length; index++) {
		const code = id.charCodeAt(index);
		high = Math.imul(high ^ code, 0x01_00_01_93);
		low = Math.imul(low ^ code, 0x5b_d1_e9_95);
		low ^= low >>> 13;
	}

	return [mix(high), mix(low)];
}

/** Murmur3's finaliser: every input bit reaches every output bit (the table indexes by the low bits). */
function mix(hash: number): number {
	hash = Math.imul(hash ^ (hash >>> 16), 0x85_eb_ca_6b);
	hash = Math.imul(hash ^ (hash >>> 13), 0xc2_b2_ae_35);
	return (hash ^ (hash >>> 16)) | 0;
}

/** The abandoned nodes of a tree, asked by id or by the tree's number for it. */
export class AbandonedNodes {
	constructor(
		private readonly numbers: IdNumbers,
		private readonly marks: Uint8Array | undefined,
		readonly size: number,
	) {}

	has(id: string): boolean {
		const number = this.marks === undefined ? undefined : this.numbers.get(id);
		return number !== undefined && this.hasNumber(number);
	}

	hasNumber(number: number): boolean {
		return this.marks !== undefined && number >= 0 && this.marks[number] === 1;
	}
}

/**
 * A node as the catalog remembers it: uuid, parent, whether it shows anything, whether it was
 * abandoned, and whether it is a reply's record (absent in catalogs written before it was kept).
 */
export type TreeNode = [string, string | null, boolean, boolean, boolean?];

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
 * a tree, every record from the first discarded line up to the marker (or through the line the
 * marker names, SessionEvent.rewound_through).
 */
export function rewoundRanges(events: Iterable<SessionEvent>): LineRanges {
	const ranges: LineRanges = [];
	for (const event of events) {
		const through = event.rewound_through ?? event.line - 1;
		if (event.rewound_from !== undefined && !event.sidechain && event.rewound_from <= through) {
			ranges.push([event.rewound_from, through]);
		}
	}

	return ranges;
}

function isOn(event: SessionEvent, abandoned: AbandonedNodes): boolean {
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
