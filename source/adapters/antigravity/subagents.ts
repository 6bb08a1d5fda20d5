/**
 * A subagent is a conversation of its own (`brain/<child>/`) whose transcript does not name its
 * parent. The parent's INVOKE_SUBAGENT step does: "Created the following subagents:" and then
 * one JSON object per child (`{"conversationId": …, "logAbsoluteUri": …, "workspaceUris": …}`),
 * written one after another or as an array, sometimes with prose after them.
 */
export const invokeSubagentType = 'INVOKE_SUBAGENT';
/** The tool call whose result that step is. */
export const invokeSubagentCall = 'invoke_subagent';

/** `"conversationId": "<id>"`, with any spacing, and quotes escaped once more in some builds. */
const conversationIdField = /\\?"conversationId\\?"\s*:\s*\\?"([^"\\]{1,128})\\?"/g;
/** A conversation id names its brain directory: a UUID in every sample, so only a plain word of that kind. */
const conversationId = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

/**
 * The conversation ids an INVOKE_SUBAGENT step's content names, once each, in order. Read only
 * from that step: the same text quoted in a command's output (a parent reading its own logs)
 * created nothing.
 */
export function invokedConversationIds(content: string): string[] {
	const ids = new Set<string>();
	for (const match of content.matchAll(conversationIdField)) {
		const id = match[1]!;
		if (conversationId.test(id)) {
			ids.add(id);
		}
	}

	return [...ids];
}
