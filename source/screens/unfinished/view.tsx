import {Box, Text} from 'ink';
import type {Candidate} from '../../engine/continuity/unfinished.js';
import {VirtualList} from '../components/virtual-list.js';
import {ageOf, editable, fit, theme} from '../theme.js';
import type {UnfinishedState} from './state.js';

export type UnfinishedViewProps = {
	readonly rows: readonly Candidate[];
	readonly total: number;
	readonly state: UnfinishedState;
	readonly width: number;
	readonly now: Date;
};

function Row({candidate, width, now}: {candidate: Candidate; width: number; now: Date}) {
	const reason = candidate.reasons[0]?.code.replaceAll('_', ' ') ?? (candidate.active_now ? 'active now' : '');
	const left = `${ageOf(candidate.modified, now).padStart(4)} ${candidate.source.padEnd(12)}`;
	const room = Math.max(10, width - left.length - 7);
	return (
		<Text wrap="truncate">
			{left}
			<Text color={theme.confidence[candidate.confidence]}>{candidate.confidence.padEnd(7)}</Text>
			{fit(`${candidate.title ?? '(no request)'} — ${reason}`, room)}
		</Text>
	);
}

/** The unfinished list: a status line, then only the rows that fit. */
export function UnfinishedView({rows, total, state, width, now}: UnfinishedViewProps) {
	const base = [`${rows.length} of ${total}`, `sort ${state.sort}`, state.source ? `source ${state.source}` : 'all sources'].join(' · ');
	// While typing, the filter is shown as typed with the caret at its end; otherwise it is fitted.
	const status = state.filtering
		? `${base} · filter /${editable(state.filter, Math.max(1, width - base.length - 12))}▏`
		: fit(state.filter ? `${base} · filter /${state.filter}` : base, width);
	const selected = rows[state.list.cursor];
	return (
		<Box flexDirection="column">
			<Text color={theme.accent} wrap="truncate">
				{status}
			</Text>
			{rows.length === 0 ? (
				<Text color={theme.muted}>{total === 0 ? 'Nothing unfinished in this window.' : 'No candidate matches the filter.'}</Text>
			) : (
				<VirtualList items={rows} list={state.list} rowKey={row => `${row.source}:${row.id}`} render={row => <Row candidate={row} width={width - 2} now={now} />} />
			)}
			{state.confirm ? (
				<Text color={theme.warning} wrap="truncate">
					{fit(`Mark ${state.confirm.status}? y / n — checkpoint for ${state.confirm.id}`, width)}
				</Text>
			) : selected ? (
				<Text color={theme.muted} wrap="truncate">
					{fit(state.message ?? `${selected.project} · ${selected.id}${selected.reasons[0] ? ` · ${selected.reasons[0].detail}` : ''}`, width)}
				</Text>
			) : null}
		</Box>
	);
}
