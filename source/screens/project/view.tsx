import {Box, Text} from 'ink';
import type {ProjectBrief} from '../../engine/knowledge/project.js';
import {fit, theme} from '../theme.js';
import {stateText} from '../../output/text.js';

export type ProjectViewProps = {readonly brief: ProjectBrief; readonly width: number; readonly height: number};

/** The project brief: open tasks with their projects, next actions and blockers, one page at a time. */
export function ProjectView({brief, width, height}: ProjectViewProps) {
	const lines: Array<{text: string; tone?: string}> = [];
	for (const [id, projects, status, label, , nextAction, blockers] of brief.rows) {
		lines.push({text: `[${status}] ${label} (${id}) · ${projects.length > 0 ? projects.join(', ') : 'no project'}`});
		if (nextAction) {
			lines.push({text: `    next: ${nextAction}`, tone: theme.muted});
		}

		if (blockers.length > 0) {
			lines.push({text: `    blocked: ${blockers.join('; ')}`, tone: theme.error});
		}
	}

	const page = `tasks ${brief.offset + 1}–${brief.offset + brief.rows.length} of ${brief.total} (terminal excluded: ${brief.excluded_terminal})${brief.next_offset === null ? '' : ' · n next page'}${brief.offset > 0 ? ' · p previous' : ''}`;
	return (
		<Box flexDirection="column">
			<Text color={theme.accent} wrap="truncate">
				{fit(page, width)}
			</Text>
			{brief.state === 'degraded' || brief.state === 'unavailable' ? (
				<Text color={theme.warning} wrap="truncate">
					{fit(`! ${stateText(brief.state, brief.reasons)}`, width)}
				</Text>
			) : null}
			{lines.length === 0 ? <Text color={theme.muted}>No open tasks recorded.</Text> : null}
			{lines.slice(0, Math.max(1, height - 2)).map((line, index) => (
				<Text key={index} color={line.tone} wrap="truncate">
					{fit(line.text, width)}
				</Text>
			))}
			<Text color={theme.muted} wrap="truncate">
				{fit(brief.scope, width)}
			</Text>
		</Box>
	);
}
