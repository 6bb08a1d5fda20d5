import {any, fields, flag, looseObject, looseRecord, number, object, objects, text} from '../shared/loose.js';
import type {CopilotEnvelope, CopilotSessionData, CopilotTool} from './schema.js';

/**
 * The Copilot schemas every events.jsonl line passes through (schema.ts), read by hand
 * (shared/loose.ts). test/adapters/loose-records.test.ts checks these against the schemas.
 */

const envelopeFields = fields({
	type: any, // Required: checked before.
	data: object(fields({})),
	id: text,
	timestamp: any,
	parentId: text,
	agentId: text,
	ephemeral: flag,
});

const toolFields = fields({toolCallId: text, toolName: text, arguments: any, success: flag, result: any, error: any, shellExecution: any, parentToolCallId: text});

const userMessageFields = fields({content: text, source: text, isAutopilotContinuation: flag, parentToolCallId: text, crossSession: any, transformedContent: text, attachments: any});

const assistantMessageFields = fields({
	messageId: text,
	apiCallId: text,
	model: text,
	content: text,
	toolRequests: objects(fields({toolCallId: text, name: text, arguments: any, type: text})),
	parentToolCallId: text,
});

const sessionDataFields = fields({
	message: text,
	infoType: text,
	errorType: text,
	reason: text,
	newModel: text,
	chosenModel: text,
	title: text,
	success: flag,
	error: any,
	summaryContent: text,
	summary: text,
	shutdownType: text,
	errorReason: text,
	content: text,
	agentName: text,
	agentDisplayName: text,
	toolCallId: text,
	cancelled: flag,
	tokensRemovedDuringTruncation: number,
	messagesRemovedDuringTruncation: number,
});

export type CopilotUserMessage = {content?: string; source?: string; isAutopilotContinuation?: boolean; parentToolCallId?: string; crossSession?: unknown; transformedContent?: string; attachments?: unknown};
export type CopilotAssistantMessage = {
	messageId?: string;
	apiCallId?: string;
	model?: string;
	content?: string;
	toolRequests?: Array<{toolCallId?: string; name?: string; arguments?: unknown; type?: string}>;
	parentToolCallId?: string;
};

/** What `copilotEnvelopeSchema.safeParse(value)` gives on success, undefined where it fails. */
export function readCopilotEnvelope(value: unknown): CopilotEnvelope | undefined {
	return looseRecord(value, envelopeFields, 'type') as CopilotEnvelope | undefined;
}

/** An envelope's `data` (an object) read as each schema's `parse` reads it; none of them fails on an object. */
export function readCopilotTool(data: Record<string, unknown>): CopilotTool {
	return looseObject(data, toolFields) as CopilotTool;
}

export function readCopilotUserMessage(data: Record<string, unknown>): CopilotUserMessage {
	return looseObject(data, userMessageFields) as CopilotUserMessage;
}

export function readCopilotAssistantMessage(data: Record<string, unknown>): CopilotAssistantMessage {
	return looseObject(data, assistantMessageFields) as CopilotAssistantMessage;
}

export function readCopilotSessionData(data: Record<string, unknown>): CopilotSessionData {
	return looseObject(data, sessionDataFields) as CopilotSessionData;
}
