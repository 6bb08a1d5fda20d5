import type {SessionEvent} from '../../../adapters/events.js';
import type {SourceId} from '../../../adapters/types.js';
import type {ToolAction} from './shell.js';
import {classifyCall} from './tools.js';

export type PruneRule = 'superseded_read' | 'duplicate_read' | 'empty_search';

/** Why one tool result may go: the rule and the note's reason, which names the evidence. */
export type PruneDecision = {readonly rule: PruneRule; readonly reason: string};

type Call = {
	readonly event: SessionEvent;
	readonly position: number;
	readonly action: ToolAction;
	result?: SessionEvent;
};

/**
 * The text a tool printed, without the frame some stores put around it: Codex's and
 * Antigravity's `…\nOutput:\n` header, Gemini's `Output: (empty)`, Copilot's exit marker.
 */
export function outputBody(text: string): string {
	let body = text;
	const header = /(?:^|\n)Output:(?: |\n|$)/.exec(body);
	const frame = header ? body.slice(0, header.index + (body[header.index] === '\n' ? 1 : 0)) : '';
	if (header && /^(?:[A-Z][\w ]*:[^\n]*\n|(?:Process|The command) exited with code -?\d+\.?\n)*$/.test(frame)) {
		body = body.slice(header.index + header[0].length);
	}

	return body.replace(/<exited with exit code \d+>\s*$/, '').replace(/^\(empty\)(?:\n[A-Z][\w ]*:[^\n]*)*\s*$/, '').trim();
}

/** Output that says a search found nothing (the wordings of grep, rg, Claude, Gemini and the editors' tools). */
export function isEmptyResult(output: string): boolean {
	const body = outputBody(output);
	return body === ''
		|| body === '[]'
		|| /^no (?:results|matches|files|matching files)(?: were)? found\b/i.test(body)
		|| /^found 0 (?:results|matches|files)\b/i.test(body)
		|| /\b0 matches\b/i.test(body)
		|| /\bno matches found\b/i.test(body);
}

/** Whether a text is a note page.ts put in place of an output: one already pruned has nothing more to leave out. */
export const isPruneNote = (text: string) => /^\[omitted(?:: [^\n]*)?; \d+ chars\]$/.test(text);

const clip = (text: string) => (text.length <= 80 ? text : `${text.slice(0, 79)}…`);

/** A call that ran and succeeded; grep's and rg's exit status 1 means "no match", not failure. */
function succeeded(call: Call): boolean {
	const result = call.result?.result;
	if (!result) {
		return false;
	}

	if (!result.is_error) {
		return true;
	}

	return call.action.kind === 'search' && call.action.noMatchExit && result.exit_code === 1 && isEmptyResult(result.output);
}

/**
 * Decides which tool results of a page may be pruned, by §8's rules: a read superseded by a
 * later successful write of the same file, a read repeated later with no write of that file
 * between, a status check (`git status`, `git diff`) repeated with no other call between, and a
 * search that found nothing. Only results paired with their call by an explicit id count;
 * errors, the results in `kept` (the newest records) and outputs that already are a note (so
 * pruning is idempotent) are never chosen.
 */
export function pruneDecisions(events: readonly SessionEvent[], source: SourceId, project: string | undefined, kept: ReadonlySet<SessionEvent>): Map<SessionEvent, PruneDecision> {
	const calls: Call[] = [];
	const byId = new Map<string, Call>();
	events.forEach((event, position) => {
		if (event.kind === 'tool_call') {
			const call: Call = {event, position, action: classifyCall(source, event, project)};
			calls.push(call);
			if (event.tool?.call_id) {
				byId.set(event.tool.call_id, call);
			}
		} else if (event.kind === 'tool_result' && event.result?.call_id) {
			const call = byId.get(event.result.call_id);
			if (call && !call.result) {
				call.result = event;
			}
		}
	});

	const writes = calls.filter(call => call.action.kind === 'write' && succeeded(call));
	const writesBetween = (from: number, to: number, paths: readonly string[]) => writes.find(write => write.position > from && write.position < to && (write.action as {paths: string[]}).paths.some(path => paths.includes(path)));
	const decisions = new Map<SessionEvent, PruneDecision>();
	for (const [index, call] of calls.entries()) {
		const result = call.result;
		if (!result || kept.has(result) || !succeeded(call) || isPruneNote(result.result!.output)) {
			continue;
		}

		const {action} = call;
		if (action.kind === 'read') {
			const write = writes.find(candidate => candidate.position > call.position && (candidate.action as {paths: string[]}).paths.some(path => action.paths.includes(path)));
			if (write) {
				const path = action.paths.find(candidate => (write.action as {paths: string[]}).paths.includes(candidate))!;
				decisions.set(result, {rule: 'superseded_read', reason: `read of '${clip(path)}' superseded by write at line ${write.event.line}`});
				continue;
			}

			const again = calls.slice(index + 1).find(later => later.action.kind === 'read' && later.action.key === action.key && succeeded(later) && !writesBetween(call.position, later.position, action.paths));
			if (again) {
				decisions.set(result, {rule: 'duplicate_read', reason: `read of '${clip(action.paths[0]!)}' redundant; re-read at line ${again.event.line}`});
			}
		} else if (action.kind === 'status') {
			// The tree a status describes can change by any call that is not itself a look.
			const rest = calls.slice(index + 1);
			const change = rest.findIndex(later => !['read', 'search', 'status'].includes(later.action.kind));
			const again = rest.slice(0, change === -1 ? rest.length : change).find(later => later.action.kind === 'status' && later.action.key === action.key && succeeded(later));
			if (again) {
				decisions.set(result, {rule: 'duplicate_read', reason: `status check redundant; repeated at line ${again.event.line} with nothing changed between`});
			}
		} else if (action.kind === 'search' && isEmptyResult(result.result!.output)) {
			decisions.set(result, {rule: 'empty_search', reason: `search for '${clip(action.query)}' returned 0 matches`});
		}
	}

	return decisions;
}
