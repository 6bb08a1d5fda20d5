import type {LineState} from '../types.js';
import {isRecord, textOf} from '../shared/text.js';
import {sha256Hex} from '../../lib/hash.js';

/**
 * Claude Code's prompt queue as a transcript tells it. What a person types while the agent works
 * is queued, not sent (messageQueueManager.ts in the rebuilt 2.1.x sources), and each change of
 * the queue is written as a `queue-operation` record: `enqueue` with the text as `content` (when
 * it is a string: a prompt, a command, a task's notification), `dequeue` without content (the
 * queue handing one over once the turn ends: its user record follows), `remove` (handed to the
 * running turn as a queued_command attachment: without content in 2.1.x, with it before), and
 * `popAll` with the text (pulled back into the input box by Esc or ↑: not sent). A prompt still
 * queued when the file ends was never sent: the person quit, or the process died, first. Only
 * the end of the file can tell, so this keeps the queue in the line state, each entry as a short
 * hash of its text and the place of its enqueue record (never the text: the catalog stores the
 * state), and the text is read back from there at the end (normalize.ts claudeAtEnd).
 *
 * Late-2025 builds write `content` as content blocks too (text blocks, bare strings, an image):
 * their text is what is queued, as a string's is; blocks without text (an image alone) are not.
 *
 * `dequeue` and a 2.1.x `remove` do not say which entry they took: the queue hands over the
 * oldest of the highest priority, a person's input before a task's notification. Where the
 * record that delivers the text (the user record, the queued_command attachment) repeats it,
 * that entry goes instead, and the operation written beside it (before or after) takes nothing
 * more (`told`).
 */
export type QueuedEntry = {
	/** The text's hash, or null for an enqueue whose content held no text (an image alone). */
	fp: string | null;
	line: number;
	/** Byte offset of the enqueue record's line, or -1 where it was read without one. */
	offset: number;
	/** A person's input (the queue's `next` priority), not a task's notification (`later`). */
	person: boolean;
};

type QueueState = {
	entries: QueuedEntry[];
	/** Deliveries matched by their text whose dequeue or remove has not been read yet. */
	told: number;
	/** A dequeue was read since the last user record: the next one is the queue's, not typed directly. */
	handedOver: boolean;
};

/** The queue holds a few entries at a time; more are left out, oldest first. */
const maxEntries = 16;

/** The text an operation's `content` queues: the string, or the text of its blocks; undefined when it holds none. */
export function queuedText(content: unknown): string | undefined {
	if (typeof content === 'string') {
		return content;
	}

	const text = Array.isArray(content) ? textOf(content) : '';
	return text === '' ? undefined : text;
}

/**
 * Builds of late 2025 also queued each background task they started (a `run_in_background` Bash
 * command, an async agent) as an enqueue whose content is the task's JSON, `{"task_id": …,
 * "description": …, "task_type": "local_bash" | "local_agent"}`: bookkeeping, never typed, and
 * never handed over as a prompt. Only an opening brace costs a parse.
 */
function isTaskRecord(text: string): boolean {
	const trimmed = text.trim();
	if (!trimmed.startsWith('{') || !trimmed.includes('"task_id"')) {
		return false;
	}

	try {
		const parsed: unknown = JSON.parse(trimmed);
		return isRecord(parsed) && typeof parsed['task_id'] === 'string';
	} catch {
		return false;
	}
}

export function queuedTextFingerprint(text: string): string {
	return sha256Hex(text.trim()).slice(0, 16);
}

function isEntry(value: unknown): value is QueuedEntry {
	return isRecord(value) && (value['fp'] === null || typeof value['fp'] === 'string') && typeof value['line'] === 'number' && typeof value['offset'] === 'number' && typeof value['person'] === 'boolean';
}

/** The queue as the line state keeps it, read defensively (the state comes back from the catalog). */
function queueOf(state: LineState): QueueState {
	const kept = isRecord(state['queue']) ? state['queue'] : {};
	const entries = Array.isArray(kept['entries']) ? kept['entries'].filter(isEntry) : [];
	const told = typeof kept['told'] === 'number' && kept['told'] > 0 ? Math.min(kept['told'], maxEntries) : 0;
	return {entries, told, handedOver: kept['handedOver'] === true};
}

function keep(state: LineState, queue: QueueState): void {
	if (queue.entries.length === 0 && queue.told === 0 && !queue.handedOver) {
		delete state['queue'];
		return;
	}

	state['queue'] = queue;
}

/** Drops the entry holding this text; false when none does. */
function dropText(queue: QueueState, text: string): boolean {
	const fp = queuedTextFingerprint(text);
	const index = queue.entries.findIndex(entry => entry.fp === fp);
	if (index === -1) {
		return false;
	}

	queue.entries.splice(index, 1);
	return true;
}

/** Drops the entry the queue hands over next: the oldest of a person's, else the oldest. */
function dropNext(queue: QueueState): void {
	const index = queue.entries.findIndex(entry => entry.person);
	queue.entries.splice(index === -1 ? 0 : index, 1);
}

/** Drops a person's oldest entry (popAll pulls back only what a person can edit). */
function dropPerson(queue: QueueState): void {
	const index = queue.entries.findIndex(entry => entry.person);
	if (index !== -1) {
		queue.entries.splice(index, 1);
	}
}

/** A dequeue, or a remove without content: one entry taken, which one its delivery may say. */
function takeUntold(queue: QueueState): void {
	if (queue.told > 0) {
		queue.told--;
	} else {
		dropNext(queue);
	}
}

/**
 * Follows one queue-operation record. `isPerson` says whether an enqueued text is a person's
 * input; `offset` is where the record's line starts.
 */
export function noteQueueOperation(record: Record<string, unknown>, line: number, offset: number | undefined, state: LineState, isPerson: (text: string) => boolean): void {
	const operation = record['operation'];
	const content = queuedText(record['content']);
	const queue = queueOf(state);
	switch (operation) {
		case 'enqueue':
			queue.entries.push({fp: content === undefined ? null : queuedTextFingerprint(content), line, offset: offset ?? -1, person: content === undefined || (!isTaskRecord(content) && isPerson(content))});
			queue.entries.splice(0, Math.max(0, queue.entries.length - maxEntries));
			break;
		case 'dequeue':
			queue.handedOver = true;
			takeUntold(queue);
			break;
		case 'remove':
			if (content === undefined) {
				takeUntold(queue);
			} else if (!dropText(queue, content)) {
				dropNext(queue);
			}

			break;
		case 'popAll':
			if (content === undefined || !dropText(queue, content)) {
				dropPerson(queue);
			}

			break;
		default:
			return;
	}

	keep(state, queue);
}

/**
 * A user record or queued_command attachment holding `texts`: an entry holding one of them was
 * delivered. A person's prompt that delivers none, written with no dequeue before it, was typed
 * while nothing worked, when the queue is empty: what the state still holds was left by an
 * earlier run of the session (quit with prompts queued, then resumed) and is no longer queued.
 */
export function noteDelivery(texts: readonly string[], state: LineState, options: {userRecord: boolean; personPrompt: boolean}): void {
	if (state['queue'] === undefined) {
		return;
	}

	const queue = queueOf(state);
	const delivered = queue.entries.length > 0 && texts.some(text => dropText(queue, text));
	if (delivered) {
		queue.told = Math.min(queue.told + 1, maxEntries);
	} else if (options.personPrompt && !queue.handedOver) {
		queue.entries = [];
		queue.told = 0;
	}

	if (options.userRecord) {
		queue.handedOver = false;
	}

	keep(state, queue);
}

/** The entries still queued: what a person typed or pasted and was never sent, oldest first. */
export function stillQueued(state: LineState): QueuedEntry[] {
	return state['queue'] === undefined ? [] : queueOf(state).entries.filter(entry => entry.person && entry.offset >= 0);
}
