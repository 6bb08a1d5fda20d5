import {Box, Text} from 'ink';
import type {QueryOutput} from '../../engine/knowledge/query-schema.js';
import {editable, fit, theme} from '../theme.js';
import {plural} from '../../lib/words.js';
import {stateText} from '../../output/text.js';

type ContextResult = Extract<QueryOutput, {view: 'context'}>;

export type QueryViewProps = {readonly text: string; readonly editing: boolean; readonly result: ContextResult | null; readonly width: number; readonly height: number};

/** A search box and its results, with the command that expands them into evidence. */
export function QueryView({text, editing, result, width, height}: QueryViewProps) {
	const lines: Array<{text: string; tone?: string}> = [];
	if (result) {
		lines.push({text: `${stateText(result.state, result.reasons)} · ${plural(result.total, 'match', 'matches')}${result.archived_hidden > 0 ? ` · ${result.archived_hidden} archived left out` : ''}`, tone: result.state === 'degraded' || result.state === 'unavailable' ? theme.warning : theme.muted});
		for (const row of result.rows) {
			lines.push({text: `${row.node_id} · ${row.kind ?? '?'}${row.status ? ` [${row.status}]` : ''} · ${row.label ?? ''}`});
			if (row.linked_projects.length > 0) {
				lines.push({text: `    projects: ${row.linked_projects.map(project => project.id).join(', ')}`, tone: theme.muted});
			}

			for (const gap of row.authority_gaps) {
				lines.push({text: `    gap: ${gap.kind.replaceAll('_', ' ')} — ${gap.detail}`, tone: theme.warning});
			}
		}

		if (result.rows.length > 0) {
			lines.push({text: `evidence: ${result.expand.map(part => (/[\s"']/.test(part) ? JSON.stringify(part) : part)).join(' ')}`, tone: theme.accent});
		}
	}

	return (
		<Box flexDirection="column">
			<Text color={editing ? theme.selected : undefined} wrap="truncate">
				{editing ? `query: ${editable(text, width - 8)}▏` : fit(`query: ${text}${text ? '' : '  (press / to type, enter to search)'}`, width)}
			</Text>
			{lines.slice(0, Math.max(1, height - 1)).map((line, index) => (
				<Text key={index} color={line.tone} wrap="truncate">
					{fit(line.text, width)}
				</Text>
			))}
		</Box>
	);
}
