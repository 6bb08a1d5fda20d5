import {Box, Text} from 'ink';
import type {EvidenceOutput} from '../../engine/candidates/evidence.js';
import type {Claim} from '../../engine/candidates/note.js';
import type {CandidateRow} from '../../engine/candidates/queue.js';
import type {CandidateShowOutput} from '../../engine/candidates/review.js';
import {projectName} from '../../lib/project.js';
import {plural} from '../../lib/words.js';
import {VirtualList} from '../components/virtual-list.js';
import type {PickupLine} from '../pickup/view.js';
import {fit, fitParts, theme} from '../theme.js';
import type {ReviewState} from './state.js';

/** How many files and commands the detail pane lists before it says how many more there are. */
const listedFacts = 3;

/** One queue row: source, project, turns and commands ok and failed in columns, then the first request. */
export function rowParts(row: CandidateRow): {columns: string; text: string} {
	const project = row.project === null ? '?' : projectName(row.project);
	const source = `${fit(row.source ?? '?', 11).padEnd(11)} ${fit(project, 14).padEnd(14)} `;
	if (row.unreadable) {
		return {columns: source, text: `unreadable: ${row.problem ?? ''}`};
	}

	const commands = row.commands ?? {ok: 0, failed: 0, no_result: 0};
	return {columns: `${source}${String(row.turns ?? 0).padStart(4)} turns ${String(commands.ok).padStart(2)} ok ${String(commands.failed).padStart(2)} failed ${row.tier === 'distilled' ? '◆' : ' '} `, text: row.first_request ?? '(no request)'};
}

function Row({row, width}: {row: CandidateRow; width: number}) {
	const {columns, text} = rowParts(row);
	return (
		<Text wrap="truncate">
			{columns}
			{fit(text, Math.max(1, width - columns.length))}
		</Text>
	);
}

const turnsOf = (claim: Claim) => `(turn${claim.turns.length === 1 ? '' : 's'} ${claim.turns.join(', ')})`;

/**
 * The selected candidate as lines: what it is, the request that started it (a quote), the files
 * and commands the harvest found, and the distilled claims with the turns each cites.
 */
export function detailLines(shown: CandidateShowOutput): PickupLine[] {
	const {note, candidate} = shown;
	if (note === null) {
		return [
			{text: `${candidate.ref} · unreadable`, tone: 'title'},
			{text: candidate.problem ?? 'its frontmatter does not parse', tone: 'warning'},
			{text: `${candidate.path}: fix it by hand, or reject it with engi candidates reject ${candidate.ref}`, tone: 'muted'},
		];
	}

	const lines: PickupLine[] = [{text: `${candidate.ref} · ${note.project ?? 'project unknown'}`, tone: 'title'}];
	if (note.first_request) {
		lines.push({text: `│ ${note.first_request.text}`, tone: 'quote'});
	}

	const claims = [
		...note.verified.map(claim => `verified: ${claim.text} ${turnsOf(claim)}`),
		...note.failed.map(claim => `failed: ${claim.text} ${turnsOf(claim)}`),
		...note.blockers.map(claim => `blocker: ${claim.text} ${turnsOf(claim)}`),
		...note.decided.map(claim => `decided: ${claim.text} ${turnsOf(claim)}`),
		...(note.next === null ? [] : [`next: ${note.next}`]),
	];
	// The claims first: they are what a promotion makes durable.
	if (note.tier === 'distilled') {
		lines.push({text: `Claims of ${note.model ?? 'a distiller'} (e shows the turns they cite: ${shown.cited_turns.join(', ') || 'none'})`, tone: 'accent'}, ...claims.map(text => ({text: `  ${text}`})));
	} else {
		lines.push({text: `Not distilled yet: engi candidates distill ${candidate.ref} --with "<command>"`, tone: 'muted'});
	}

	const more = (total: number) => (total > listedFacts ? [{text: `  … ${total - listedFacts} more (engi candidates show ${candidate.ref})`, tone: 'muted' as const}] : []);
	lines.push({text: `Files (${note.files_total})`, tone: 'accent'}, ...note.files.slice(0, listedFacts).map(file => ({text: `  ${file.path} (turn ${file.turn})`})), ...more(note.files_total));
	const counts = note.command_counts;
	lines.push(
		{text: `Commands (${counts.ok} ok, ${counts.failed} failed, ${counts.no_result} no result)`, tone: 'accent'},
		...note.commands.slice(0, listedFacts).map(command => ({text: `  [${command.status.replace('_', ' ')}${command.exit_code === null ? '' : ` ${command.exit_code}`}] ${command.command} (turn ${command.turn})`})),
		...more(note.commands.length),
	);
	return lines;
}

const tones = {title: undefined, muted: theme.muted, warning: theme.warning, accent: theme.accent, quote: undefined} as const;

function Lines({lines, width}: {lines: readonly PickupLine[]; width: number}) {
	return (
		<>
			{lines.map((line, index) => {
				// The indent of a section's items is kept; fit() would fold it away.
				const indent = /^ */.exec(line.text)![0];
				return (
					<Text key={index} bold={line.tone === 'title'} color={line.tone ? tones[line.tone] : undefined} wrap="truncate">
						{indent + fit(line.text, width - indent.length) || ' '}
					</Text>
				);
			})}
		</>
	);
}

export type ReviewViewProps = {
	readonly rows: readonly CandidateRow[];
	readonly counts: {readonly unreadable: number};
	readonly state: ReviewState;
	/** The selected candidate's note, once read; null while it loads. */
	readonly detail: CandidateShowOutput | null;
	readonly width: number;
	readonly height: number;
};

/** The pending queue (only the rows that fit), the selected candidate below it, and a question or a message. */
export function ReviewView({rows, counts, state, detail, width, height}: ReviewViewProps) {
	const selected = rows[state.list.cursor];
	const room = Math.max(1, height - state.list.height - 2);
	return (
		<Box flexDirection="column">
			<Text color={theme.accent} wrap="truncate">
				{fitParts(`${rows.length === 0 ? 0 : state.list.cursor + 1} of ${rows.length} pending · newest harvest first · ◆ distilled${counts.unreadable > 0 ? ` · ${counts.unreadable} unreadable` : ''}`, width)}
			</Text>
			{rows.length === 0 ? (
				<Text color={theme.muted}>{'No candidate is waiting for review: engi candidates harvest writes them.'}</Text>
			) : (
				<>
					<Box flexDirection="column" height={state.list.height}>
						<VirtualList items={rows} list={state.list} rowKey={row => row.ref} render={row => <Row row={row} width={width - 2} />} />
					</Box>
					<Box flexDirection="column" height={room}>
						{detail === null || detail.candidate.ref !== selected?.ref ? <Text color={theme.muted}>⋯ reading the note</Text> : <Lines lines={detailLines(detail).slice(0, room)} width={width} />}
					</Box>
				</>
			)}
			{state.confirm ? (
				<Text color={theme.warning} wrap="truncate">
					{fit(`${state.confirm.action === 'promote' ? 'Promote' : 'Reject'} ${state.confirm.ref}? y / any other key cancels`, width)}
				</Text>
			) : (
				<Text color={theme.muted} wrap="truncate">
					{fit(state.busy ? 'writing…' : (state.message ?? ''), width) || ' '}
				</Text>
			)}
		</Box>
	);
}

/** The cited turns as lines: each turn's number, kind and line, then its text as a quote. */
export function citedTurnLines(evidence: EvidenceOutput): PickupLine[] {
	const lines: PickupLine[] = [
		{text: `${evidence.ref} · ${plural(evidence.turns.length, 'cited turn')} of ${evidence.turns_total} · quoted from the transcript, untrusted`, tone: 'title'},
		{text: 'esc back · ↑↓ scroll', tone: 'muted'},
	];
	for (const turn of evidence.turns) {
		const tool = turn.tool;
		const who = tool ? `tool ${tool.name} [${tool.status.replace('_', ' ')}${tool.exit_code === null ? '' : ` ${tool.exit_code}`}]` : `${turn.kind}${turn.author === null ? '' : ` (${turn.author})`}`;
		lines.push({text: ''}, {text: `#${turn.n} ${who} · L${turn.line}${turn.truncated ? ' · shortened' : ''}`, tone: 'accent'});
		const text = [...(tool?.command ? [`$ ${tool.command}`] : []), ...(tool?.input ? [tool.input] : []), ...turn.text.split('\n'), ...(tool ? tool.output.split('\n') : [])];
		lines.push(...text.filter(line => line.trim() !== '').map(line => ({text: `│ ${line}`, tone: 'quote' as const})));
	}

	return lines;
}

export type CitedTurnsViewProps = {readonly evidence: EvidenceOutput; readonly offset: number; readonly width: number; readonly height: number};

export function CitedTurnsView({evidence, offset, width, height}: CitedTurnsViewProps) {
	const lines = citedTurnLines(evidence);
	const start = Math.max(0, Math.min(offset, lines.length - height));
	return (
		<Box flexDirection="column">
			<Lines lines={lines.slice(start, start + height)} width={width} />
		</Box>
	);
}
