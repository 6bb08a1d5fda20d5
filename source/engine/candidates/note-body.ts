import {inlineCode} from '../../lib/markdown.js';
import {plural} from '../../lib/words.js';
import type {CandidateNote, Claim} from './note.js';

/**
 * The readable part of a candidate note, made from its frontmatter every time engi writes the
 * note. Transcript text stays where it cannot pass for the note's own structure: the first
 * request as a block quote, paths and commands as code spans, claims on one line each.
 */
export function renderNoteBody(note: CandidateNote): string {
	const stem = `${note.source} session ${note.native_id}`;
	const when = [note.started, note.ended].filter((time): time is string => time !== null).map(time => time.replace('T', ' ').replace(/\.\d+Z$|Z$/, ' UTC'));
	const out = [
		`# Candidate: ${stem}`,
		'',
		`Harvested ${note.harvested_at} from ${inlineCode(note.source_path)}: ${plural(note.turns, 'turn')}${when.length > 0 ? `, ${[...new Set(when)].join(' → ')}` : ''}${note.project === null ? '' : `, project ${inlineCode(note.project)}`}.`,
		`Status ${note.status}, tier ${note.tier}${note.model === null ? '' : ` (distilled by ${inlineCode(note.model)})`}. A candidate is not knowledge until it is promoted.`,
		'',
	];
	if (note.first_request) {
		out.push(`## First request (turn ${note.first_request.turn})`, '', ...note.first_request.text.split('\n').map(line => `> ${line}`.trimEnd()), '');
	}

	if (note.files.length > 0) {
		out.push(`## Files touched (${note.files_total})`, '', ...note.files.map(file => `- ${inlineCode(file.path)} (turn ${file.turn})`), ...(note.files_total > note.files.length ? [`- … and ${note.files_total - note.files.length} more`] : []), '');
	}

	const counts = note.command_counts;
	const total = counts.ok + counts.failed + counts.no_result;
	if (total > 0) {
		out.push(`## Commands (${total}: ${counts.ok} ok, ${counts.failed} failed, ${counts.no_result} without a result)`, '');
		if (total > note.commands.length) {
			out.push(`The last ${note.commands.length}:`, '');
		}

		out.push(...note.commands.map(command => `- ${command.status}${command.exit_code === null ? '' : `, exit ${command.exit_code}`} · ${inlineCode(command.command)} (turn ${command.turn})`), '');
	}

	if (note.tier === 'distilled') {
		out.push(`## Distilled by ${inlineCode(note.model ?? 'unknown')}`, '', 'Each claim cites the turns it rests on; run `engi candidates evidence` with `--turns` to read them.', '');
		const section = (title: string, claims: readonly Claim[]) => (claims.length === 0 ? [] : [`### ${title}`, '', ...claims.map(claim => `- ${oneLine(claim.text)} (turns ${claim.turns.join(', ')})`), '']);
		out.push(...section('Verified', note.verified), ...section('Failed', note.failed), ...section('Blockers', note.blockers), ...section('Decided', note.decided));
		if (note.next !== null) {
			out.push('### Next (a proposal)', '', oneLine(note.next), '');
		}
	}

	return out.join('\n');
}

const oneLine = (text: string) => text.replaceAll(/\s+/g, ' ').trim();
