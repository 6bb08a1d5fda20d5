import type {Brief} from '../engine/sessions/brief-schema.js';

function fenced(label: string, text: string): string[] {
	const fence = text.includes('```') ? '~~~~' : '```';
	return [`${label} (untrusted transcript excerpt):`, `${fence}text`, text, fence];
}

/** A brief as readable text: sections, fenced excerpts, and the commands that expand it. */
export function renderBriefText(brief: Brief): string {
	const out = [`# ${brief.title ?? brief.session_id}`, `${brief.source} ${brief.session_id} — ${brief.project}`, brief.notice, ''];
	if (brief.checkpoint) {
		out.push(`Checkpoint: ${brief.checkpoint.status} — ${brief.checkpoint.objective}`);
		if (brief.checkpoint.next_action) {
			out.push(`  next: ${brief.checkpoint.next_action}`);
		}

		for (const blocker of brief.checkpoint.blockers) {
			out.push(`  blocker: ${blocker}`);
		}

		out.push('');
	}

	if (brief.first_request) {
		out.push(...fenced(`First request (line ${brief.first_request.line})`, brief.first_request.text), '');
	}

	if (brief.latest_user && brief.latest_user.line !== brief.first_request?.line) {
		out.push(...fenced(`Latest request (line ${brief.latest_user.line})`, brief.latest_user.text), '');
	}

	if (brief.latest_assistant) {
		out.push(...fenced(`Latest reply (line ${brief.latest_assistant.line})`, brief.latest_assistant.text), '');
	}

	const list = (title: string, items: string[]) => {
		if (items.length > 0) {
			out.push(title, ...items.map(item => `  ${item}`), '');
		}
	};

	list('Unresolved:', brief.unresolved.map(item => `${item.line === null ? '-' : `line ${item.line}`}\t${item.marker}\t${item.detail}`));
	list('Tool failures:', brief.tool_failures.map(item => `line ${item.line}\t${item.tool}${item.exit_code === null ? '' : ` exit ${item.exit_code}`}\t${item.output_head}${item.output_tail ? ` … ${item.output_tail}` : ''}`));
	list('Pending tool calls:', brief.pending_calls.map(item => `line ${item.line}\t${item.tool}`));
	list('Files touched:', brief.files_touched.map(item => `line ${item.line}\t${item.path}`));
	list('Commands:', brief.commands.map(item => `line ${item.line}\t${item.status}${item.exit_code === null ? '' : ` (${item.exit_code})`}\t${item.command}`));
	out.push(`Tokens: ${brief.tokens} of ${brief.budget}${brief.tokens_exact ? ' (exact)' : ' (estimate)'}${brief.omitted.length > 0 ? `; omitted ${brief.omitted.map(item => `${item.items} ${item.section}`).join(', ')}` : ''}`);
	out.push(`Resume: ${brief.resume_command}`);
	if (brief.native_resume_command) {
		out.push(`Native: ${brief.native_resume_command}`);
	}

	out.push('Expand:', ...brief.expand.map(command => `  ${command}`));
	return out.join('\n');
}

export function renderBrief(result: unknown): string {
	const value = result as {status?: string; view?: string; message?: string; candidates?: Array<{id: string; source: string; title: string | null}>};
	if (value.status === 'ambiguous') {
		return [value.message ?? 'ambiguous', ...(value.candidates ?? []).map(candidate => `  ${candidate.source}\t${candidate.id}\t${candidate.title ?? ''}`)].join('\n');
	}

	if (value.status === 'not_found') {
		return value.message ?? 'not found';
	}

	if (value.view === 'brief') {
		return renderBriefText(result as Brief);
	}

	return JSON.stringify(result, null, 2);
}
