import {Box, Text} from 'ink';
import {blockerCodes, type BlockerCode} from '../../engine/retention/blockers.js';
import type {AssessmentEntry, PlanOutput} from '../../engine/retention/plan.js';
import type {SweepItem, SweepOutput} from '../../engine/retention/sweep.js';
import {byteSize, plural} from '../../lib/words.js';
import {VirtualList} from '../components/virtual-list.js';
import {ageOf, editable, fit, fitParts, theme} from '../theme.js';
import type {Execution, RetentionState} from './state.js';

export type BlockerCount = {readonly code: BlockerCode; readonly sessions: number};

/** The blocker codes that block any session, with how many, in the engine's order of codes. */
export function blockerCounts(plan: PlanOutput): BlockerCount[] {
	return blockerCodes.filter(code => plan.blocker_codes[code] > 0).map(code => ({code, sessions: plan.blocker_codes[code]}));
}

/** The rows a list view has: the frame's body less the status, heading, detail and execution lines. */
export const listHeight = (height: number) => Math.max(1, height - 4);

export type RetentionViewProps = {
	readonly plan: PlanOutput;
	/** The dry run of the sweep: its digest and item count are what executing needs. */
	readonly sweep: SweepOutput;
	readonly state: RetentionState;
	/** The sessions the filters leave, in the plan's order. */
	readonly rows: readonly AssessmentEntry[];
	readonly width: number;
	readonly now: Date;
};

const retirableBytes = (counts: {eligible_bytes: number; compactable_bytes: number}) => counts.eligible_bytes + counts.compactable_bytes;

function SummaryTable({plan, width}: {plan: PlanOutput; width: number}) {
	const row = (cells: Array<string | number>) => {
		const [source, ...rest] = cells.map(String);
		return source!.padEnd(12) + rest.map((cell, index) => cell.padStart([7, 10, 13, 9, 11, 11][index]!)).join('');
	};

	const sources = plan.by_source.filter(counts => counts.total > 0);
	return (
		<Box flexDirection="column">
			<Text color={theme.muted} wrap="truncate">
				{row(['source', 'total', 'eligible', 'compactable', 'blocked', 'bytes', 'retirable'])}
			</Text>
			{sources.map(counts => (
				<Text key={counts.source} wrap="truncate">
					{row([counts.source, counts.total, counts.eligible, counts.compactable, counts.blocked, byteSize(counts.bytes), byteSize(retirableBytes(counts))])}
				</Text>
			))}
			<Text bold wrap="truncate">
				{row(['all', plan.total, plan.eligible, plan.compactable, plan.blocked, byteSize(plan.bytes), byteSize(retirableBytes(plan))])}
			</Text>
			{sources.length === 0 ? <Text color={theme.muted}>No sessions in these stores.</Text> : null}
			{plan.interrupted > 0 ? (
				<Text color={theme.warning} wrap="truncate">
					{`${plural(plan.interrupted, 'purge attempt')} never finished: executing the plan finishes them`}
				</Text>
			) : null}
			{plan.warnings.map(warning => (
				<Text key={warning} color={theme.warning} wrap="truncate">
					{fit(`! ${warning}`, width)}
				</Text>
			))}
		</Box>
	);
}

function Histogram({counts, state, width}: {counts: readonly BlockerCount[]; state: RetentionState; width: number}) {
	const most = Math.max(1, ...counts.map(count => count.sessions));
	const room = Math.max(4, width - 2 - 29 - 6 - 1);
	return counts.length === 0 ? (
		<Text color={theme.muted}>Nothing blocks any session.</Text>
	) : (
		<VirtualList
			items={counts}
			list={state.list}
			rowKey={count => count.code}
			render={count => <Text wrap="truncate">{`${count.code.padEnd(29)}${String(count.sessions).padStart(6)} ${'█'.repeat(Math.max(1, Math.round((count.sessions / most) * room)))}`}</Text>}
		/>
	);
}

const statusColour: Record<string, string> = {eligible: theme.ok, compactable: theme.accent, blocked: theme.muted, removed: theme.ok, compacted: theme.ok, refused: theme.warning, failed: theme.error};

function SessionRow({session, width, now}: {session: AssessmentEntry; width: number; now: Date}) {
	const codes = [...new Set(session.blockers.map(blocker => blocker.code))].join(', ');
	const left = `${ageOf(session.modified, now).padStart(4)} `;
	// Padded outside fit, which folds runs of spaces: the columns stay aligned.
	const middle = `${session.source.padEnd(12)}${byteSize(session.bytes).padStart(9)}  `;
	return (
		<Text wrap="truncate">
			{left}
			<Text color={statusColour[session.status]}>{session.status.padEnd(12)}</Text>
			{middle}
			{fit(codes || session.title || session.session_id, Math.max(10, width - left.length - 12 - middle.length))}
		</Text>
	);
}

function ReceiptRow({item, width}: {item: SweepItem; width: number}) {
	return (
		<Text wrap="truncate">
			<Text color={statusColour[item.status]}>{item.status.padEnd(10)}</Text>
			{`${item.action.padEnd(8)}${item.source.padEnd(12)}${byteSize(item.freed_bytes).padStart(9)}  `}
			{fit(item.failure ? item.failure.code : item.session_id, Math.max(10, width - 41))}
		</Text>
	);
}

/** A bar of `width` cells for done of total. */
export function progressBar(done: number, total: number, width: number): string {
	const filled = total === 0 ? width : Math.round((done / total) * width);
	return '█'.repeat(filled) + '░'.repeat(Math.max(0, width - filled));
}

/** The bottom line: the plan and how to execute it, the typed count, the progress, or how it ended. */
function ExecutionLine({execution, sweep, width}: {execution: Execution; sweep: SweepOutput; width: number}) {
	const plan = `plan ${sweep.plan_sha256.slice(0, 16)}`;
	switch (execution.phase) {
		case 'confirm': {
			const ask = `Type ${sweep.planned}, the count of sessions to delete, then enter (esc cancels):`;
			return (
				<Box flexDirection="column">
					{execution.error ? (
						<Text color={theme.error} wrap="truncate">
							{fit(execution.error, width)}
						</Text>
					) : null}
					<Text color={theme.warning} wrap="truncate">
						{`${fit(ask, width - 12)} ${editable(execution.typed, 9)}▏`}
					</Text>
				</Box>
			);
		}

		case 'running': {
			const label = ` ${execution.done}/${execution.total}`;
			const last = execution.last ? ` · ${execution.last.status} ${execution.last.source} ${execution.last.session_id}` : ' · starting';
			const bar = Math.max(10, Math.min(30, width - label.length - 20));
			return (
				<Text color={theme.accent} wrap="truncate">
					{fit(`sweeping ${progressBar(execution.done, execution.total, bar)}${label}${last}`, width)}
				</Text>
			);
		}

		case 'done': {
			const {output} = execution;
			return (
				<Text color={output.failed > 0 ? theme.warning : theme.ok} wrap="truncate">
					{fitParts(`done · ${output.removed} removed (${output.compacted} compacted first) · ${output.failed} failed · freed ${byteSize(output.native_bytes_removed)} · compact copies ${byteSize(output.compact_bytes_written)}`, width)}
				</Text>
			);
		}

		case 'failed':
			return (
				<Text color={theme.error} wrap="truncate">
					{fit(`✗ ${execution.error}`, width)}
				</Text>
			);
		default:
			return (
				<Text color={theme.muted} wrap="truncate">
					{fitParts(sweep.planned === 0 ? `${plan} · nothing to retire` : `x executes · ${plan} · ${sweep.planned} to retire: ${sweep.eligible} attested, ${sweep.compactable} to compact`, width)}
				</Text>
			);
	}
}

function detailOf(state: RetentionState, rows: readonly AssessmentEntry[], counts: readonly BlockerCount[]): string {
	const {cursor} = state.list;
	if (state.view === 'sessions') {
		const session = rows[cursor];
		return session ? [session.session_id, session.blockers[0]?.detail ?? (session.status === 'eligible' ? 'attested: its receipt pins every file' : session.path)].join(' · ') : '';
	}

	if (state.view === 'blockers') {
		return counts[cursor] ? `enter lists the ${plural(counts[cursor].sessions, 'session')} ${counts[cursor].code} blocks` : '';
	}

	if (state.view === 'receipts' && state.execution.phase === 'done') {
		const item = state.execution.output.items?.[cursor];
		return item ? [item.session_id, item.failure?.detail ?? `receipt ${item.outcome_id ?? '-'}`, ...(item.compact_path ? [item.compact_path] : [])].join(' · ') : '';
	}

	return '';
}

/** The Retention screen: a status line, the chosen view, a detail line, and the execution line. */
export function RetentionView({plan, sweep, state, rows, width, now}: RetentionViewProps) {
	const counts = blockerCounts(plan);
	const window = plan.retention_days === 0 ? 'no window' : `window ${plural(plan.retention_days, 'day')} · cutoff ${plan.cutoff_utc.slice(0, 16).replace('T', ' ')}`;
	const heading: Record<RetentionState['view'], string> = {
		summary: `${window} · v views`,
		blockers: `blockers · ${plural(counts.length, 'code')} block ${plural(plan.blocked, 'session')}`,
		sessions: [
			`${rows.length} of ${plan.sessions?.length ?? 0} sessions`,
			state.blocker ? `blocker ${state.blocker}` : 'all blockers',
			...(state.filtering ? [] : state.filter ? [`filter /${state.filter}`] : []),
		].join(' · '),
		receipts: state.execution.phase === 'done' ? `receipts · ${plural(state.execution.output.items?.length ?? 0, 'item')} swept` : 'receipts',
	};
	const status = state.view === 'sessions' && state.filtering ? `${heading.sessions} · filter /${editable(state.filter, Math.max(1, width - heading.sessions.length - 12))}▏` : fitParts(heading[state.view], width);
	const detail = detailOf(state, rows, counts);
	return (
		<Box flexDirection="column">
			<Text color={theme.accent} wrap="truncate">
				{status}
			</Text>
			{state.view === 'summary' ? <SummaryTable plan={plan} width={width} /> : null}
			{state.view === 'blockers' ? <Histogram counts={counts} state={state} width={width} /> : null}
			{state.view === 'sessions' ? (
				rows.length === 0 ? (
					<Text color={theme.muted}>{(plan.sessions?.length ?? 0) === 0 ? 'No sessions in these stores.' : 'No session matches the filter.'}</Text>
				) : (
					<VirtualList items={rows} list={state.list} rowKey={row => `${row.source}:${row.session_id}`} render={row => <SessionRow session={row} width={width - 2} now={now} />} />
				)
			) : null}
			{state.view === 'receipts' && state.execution.phase === 'done' ? (
				<VirtualList items={state.execution.output.items ?? []} list={state.list} rowKey={item => `${item.action}:${item.source}:${item.session_id}`} render={item => <ReceiptRow item={item} width={width - 2} />} />
			) : null}
			{detail ? (
				<Text color={theme.muted} wrap="truncate">
					{fit(detail, width)}
				</Text>
			) : null}
			{/* How a sweep ended goes with its receipts; the other views show the plan now. */}
			<ExecutionLine execution={state.execution.phase === 'done' && state.view !== 'receipts' ? {phase: 'idle'} : state.execution} sweep={sweep} width={width} />
		</Box>
	);
}
