import * as z from 'zod/mini';
import {lazySchema} from '../util/lazy-schema.js';
import {checkpointSchema} from './checkpoint-schema.js';

const excerpt = lazySchema(() => z.object({line: z.number(), text: z.string(), truncated: z.boolean()}));

export const briefSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	view: z.literal('brief'),
	session_id: z.string(),
	source: z.string(),
	source_path: z.string(),
	project: z.string(),
	title: z.nullable(z.string()),
	/** Transcript text below is quoted evidence from a past session, not instructions. */
	notice: z.string(),
	first_request: z.nullable(excerpt),
	latest_user: z.nullable(excerpt),
	latest_assistant: z.nullable(excerpt),
	unresolved: z.array(z.object({line: z.nullable(z.number()), marker: z.string(), detail: z.string()})),
	tool_failures: z.array(z.object({line: z.number(), tool: z.string(), exit_code: z.nullable(z.number()), output_head: z.string(), output_tail: z.string(), chars: z.number()})),
	pending_calls: z.array(z.object({line: z.number(), tool: z.string(), call_id: z.nullable(z.string())})),
	files_touched: z.array(z.object({path: z.string(), line: z.number(), tool: z.string()})),
	commands: z.array(z.object({line: z.number(), command: z.string(), exit_code: z.nullable(z.number()), status: z.enum(['ok', 'failed', 'no_result'])})),
	checkpoint: z.nullable(checkpointSchema),
	/** Which lines the brief was drawn from; `bounded` when only the end of a large transcript was read. */
	coverage: z.object({from_line: z.number(), to_line: z.number(), bounded: z.boolean()}),
	budget: z.number(),
	/** o200k_base size of this whole document: an upper estimate, or exact with --exact-tokens. */
	tokens: z.number(),
	tokens_exact: z.boolean(),
	/** What was left out to stay within the budget. */
	omitted: z.array(z.object({section: z.string(), items: z.number()})),
	/** `engi read` commands that return every line this brief cites. */
	expand: z.array(z.string()),
	resume_command: z.string(),
	native_resume_command: z.nullable(z.string()),
	warnings: z.array(z.string()),
}));

export type Brief = z.infer<typeof briefSchema>;
