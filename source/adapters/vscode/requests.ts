/** Which requests a VS Code session document holds, in line order: live, queued, disabled, dropped. */
import {isRecord} from '../shared/text.js';
import type {SessionDocument} from './replay.js';
import {vscodeSessionSchema, type VscodeSession} from './schema.js';

function requestIdOf(request: unknown): unknown {
	return isRecord(request) ? request['requestId'] : undefined;
}

/**
 * The truncated requests that did not come back: a log rewrites the list from the first request
 * that changed, so a request kept after a removed one is dropped and pushed again. A request
 * dropped more than once is kept in its last version.
 */
function droppedRequests(live: readonly unknown[], discarded: readonly unknown[]): unknown[] {
	const liveIds = new Set(live.map(requestIdOf));
	const lastDrop = new Map(discarded.map((request, index) => [requestIdOf(request), index]));
	return discarded.filter((request, index) => {
		const id = requestIdOf(request);
		return id === undefined || (!liveIds.has(id) && lastDrop.get(id) === index);
	});
}

/**
 * A request a restored checkpoint disabled: VS Code shows it greyed out and removes it when the
 * next request is sent (`shouldBeRemovedOnSend`, persisted as `isHidden` before). One disabled only
 * after an undo stop (`afterUndoStop`) keeps its request and the reply up to that stop.
 */
function isDisabled(request: unknown): boolean {
	if (!isRecord(request)) {
		return false;
	}

	const disablement = request['shouldBeRemovedOnSend'];
	return request['isHidden'] === true || (isRecord(disablement) && disablement['afterUndoStop'] === undefined);
}

/** How many live requests come before the disabled ones (restoring a checkpoint disables a tail). */
function keptCount(live: readonly unknown[]): number {
	let kept = live.length;
	while (kept > 0 && isDisabled(live[kept - 1])) {
		kept--;
	}

	return kept;
}

export type RequestList = {readonly session: VscodeSession; readonly kept: number; readonly requests: readonly unknown[]};

/**
 * The requests the person queued while a turn ran (`pendingRequests[].request`), which VS Code
 * sends when the turn ends and restores with the session. One the live list already holds (sent
 * as the log was written) is not counted twice.
 */
function queuedRequests(pending: readonly unknown[] | undefined, live: readonly unknown[]): unknown[] {
	const liveIds = new Set(live.map(requestIdOf));
	return (pending ?? []).map(entry => (isRecord(entry) && isRecord(entry['request']) ? entry['request'] : undefined)).filter((request): request is Record<string, unknown> => request !== undefined && !liveIds.has(request['requestId']));
}

/**
 * The session's requests in line order (request `n` is on line `n`): the live ones up to
 * `kept`, the queued ones, then the disabled tail of the live ones and those a truncation
 * dropped, each on the next line. Those from `kept` on are an abandoned branch. Undefined when
 * the document is not a chat session.
 */
export function requestsOf(document: SessionDocument): RequestList | undefined {
	const parsed = vscodeSessionSchema.safeParse(document.state);
	if (!parsed.success) {
		return undefined;
	}

	const live = parsed.data.requests ?? [];
	const kept = keptCount(live);
	const queued = queuedRequests(parsed.data.pendingRequests, live);
	return {
		session: parsed.data,
		kept: kept + queued.length,
		requests: [...live.slice(0, kept), ...queued, ...live.slice(kept), ...droppedRequests(live, document.discarded ?? [])],
	};
}
