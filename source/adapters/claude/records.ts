import {any, fields, isBoolean, isString, nullableString, optionalOf, refused, strictObject, type FieldReader} from '../shared/loose.js';
import {epochIso} from '../shared/epoch.js';
import {isRecord} from '../shared/text.js';
import type {ClaudeRecord} from './schema.js';

/**
 * claudeRecordSchema (schema.ts) read by hand (shared/loose.ts) for the records it accepts: every
 * line of a transcript passes here. Undefined means "ask the schema": it decides every record
 * this refuses, and names the field. test/adapters/loose-records.test.ts checks the two agree.
 */

const string = optionalOf(isString);
const boolean = optionalOf(isBoolean);

/** `z.looseObject({type: optional(z.string())})`, each object block of a content array. */
const blockFields = fields({type: string});

/** `optional(z.union([z.string(), z.array(contentBlock), loneBlock]))`, a lone block read as its list. */
const content: FieldReader = value => {
	if (value === null) {
		return undefined;
	}

	if (typeof value === 'string') {
		return value;
	}

	if (!Array.isArray(value)) {
		return isRecord(value) && typeof value['type'] === 'string' ? [value] : refused;
	}

	const blocks: unknown[] = [];
	for (const item of value) {
		// A bare string among the blocks is a text block (contentBlock in schema.ts).
		const block = typeof item === 'string' ? {type: 'text', text: item} : isRecord(item) ? strictObject(item, blockFields) : refused;
		if (block === refused) {
			return refused;
		}

		blocks.push(block);
	}

	return blocks;
};

/** `timestamp` (schema.ts): an ISO string, or an epoch number read as its ISO time (absent when it is no time). */
const timestamp: FieldReader = value => (value === null ? undefined : typeof value === 'string' ? value : typeof value === 'number' ? epochIso(value) : refused);

const messageFields = fields({id: string, role: string, content, stop_reason: nullableString, model: string});

const recordFields = fields({
	type: any, // Required: checked before.
	subtype: string,
	uuid: string,
	parentUuid: nullableString,
	logicalParentUuid: nullableString,
	isSidechain: boolean,
	isMeta: boolean,
	isCompactSummary: boolean,
	isVisibleInTranscriptOnly: boolean,
	isApiErrorMessage: boolean,
	isAbortedMidStream: boolean,
	sessionId: string,
	agentId: string,
	cwd: string,
	timestamp,
	message: value => (value === null ? undefined : isRecord(value) ? strictObject(value, messageFields) : refused),
	toolUseResult: any,
	toolDenialKind: string,
	summary: string,
	leafUuid: string,
	content: any,
	customTitle: string,
	aiTitle: string,
	title: string,
	attachment: any,
	error: any,
	sourceToolUseID: string,
	origin: any,
	forkedFrom: any,
	continuedInSessionId: string,
	trim_metadata: any,
	continue_metadata: any,
});

/** What `claudeRecordSchema.safeParse(value)` gives when it accepts the record; undefined for the schema to decide. */
export function readClaudeRecord(value: unknown): ClaudeRecord | undefined {
	if (!isRecord(value) || typeof value['type'] !== 'string') {
		return undefined;
	}

	const record = strictObject(value, recordFields);
	return record === refused ? undefined : (record as ClaudeRecord);
}
