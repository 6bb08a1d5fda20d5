import {basename} from 'node:path';
import type {SessionEvent} from '../../adapters/events.js';
import type {DiscoveredUnit, LineState} from '../../adapters/types.js';
import {abandonedRanges, BranchTree, rewoundRanges, type LineRanges, type TreeNode} from '../conversation/branches.js';
import {authorOf} from '../conversation/author.js';
import {listableSessionId} from '../conversation/ids.js';
import {clipMasked} from '../search/secrets.js';
import {IntList} from '../../lib/int-list.js';
import {isUtcIsoString} from '../../lib/time.js';

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
	 * Sessions this one started that do not name it themselves (SessionInfo.children): the
	 * catalog links each to this session (store.ts, session_links). Absent when there are none.
	 */
	children?: string[];
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
/** A continued scan with more records whose parent it lacks than this is read again whole. */
const maxUnplacedParents = 8;

/**
 * The last timestamp utcIso read and what it gave: the events of one record, and records written
 * in one burst, mostly share their time.
 */
let lastRead: string | undefined;
let lastGiven: string | null = null;

/** Timestamps come in many spellings; the catalog compares them as UTC ISO strings. */
export function utcIso(value: string | undefined | null): string | null {
	if (!value) {
		return null;
	}

	if (value === lastRead) {
		return lastGiven;
	}

	// Already in toISOString's form (most stores write it): checked on its characters, no Date.
	const time = isUtcIsoString(value) ? undefined : Date.parse(value);
	lastRead = value;
	lastGiven = time === undefined ? value : Number.isNaN(time) ? null : new Date(time).toISOString();
	return lastGiven;
}

/** A title as the catalog keeps it: one line, bounded, and with secret-shaped strings masked. */
export function clipTitle(text: string): string {
	return clipMasked(text.trimStart(), titleLength, {oneLine: true}).text;
}

/**
 * How many human turns a summary keeps the title of while it reads: the title is the first one
 * not on an abandoned branch, known only at the end, and almost always among the first few.
 */
const titleCandidates = 32;

/**
 * Reads the text of the human request on one line again, for the rare session whose first
 * `titleCandidates` requests all turned out abandoned (a scan of a huge file keeps no more).
 */
export type HumanTextOfLine = (line: number) => string | undefined;

/**
 * Folds a session's events into its catalog summary. Streaming: call `add` for events in file
 * order (all of them, or a head window and a tail window), then `finish`. Human turns and the
 * title are taken from the live conversation, once the whole tree of a branching store is known.
 *
 * Given the summary of an earlier scan (`previous`), the events continue that scan, and its last
 * tree records are where they may branch off. When a branch changes what the earlier scan
 * counted, `rebranched` says the session must be read again from the start.
 */
export function createSummarizer(unit: DiscoveredUnit, previous?: SessionSummary, humanTextOfLine?: HumanTextOfLine) {
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
	/** Parents named by records of a continued scan before the tree held them (see orphansOfUnwrittenParents). */
	const unplacedParents: string[] = [];
	const seeded = previous?.tree_tail ?? [];
	for (const node of seeded) {
		tree.seed(node);
	}

	// Kept for the whole read in integer columns (a huge transcript has hundreds of thousands):
	// each human turn's tree node (-1 if none) and line, the title of the first few, and the
	// line and node of every tree event (for the abandoned ranges).
	const humanNodes = new IntList();
	const humanLines = new IntList();
	// Clipped as they come when the text is streamed (a huge paste is not kept); a session loaded
	// whole holds every text anyway, so only the one that becomes the title is clipped, at the end.
	const humanTitles: string[] = [];
	const clipLater = humanTextOfLine === undefined;
	const keptTitles = humanTextOfLine ? titleCandidates : Number.POSITIVE_INFINITY;
	const treeLines = new IntList();
	const treeNodes = new IntList();
	/** What rewind markers discarded (stores without a tree), and the first line these events hold. */
	const rewound: LineRanges = [];
	let firstLine: number | undefined;
	// Rare (a session that started subagents whose records do not say so): no set until then.
	let children: Set<string> | undefined = previous?.children ? new Set(previous.children) : undefined;

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
		const node = tree.add(event);
		if (previous && node !== -1 && typeof event.parent === 'string' && !tree.holds(event.parent) && unplacedParents.length <= maxUnplacedParents) {
			unplacedParents.push(event.parent);
		}

		firstLine ??= event.line;
		if (node !== -1) {
			treeLines.push(event.line);
			treeNodes.push(node);
		} else if (treeLines.length > 0 && !event.sidechain && event.kind !== 'meta') {
			// In a tree store, lines with no place in the tree are live: a range of abandoned lines never spans them.
			treeLines.push(event.line);
			treeNodes.push(-1);
		}

		if (event.rewound_from !== undefined) {
			rewound.push(...rewoundRanges([event])); // Rare: most events rewind nothing, and cost no array here.
		}

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

			for (const child of facts.children ?? []) {
				(children ??= new Set()).add(listableSessionId(child));
			}
		}

		switch (event.kind) {
			case 'user':
				// What the host injected (its context, a command's envelope, a notice) holds no
				// conversation by itself: a file of only that is no session, as a summary-only file is.
				if (authorOf(event) !== 'host') {
					summary.conversational = true;
				}

				if (event.human && !event.sidechain && event.text?.trim()) {
					humanNodes.push(event.uuid === undefined ? -1 : tree.numberOf(event.uuid));
					humanLines.push(event.line);
					if (humanTitles.length < keptTitles) {
						humanTitles.push(clipLater ? event.text : clipTitle(event.text));
					}
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
	function rebranched(parentWritten?: (id: string) => boolean): boolean {
		if (!previous) {
			return false;
		}

		if (tree.hasOrphanBesides(seeded.map(([id]) => id)) && !orphansOfUnwrittenParents(parentWritten)) {
			return true;
		}

		// A rewind marker that discards lines an earlier scan counted.
		if (rewound.some(([from]) => firstLine !== undefined && from < firstLine)) {
			return true;
		}

		const abandoned = tree.abandoned();
		return seeded.some(([id, , shown, wasAbandoned]) => shown && abandoned.has(id) !== wasAbandoned);
	}

	/**
	 * True when every record of these events that hangs off a parent the tree lacks names a parent
	 * never written to the file before them (`parentWritten`, which searches its bytes): Claude Code
	 * sometimes writes a record whose parent it never wrote (a reply it dropped, anthropics/claude-code
	 * #21751; the Agent SDK, claude-agent-sdk-typescript #287), and a session with that fault gets
	 * another on every turn. Read whole, such a record starts a tree of its own, as it does here;
	 * only a parent written earlier (a rewind to a record older than the tail the catalog keeps)
	 * means what was counted may have changed. Not when the earlier scan found branches abandoned:
	 * read whole, the new tree would leave them off the live chain, and so no longer abandoned.
	 */
	function orphansOfUnwrittenParents(parentWritten: ((id: string) => boolean) | undefined): boolean {
		const missing = unplacedParents.filter(id => !tree.holds(id));
		return parentWritten !== undefined && (previous?.abandoned ?? []).length === 0 && missing.length > 0 && unplacedParents.length <= maxUnplacedParents && !missing.some(parentWritten);
	}

	function finish(): SessionSummary {
		const abandoned = tree.abandoned();
		let first = -1;
		for (let index = 0; index < humanNodes.length; index++) {
			const line = humanLines.get(index);
			if (!abandoned.hasNumber(humanNodes.get(index)) && !rewound.some(([from, to]) => line >= from && line <= to)) {
				summary.human_turns++;
				first = first === -1 ? index : first;
			}
		}

		if (summary.first_human_line === null && first !== -1) {
			const line = humanLines.get(first);
			const text = first < humanTitles.length ? undefined : humanTextOfLine?.(line);
			const kept = humanTitles[first];
			summary.title = kept === undefined ? (text === undefined ? null : clipTitle(text)) : clipLater ? clipTitle(kept) : kept;
			summary.first_human_line = line;
		}

		if (abandoned.size > 0) {
			const lines = Array.from({length: treeLines.length}, (_, index) => ({line: treeLines.get(index), abandoned: abandoned.hasNumber(treeNodes.get(index))}));
			summary.abandoned.push(...abandonedRanges(lines));
		}

		summary.abandoned.push(...rewound);

		summary.tree_tail = tree.lastNodes(treeTailLength, abandoned);
		// A session whose store states no id is named by its file, so that every listed id opens.
		summary.id = listableSessionId(summary.id ?? basename(unit.path).replace(/\.[^.]*$/, ''));
		// A session is never its own parent (a store rewritten by another tool, a damaged header):
		// listed as its own child, it would be folded into itself and shown nowhere.
		const parent = summary.parent_id === null ? null : listableSessionId(summary.parent_id);
		summary.parent_id = parent === summary.id ? null : parent;
		// Nor its own child.
		const own = summary.id;
		const started = children ? [...children].filter(child => child !== own) : [];
		if (started.length > 0) {
			summary.children = started;
		} else {
			delete summary.children;
		}

		// With no request typed, the name stated last is the title: one these events state replaces
		// the one a scan of the file's start kept, as a read of the whole file takes the last.
		if (summary.first_human_line === null && toolTitle !== null) {
			summary.title = toolTitle;
		}

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
