import {any, fields, isString, optionalOf, refused, strictObject, type FieldReader} from '../shared/loose.js';
import {isRecord} from '../shared/text.js';
import {antigravityStepSchema, antigravityToolCallSchema, type AntigravityStep, type AntigravityToolCall} from './schema.js';

/**
 * antigravityStepSchema and antigravityToolCallSchema (schema.ts) read by hand (shared/loose.ts)
 * for the records they accept; whatever the hand reader refuses goes to the schema, which
 * decides. test/adapters/loose-records.test.ts checks the two agree.
 */

const string = optionalOf(isString);

/** `optional(z.array(z.unknown()))`: a copy of the array, as zod gives. */
const list: FieldReader = value => (value === null ? undefined : Array.isArray(value) ? [...(value as unknown[])] : refused);

const stepFields = fields({
	step_index: optionalOf(value => typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))),
	source: string,
	type: any, // Required: checked before.
	status: string,
	created_at: string,
	content: string,
	thinking: any,
	tool_calls: list,
	truncated_fields: list,
});

const toolCallFields = fields({name: string, args: any, arguments: any, id: string, function: any});

export function readAntigravityStep(value: unknown): AntigravityStep | undefined {
	const read = isRecord(value) && typeof value['type'] === 'string' ? strictObject(value, stepFields) : refused;
	if (read !== refused) {
		return read as AntigravityStep;
	}

	const parsed = antigravityStepSchema.safeParse(value);
	return parsed.success ? parsed.data : undefined;
}

export function readAntigravityToolCall(value: unknown): AntigravityToolCall | undefined {
	const read = isRecord(value) ? strictObject(value, toolCallFields) : refused;
	if (read !== refused) {
		return read as AntigravityToolCall;
	}

	const parsed = antigravityToolCallSchema.safeParse(value);
	return parsed.success ? parsed.data : undefined;
}
