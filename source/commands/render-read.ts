import type {HumanContext} from '../cli/define.js';
import type {ReadOutput} from '../engine/conversation/read.js';
import type {ContextRecord} from '../engine/conversation/views.js';
import type {Preview} from '../engine/conversation/preview.js';
import {fieldLines} from '../output/text.js';
import {pageFooter} from './shared.js';

function preview(value: Preview | undefined): string {
	if (!value) {
		return '';
	}

	return value.preview_truncated ? `${value.preview} … ${value.preview_tail} (${value.chars} chars)` : value.preview;
}

function contextLine(record: ContextRecord): string {
	const at = `[${record.line}]`;
	switch (record.kind) {
		case 'tool_call':
			return `${at} call ${record.tool ?? 'tool'}${record.pending ? ' (pending)' : ''}: ${preview(record.input)}`;
		case 'tool_result': {
			const status = [record.call_line === null || record.call_line === undefined ? '' : `of line ${record.call_line}`, record.is_error ? 'error' : '', record.exit_code === null || record.exit_code === undefined ? '' : `exit ${record.exit_code}`].filter(Boolean).join(', ');
			return `${at} result${status ? ` (${status})` : ''}: ${preview(record.output)}`;
		}

		case 'summary':
			return `${at} summary: ${preview(record.summary)}`;
		case 'system':
			return `${at} system: ${[record.text, record.interrupted ? 'interrupted' : '', record.error ? `error: ${record.error}` : ''].filter(Boolean).join(' · ')}`;
		default:
			return `${at} ${record.kind}${record.kind === 'user' && record.human === false ? ' (not a person)' : ''}: ${record.text ?? ''}${record.error ? ` (error: ${record.error})` : ''}`;
	}
}

/** The range a page covers, said the way a person reads it. */
function heading(result: ReadOutput): string {
	const name = `${result.source} ${result.session_id} (${result.view})`;
	if (result.view === 'events' && result.lines) {
		return `${name} line${result.lines.length === 1 ? '' : 's'} ${result.lines.join(', ')} of ${result.last_line}`;
	}

	if (result.status === 'past_end') {
		return `${name}: --offset ${result.offset} is past the end; the session has ${result.last_line} line${result.last_line === 1 ? '' : 's'}`;
	}

	return `${name} lines ${Math.min(result.offset + 1, result.last_line)}…${result.next_offset ?? result.last_line} of ${result.last_line}`;
}

/** One page of a session as text, in any view: what was said, called and returned, never raw JSON. */
export function renderReadPage(result: ReadOutput, context: HumanContext): string {
	const body: string[] = [];
	switch (result.view) {
		case 'dialogue':
			body.push(...result.records.map(record => `[${record.line}] ${record.role}${record.role === 'user' && record.human === false ? ' (not a person)' : ''}: ${record.content}`));
			break;
		case 'index':
			body.push(...result.records.map(record => `${record.line}\t${record.kind}\t${record.preview}`));
			break;
		case 'context':
			body.push(...result.records.map(record => contextLine(record)));
			break;
		default:
			body.push(...result.records.flatMap(record => [`── line ${record.line}`, ...fieldLines(record.event, '  ')]));
	}

	const hint = result.status === 'past_end' ? `last page: ${context.page(Math.max(0, result.last_line - result.limit))}` : '';
	const {prune} = result;
	const pruned = prune ? `pruned ${prune.pruned_count} of ${prune.total_records} records (${prune.superseded_reads} superseded reads, ${prune.duplicate_reads} repeated, ${prune.empty_searches} empty searches, ${prune.repeated_outputs} outputs printed once, ${prune.pre_edit_files} files before an edit; about ${prune.saved_chars_estimate} characters left out)` : '';
	return [heading(result), ...body, pruned, hint, ...pageFooter(result, context)].filter(Boolean).join('\n');
}
