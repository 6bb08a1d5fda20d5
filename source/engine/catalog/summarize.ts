import {basename} from 'node:path';
import type {SessionEvent} from '../../adapters/events.js';
import type {DiscoveredUnit, LineState} from '../../adapters/types.js';
import {abandonedRanges, BranchTree, rewoundRanges, type LineRanges, type TreeNode} from '../conversation/branches.js';
import {listableSessionId} from '../conversation/ids.js';
import {clipMasked} from '../search/secrets.js';

export type SessionSummary = {
	id: string | null;
	parent_id: string | null;
	project: string | null;
	started: string | null;
	modified: string | null;
	/**
	 * The first request a person typed (host-injected text never counts), or a title the tool
	 * recorded, or for a subagent's session the task its parent agent gave it.
	 */
	title: string | null;
	/** Line of the first human request (the title's source). */
	first_human_line: number | null;
	/** Requests a person typed on the live conversation (abandoned branches do not count). */
	human_turns: number;
	assistant_messages: number;
	tool_calls: number;
	/** False for files with nothing conversational (e.g. a Claude summary-only file): not sessions. */
	conversational: boolean;
	/** The last records with tree identity: where a file that grows is expected to continue. */
	tree_tail: TreeNode[];
	/** Lines holding records of abandoned branches (rewinds, edited prompts), for views to label. */
	abandoned: LineRanges;
	/**
	 * A JSONL unit's normaliser state after the last line scanned (JsonlAdapter.normalizeLine):
	 * what a scan of the grown file continues with, so that a record is read as it would be in
	 * one pass (an echo of a record before the boundary stays an echo).
	 */
	line_state?: LineState;
};

const titleLength = 200;
/** How many of its last tree records a summary remembers, to continue the tree when the file grows. */
const treeTailLength = 32;

/** Timestamps come in many spellings; the catalog compares them as UTC ISO strings. */
export function utcIso(value: string | undefined | null): string | null {
	if (!value) {
		return null;
	}

	const time = Date.parse(value);
	return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** A title as the catalog keeps it: one line, bounded, and with secret-shaped strings masked. */
export function clipTitle(text: string): string {
	return clipMasked(text.trimStart(), titleLength, {oneLine: true}).text;
}

type HumanTurn = {uuid: string | undefined; line: number; text: string};

/**
 * Folds a session's events into its catalog summary. Streaming: call `add` for events in file
 * order (all of them, or a head window and a tail window), then `finish`. Human turns and the
 * title are taken from the live conversation, once the whole tree of a branching store is known.
 *
 * Given the summary of an earlier scan (`previous`), the events continue that scan, and its last
 * tree records are where they may branch off. When a branch changes what the earlier scan
 * counted, `rebranched` says the session must be read again from the start.
 */
export function createSummarizer(unit: DiscoveredUnit, previous?: SessionSummary) {
	const summary: SessionSummary = previous ? {...previous, abandoned: [...(previous.abandoned ?? [])]} : {
		id: unit.idHint ?? null,
		parent_id: unit.parentIdHint ?? null,
		project: unit.projectHint ?? null,
		started: null,
		modified: null,
		title: null,
		first_human_line: null,
		human_turns: 0,
		assistant_messages: 0,
		tool_calls: 0,
		conversational: false,
		tree_tail: [],
		abandoned: [],
	};
	let toolTitle: string | null = null;
	let agentTask: string | null = null;
	let lastMessageId: string | undefined;
	const tree = new BranchTree();
	const seeded = previous?.tree_tail ?? [];
	for (const node of seeded) {
		tree.seed(node);
	}

	const humans: HumanTurn[] = [];
	const treeLines: Array<{line: number; uuid: string | undefined}> = [];
	/** What rewind markers discarded (stores without a tree), and the first line these events hold. */
	const rewound: LineRanges = [];
	let firstLine: number | undefined;

	function noteTime(value: string | undefined): void {
		const timestamp = utcIso(value);
		if (timestamp) {
			if (summary.started === null || timestamp < summary.started) {
				summary.started = timestamp;
			}

			if (summary.modified === null || timestamp > summary.modified) {
				summary.modified = timestamp;
			}
		}
	}

	function add(event: SessionEvent): void {
		noteTime(event.timestamp);
		tree.add(event);
		firstLine ??= event.line;
		if (event.uuid !== undefined && event.parent !== undefined && !event.sidechain) {
			treeLines.push({line: event.line, uuid: event.uuid});
		} else if (treeLines.length > 0 && !event.sidechain && event.kind !== 'meta') {
			// In a tree store, lines with no place in the tree are live: a range of abandoned lines never spans them.
			treeLines.push({line: event.line, uuid: undefined});
		}

		rewound.push(...rewoundRanges([event]));

		const facts = event.session;
		if (facts) {
			summary.id ??= facts.id ?? null;
			summary.parent_id ??= facts.parent_id ?? null;
			summary.project ??= facts.cwd ?? null;
			const started = utcIso(facts.started);
			if (started && (summary.started === null || started < summary.started)) {
				summary.started = started;
			}

			// The store's own "last active" time (a summary file beside transcripts without timestamps).
			noteTime(facts.modified);
			if (facts.title) {
				toolTitle = clipTitle(facts.title);
			}
		}

		switch (event.kind) {
			case 'user':
				summary.conversational = true;
				if (event.human && !event.sidechain && event.text?.trim()) {
					humans.push({uuid: event.uuid, line: event.line, text: event.text});
				} else if (agentTask === null && event.origin === 'agent' && event.text?.trim()) {
					agentTask = clipTitle(event.text);
				}

				break;
			case 'assistant':
			case 'tool_call':
				summary.conversational = true;
				if (event.kind === 'tool_call') {
					summary.tool_calls++;
				}

				// A response split over several records (one per content block) is one message.
				if (!event.sidechain && (event.message_id === undefined ? event.kind === 'assistant' : event.message_id !== lastMessageId)) {
					summary.assistant_messages++;
				}

				lastMessageId = event.message_id;
				break;
			case 'tool_result':
				summary.conversational = true;
				break;
			default:
				break;
		}
	}

	/**
	 * True when these events fork off a record of the earlier scan such that what it counted no
	 * longer holds: the fork lies before the records it remembered, or a record it showed as live
	 * (or abandoned) now lies on the other side.
	 */
	function rebranched(): boolean {
		if (!previous) {
			return false;
		}

		const known = new Set(seeded.map(([id]) => id));
		const fresh = tree.order.filter(id => !known.has(id));
		if (fresh.some(id => {
			const parent = tree.parent(id);
			return parent !== null && parent !== undefined && !tree.has(parent);
		})) {
			return true;
		}

		// A rewind marker that discards lines an earlier scan counted.
		if (rewound.some(([from]) => firstLine !== undefined && from < firstLine)) {
			return true;
		}

		const abandoned = tree.abandoned();
		return seeded.some(([id, , shown, wasAbandoned]) => shown && abandoned.has(id) !== wasAbandoned);
	}

	function finish(): SessionSummary {
		const abandoned = tree.abandoned();
		const live = humans.filter(turn => (turn.uuid === undefined || !abandoned.has(turn.uuid)) && !rewound.some(([from, to]) => turn.line >= from && turn.line <= to));
		summary.human_turns += live.length;
		const first = live[0];
		if (summary.first_human_line === null && first) {
			summary.title = clipTitle(first.text);
			summary.first_human_line = first.line;
		}

		if (abandoned.size > 0) {
			summary.abandoned.push(...abandonedRanges(treeLines.map(({line, uuid}) => ({line, abandoned: uuid !== undefined && abandoned.has(uuid)}))));
		}

		summary.abandoned.push(...rewound);

		summary.tree_tail = tree.lastNodes(treeTailLength, abandoned);
		// A session whose store states no id is named by its file, so that every listed id opens.
		summary.id = listableSessionId(summary.id ?? basename(unit.path).replace(/\.[^.]*$/, ''));
		summary.parent_id = summary.parent_id === null ? null : listableSessionId(summary.parent_id);
		summary.title ??= toolTitle ?? (summary.parent_id === null ? null : agentTask);
		if (summary.modified === null && unit.mtimeMs > 0) {
			summary.modified = new Date(unit.mtimeMs).toISOString();
		}

		summary.started ??= summary.modified;
		// A session is never modified before it started (a copied file's mtime can be older).
		if (summary.modified !== null && summary.started !== null && summary.modified < summary.started) {
			summary.modified = summary.started;
		}

		return summary;
	}

	if (!previous && unit.facts) {
		add({line: 0, kind: 'meta', session: unit.facts});
	}

	return {add, finish, rebranched};
}

export function summarizeEvents(unit: DiscoveredUnit, events: Iterable<SessionEvent>): SessionSummary {
	const summarizer = createSummarizer(unit);
	for (const event of events) {
		summarizer.add(event);
	}

	return summarizer.finish();
}
