import {Box, Text} from 'ink';
import type {Evaluation} from '../../engine/evidence/evaluation-schema.js';
import {fieldLines} from '../../output/text.js';
import {VirtualList} from '../components/virtual-list.js';
import type {ListState} from '../hooks/use-list-state.js';
import {editable, fit, theme} from '../theme.js';
import {plural} from '../../lib/words.js';
import type {ContextResult, EvidenceCandidate, QueryPane, QueryState} from './state.js';
import {stateText} from '../../output/text.js';

/** One line of the evidence or contract view; `indent` survives `fit`, which trims. */
export type Line = {readonly text: string; readonly tone?: string; readonly indent?: number};

/** Lines under the result rows for the selected row's projects and gaps. */
const selectedRoom = 3;

/** Result rows that fit in a body `height` lines tall: under the search box and the state line, above the selected row's details and the evidence command. */
export const resultRows = (height: number) => Math.max(1, height - 3 - selectedRoom);

/** Evidence or contract lines that fit in a body `height` lines tall, under the search box and the view's title. */
export const detailRows = (height: number) => Math.max(1, height - 2);

const short = (sha256: string) => sha256.slice(0, 12);

/** `fieldLines` output, its leading spaces kept as an indent. */
const fields = (value: unknown, tone?: string): Line[] => fieldLines(value, '  ').map(text => ({text: text.trimStart(), indent: text.length - text.trimStart().length, tone}));

/** Everything `engi query --view evidence` prints about one result: its pin, its fields and its journal history. */
export function evidenceLines(candidate: EvidenceCandidate): Line[] {
	return [
		{text: `node_sha256 ${candidate.node_sha256}`, tone: theme.accent},
		{text: `score ${candidate.score} · ${candidate.why}`, tone: theme.muted},
		...fields(candidate.node),
		...candidate.history.flatMap(entry => [{text: `journal line ${entry.line} · ${entry.at} · ${entry.op} · ${entry.event}`, tone: theme.muted}, ...fields(entry.payload, theme.muted).map(line => ({...line, indent: (line.indent ?? 0) + 2}))]),
	];
}

/** The contract's answer: the resolution, the chosen alternative per fact, what was rejected and why, and the packet's exact token count. */
export function contractLines(answer: Evaluation): Line[] {
	const tokens = answer.packet_tokens === null ? `budget ${answer.budget_tokens} tokens` : `${answer.packet_tokens} of ${answer.budget_tokens} tokens`;
	const lines: Line[] = [{text: `${answer.resolution} · ${tokens} · ${answer.search.states} of ${answer.search.limit} search states`, tone: answer.resolution === 'covered' ? theme.ok : theme.warning}];
	for (const chosen of answer.chosen_alternatives) {
		const roots = answer.packet?.facts.find(entry => entry.fact === chosen.fact)?.roots ?? [];
		lines.push({text: `fact ${chosen.fact}: alternative ${chosen.alternative} — ${roots.join(', ')}`});
	}

	if (answer.missing_facts.length > 0) {
		lines.push({text: `missing facts: ${answer.missing_facts.join(', ')}`, tone: theme.warning});
	}

	for (const rejected of answer.rejected_alternatives) {
		lines.push({text: `rejected: fact ${rejected.fact} alternative ${rejected.alternative} — ${rejected.reason.replaceAll('_', ' ')}${rejected.source === null ? '' : ` (${rejected.source})`}`, tone: theme.warning});
	}

	if (answer.packet) {
		lines.push({text: `packet: ${plural(answer.packet.evidence.length, 'node')}, ${plural(answer.packet.dependency_paths.length, 'dependency edge')}`});
		lines.push(...answer.packet.evidence.map(entry => ({text: `${entry.id} · sha256 ${short(entry.node_sha256)} · ${String(entry.node['label'] ?? '')}`, indent: 2})));
	}

	lines.push(
		...answer.source_requests.map(request => ({text: `pin request: ${request.node}: ${request.action}`, tone: theme.warning})),
		{text: `as of ${answer.freshness.as_of} · journal ${short(answer.journal_sha256)} · contract ${short(answer.contract_sha256)}`, tone: theme.muted},
		{text: answer.claim_boundary, tone: theme.muted},
	);
	return lines;
}

/** The open evidence or contract view's title and lines; null over the results. */
export function openDetail(state: Pick<QueryState, 'evidence' | 'contract'>): {readonly title: string; readonly lines: readonly Line[]} | null {
	if (state.evidence) {
		return {title: `evidence of ${state.evidence.id}`, lines: evidenceLines(state.evidence)};
	}

	return state.contract ? {title: `evidence contract: ${JSON.stringify(state.contract.question)}`, lines: contractLines(state.contract)} : null;
}

export type QueryViewProps = {
	readonly text: string;
	readonly editing: boolean;
	readonly pane: QueryPane;
	readonly result: ContextResult | null;
	/** The cursor over the result rows. */
	readonly list: ListState;
	/** The evidence or contract view's title and lines, when one is open. */
	readonly detail: {readonly title: string; readonly lines: readonly Line[]; readonly list: ListState} | null;
	readonly width: number;
};

function SearchBox({text, editing, width}: Pick<QueryViewProps, 'text' | 'editing' | 'width'>) {
	return (
		<Text color={editing ? theme.selected : undefined} wrap="truncate">
			{editing ? `query: ${editable(text, width - 8)}▏` : fit(`query: ${text}${text ? '' : '  (press / to type, enter to search)'}`, width)}
		</Text>
	);
}

function LineText({line, width}: {readonly line: Line; readonly width: number}) {
	const indent = line.indent ?? 0;
	return (
		<Text color={line.tone} wrap="truncate">
			{' '.repeat(indent) + fit(line.text, width - indent)}
		</Text>
	);
}

/** The selected row's projects and gaps, at most `selectedRoom` lines. */
function selectedLines(row: ContextResult['rows'][number] | undefined): Line[] {
	if (!row) {
		return [];
	}

	const lines: Line[] = [];
	if (row.linked_projects.length > 0) {
		lines.push({text: `projects: ${row.linked_projects.map(project => project.id).join(', ')}`, tone: theme.muted, indent: 2});
	}

	lines.push(...row.authority_gaps.map(gap => ({text: `gap: ${gap.kind.replaceAll('_', ' ')} — ${gap.detail}`, tone: theme.warning, indent: 2})));
	return lines.slice(0, selectedRoom);
}

/**
 * A search box over its results (a list: `e` shows the selected one's evidence), or over an
 * open evidence or contract view, which esc closes.
 */
export function QueryView({text, editing, pane, result, list, detail, width}: QueryViewProps) {
	if (pane !== 'results' && detail) {
		return (
			<Box flexDirection="column">
				<SearchBox text={text} editing={editing} width={width} />
				<Text color={theme.accent} wrap="truncate">
					{fit(`${detail.title} · esc back`, width)}
				</Text>
				<VirtualList items={detail.lines.map((line, index) => ({line, index}))} list={detail.list} rowKey={item => String(item.index)} render={item => <LineText line={item.line} width={width - 2} />} />
			</Box>
		);
	}

	return (
		<Box flexDirection="column">
			<SearchBox text={text} editing={editing} width={width} />
			{result ? (
				<>
					<Text color={result.state === 'degraded' || result.state === 'unavailable' ? theme.warning : theme.muted} wrap="truncate">
						{fit(`${stateText(result.state, result.reasons)} · ${plural(result.total, 'match', 'matches')}${result.archived_hidden > 0 ? ` · ${result.archived_hidden} archived left out` : ''}`, width)}
					</Text>
					<VirtualList
						items={result.rows}
						list={list}
						rowKey={row => row.node_id}
						render={(row, selected) => (
							<Text color={selected ? theme.selected : undefined} wrap="truncate">
								{fit(`${row.node_id} · ${row.kind ?? '?'}${row.status ? ` [${row.status}]` : ''} · ${row.label ?? ''}`, width - 2)}
							</Text>
						)}
					/>
					{selectedLines(result.rows[list.cursor]).map((line, index) => (
						<LineText key={index} line={line} width={width} />
					))}
					{result.rows.length > 0 ? (
						<Text color={theme.accent} wrap="truncate">
							{fit(`e evidence · ${result.expand.map(part => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ')}`, width)}
						</Text>
					) : null}
				</>
			) : null}
		</Box>
	);
}
