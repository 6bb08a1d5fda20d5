import {EngiError} from '../../lib/errors.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Native ids: OpenCode `ses_…`, Claude `agent-…`, Qwen's undashed UUIDs and the like. */
const nativeId = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{2,127}$/;
const undashedUuid = /^[0-9a-f]{32}$/i;

/** A full UUID, or a native id that is no truncated UUID (which would invite prefix matching). */
function isAcceptedId(id: string): boolean {
	if (uuid.test(id)) {
		return true;
	}

	// Hex and dashes only, but not a whole UUID: a truncated UUID.
	const partialUuid = /^[0-9a-f-]+$/i.test(id) && !undashedUuid.test(id);
	return nativeId.test(id) && !id.includes('..') && !partialUuid;
}

/**
 * Checks a session id before anything touches the disk: a full UUID or a tool's native id.
 * Paths, `..` and partial ids are refused; engi never prefix-matches.
 */
export function normalizeSessionId(input: string): string {
	const id = input.trim();
	if (isAcceptedId(id)) {
		return uuid.test(id) || undashedUuid.test(id) ? id.toLowerCase() : id;
	}

	throw new EngiError('invalid_session_id', `not a session id: ${JSON.stringify(input.slice(0, 80))}`, {
		hint: 'pass a full UUID or the tool\'s own session id (engi sessions lists them); prefixes and paths are not accepted',
	});
}

/**
 * The id a session is listed under, made from what its store states (a record's id, a file or
 * directory name): unchanged when `read` accepts it, else spelled so that it does. Every id a
 * listing prints must open with `engi read <id>`.
 */
export function listableSessionId(stated: string): string {
	const id = stated.trim();
	if (isAcceptedId(id)) {
		return id;
	}

	const spelled = id.replaceAll(/[^A-Za-z0-9_.:@-]+/g, '-').replaceAll(/\.{2,}/g, '.').replace(/^[^A-Za-z0-9]+/, '').slice(0, 120);
	return isAcceptedId(spelled) ? spelled : `session-${spelled}`.slice(0, 128);
}
