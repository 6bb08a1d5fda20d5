import {Box, Text} from 'ink';
import type {StandupOutput} from '../../engine/continuity/standup.js';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import {VirtualList} from '../components/virtual-list.js';
import type {ListState} from '../hooks/use-list-state.js';
import {ageOf, fit, theme} from '../theme.js';
import {plural} from '../../lib/words.js';

export type StandupRow =
	| {readonly kind: 'heading'; readonly key: string; readonly text: string}
	| {readonly kind: 'candidate'; readonly key: string; readonly candidate: Candidate}
	| {readonly kind: 'note'; readonly key: string; readonly text: string; readonly tone: 'blocked' | 'active' | 'muted'};

/** The stand-up as rows: each project's line, its unfinished sessions, its open checkpoints, then tasks. */
export function standupRows(standup: StandupOutput): StandupRow[] {
	const rows: StandupRow[] = [];
	for (const project of standup.projects) {
		rows.push({kind: 'heading', key: `p:${project.project}`, text: `${project.project} — ${project.summary}`});
		for (const candidate of project.candidates) {
			rows.push({kind: 'candidate', key: `c:${candidate.source}:${candidate.id}`, candidate});
		}

		for (const checkpoint of project.checkpoints) {
			const detail = checkpoint.status === 'blocked' && checkpoint.blockers.length > 0 ? `blocked by ${checkpoint.blockers.join('; ')}` : `next: ${checkpoint.next_action ?? checkpoint.objective}`;
			rows.push({kind: 'note', key: `k:${checkpoint.session}`, text: `checkpoint ${checkpoint.status} · ${checkpoint.objective} · ${detail}`, tone: checkpoint.status === 'blocked' ? 'blocked' : 'active'});
		}
	}

	if (standup.tasks) {
		rows.push({kind: 'heading', key: 'tasks', text: `Open tasks in ${standup.tasks.root} (${standup.tasks.total})`});
		for (const task of standup.tasks.rows) {
			rows.push({kind: 'note', key: `t:${task.id}`, text: `[${task.status}] ${task.label}${task.next_action ? ` · next: ${task.next_action}` : ''}${task.blockers.length > 0 ? ` · blocked: ${task.blockers.join('; ')}` : ''}`, tone: 'muted'});
		}
	}

	return rows;
}

export function standupCounts(standup: StandupOutput): string {
	const {totals} = standup;
	// Short enough for 80 columns (the rows show projects and confidence); the frame drops whole
	// trailing parts that do not fit a narrower terminal.
	return [`since ${standup.since.slice(0, 10)}`, `${totals.candidates} unfinished`, `checkpoints: ${totals.checkpoints_active} active, ${totals.checkpoints_blocked} blocked`, ...(totals.tasks === null ? [] : [plural(totals.tasks, 'task')])].join(' · ');
}

export type StandupViewProps = {readonly rows: readonly StandupRow[]; readonly list: ListState; readonly width: number; readonly now: Date};

export function StandupView({rows, list, width, now}: StandupViewProps) {
	if (rows.length === 0) {
		return (
			<Box paddingX={1}>
				<Text>Nothing unfinished since the last working day. </Text>
			</Box>
		);
	}

	return (
		<VirtualList
			items={rows}
			list={list}
			rowKey={row => row.key}
			render={row => {
				if (row.kind === 'heading') {
					return (
						<Text bold color={theme.accent} wrap="truncate">
							{fit(row.text, width - 2)}
						</Text>
					);
				}

				if (row.kind === 'note') {
					return (
						<Text color={row.tone === 'blocked' ? theme.error : row.tone === 'active' ? theme.ok : theme.muted} wrap="truncate">
							{fit(`  ${row.text}`, width - 2)}
						</Text>
					);
				}

				const {candidate} = row;
				const reason = candidate.reasons[0]?.code.replaceAll('_', ' ') ?? (candidate.active_now ? 'active now' : '');
				return (
					<Text wrap="truncate">
						{`  ${ageOf(candidate.modified, now).padStart(4)} ${candidate.source.padEnd(12)}`}
						<Text color={theme.confidence[candidate.confidence]}>{candidate.confidence.padEnd(7)}</Text>
						{fit(`${candidate.title ?? '(no request)'} — ${reason}`, Math.max(10, width - 30))}
					</Text>
				);
			}}
		/>
	);
}
