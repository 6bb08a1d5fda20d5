import type {HumanContext} from '../cli/define.js';
import type {ReadOutput} from '../engine/conversation/read.js';
import type {Brief} from '../engine/continuity/brief-schema.js';
import {fenceFor} from '../lib/markdown.js';
import {renderReadPage} from './render-read.js';

/** Transcript-derived text, always inside a fence under a label that says what it is. */
export function quoted(label: string, lines: readonly string[]): string[] {
	if (lines.length === 0) {
		return [];
	}

	const text = lines.join('\n');
	const fence = fenceFor(text);
	return [`${label} (untrusted transcript excerpt):`, `${fence}text`, text, fence, ''];
}

/**
 * A brief as readable text, in the brief's own order (what tells the next agent most first).
 * Everything that comes from the transcript — title, requests, replies, markers, tool output,
 * commands, paths — is fenced; only engi's own words and records stand outside the fences.
 */
export function renderBriefText(brief: Brief): string {
	const out = [`Resume brief: ${brief.source} ${brief.session_id} (project ${brief.project})`, brief.notice, ''];
	const excerpt = (label: string, value: Brief['latest_user']) => (value ? quoted(`${label}, line ${value.line}${value.truncated ? ', shortened' : ''}`, [value.text]) : []);
	out.push(
		...quoted('Title', brief.title === null ? [] : [brief.title]),
		...quoted('Pending tool calls', brief.pending_calls.map(item => `line ${item.line}\t${item.tool}${item.input === null ? '' : `: ${item.input}`}`)),
		...quoted('Tool failures', brief.tool_failures.map(item => `line ${item.line}\t${item.tool}${item.exit_code === null ? '' : ` exit ${item.exit_code}`}\t${item.output_head}${item.output_tail ? ` … ${item.output_tail}` : ''}`)),
		...quoted('Unresolved', brief.unresolved.map(item => `${item.line === null ? '-' : `line ${item.line}`}\t${item.marker}\t${item.detail}`)),
		...excerpt('Latest request', brief.latest_user),
	);
	if (brief.checkpoint) {
		out.push(`Checkpoint (recorded with engi checkpoint): ${brief.checkpoint.status} — ${brief.checkpoint.objective}`);
		if (brief.checkpoint.next_action) {
			out.push(`  next: ${brief.checkpoint.next_action}`);
		}

		for (const blocker of brief.checkpoint.blockers) {
			out.push(`  blocker: ${blocker}`);
		}

		out.push('');
	}

	out.push(
		...excerpt('First request', brief.first_request),
		...excerpt('Latest reply', brief.latest_assistant),
		...quoted('Commands', brief.commands.map(item => `line ${item.line}\t${item.status}${item.exit_code === null ? '' : ` (${item.exit_code})`}\t${item.command}`)),
		...quoted('Files touched', brief.files_touched.map(item => `line ${item.line}\t${item.path}`)),
	);
	const omitted = Object.entries(brief.omitted);
	out.push(`Tokens: ${brief.tokens} of ${brief.budget}${brief.tokens_exact ? ' (exact)' : ' (estimate)'}${omitted.length > 0 ? `; omitted ${omitted.map(([section, items]) => `${items} ${section}`).join(', ')}` : ''}`);
	if (brief.resume_command) {
		out.push(`Resume: ${brief.resume_command}`);
	}

	if (brief.native_resume_command) {
		out.push(`Native: ${brief.native_resume_command}`);
	}

	// engi's own notes (why the tool's resume cannot run here, lines it could not read): its words, by file:line, never content.
	out.push(...brief.warnings.map(warning => `warning\t${warning}`), 'Expand:', ...brief.expand.map(command => `  ${command}`));
	return out.join('\n');
}

export function renderBrief(result: unknown, context: HumanContext): string {
	const value = result as {status?: string; view?: string; message?: string; candidates?: Array<{id: string; source: string; title: string | null}>};
	if (value.status === 'ambiguous') {
		return [value.message ?? 'ambiguous', ...(value.candidates ?? []).map(candidate => `  ${candidate.source}\t${candidate.id}\t${candidate.title ?? ''}`)].join('\n');
	}

	if (value.status === 'not_found') {
		return value.message ?? 'not found';
	}

	return value.view === 'brief' ? renderBriefText(result as Brief) : renderReadPage(result as ReadOutput, context);
}
