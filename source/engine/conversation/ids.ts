import {EngiError} from '../errors.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Native ids: OpenCode `ses_…`, Claude `agent-…`, Qwen's undashed UUIDs and the like. */
const nativeId = /^[A-Za-z0-9][A-Za-z0-9_.:@-]{2,127}$/;

/**
 * Checks a session id before anything touches the disk: a full UUID or a tool's native id.
 * Paths, `..` and partial ids are refused; engi never prefix-matches.
 */
export function normalizeSessionId(input: string): string {
	const id = input.trim();
	if (uuid.test(id)) {
		return id.toLowerCase();
	}

	// Hex and dashes only, but not a whole UUID: a truncated UUID, which would invite prefix matching.
	const partialUuid = /^[0-9a-f-]+$/i.test(id) && !/^[0-9a-f]{32}$/i.test(id);
	if (nativeId.test(id) && !id.includes('..') && !partialUuid) {
		return /^[0-9a-f]{32}$/i.test(id) ? id.toLowerCase() : id;
	}

	throw new EngiError('invalid_session_id', `not a session id: ${JSON.stringify(input.slice(0, 80))}`, {
		hint: 'pass a full UUID or the tool\'s own session id (engi sessions lists them); prefixes and paths are not accepted',
	});
}
