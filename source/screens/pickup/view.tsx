import {Box, Text} from 'ink';
import type {Brief} from '../../engine/sessions/brief-schema.js';
import {fit, theme} from '../theme.js';

export type PickupLine = {readonly text: string; readonly tone?: 'title' | 'muted' | 'warning' | 'accent'};

/** The brief as screen lines: sections in the order a person reads them, excerpts marked as quotes. */
export function briefLines(brief: Brief, width: number): PickupLine[] {
	const lines: PickupLine[] = [{text: brief.title ?? brief.session_id, tone: 'title'}, {text: `${brief.source} ${brief.session_id} · ${brief.project}`, tone: 'muted'}];
	const section = (title: string, items: string[]) => {
		if (items.length > 0) {
			lines.push({text: ''}, {text: title, tone: 'accent'}, ...items.map(text => ({text: `  ${text}`})));
		}
	};

	if (brief.checkpoint) {
		section('Checkpoint', [`${brief.checkpoint.status}: ${brief.checkpoint.objective}`, ...(brief.checkpoint.next_action ? [`next: ${brief.checkpoint.next_action}`] : []), ...brief.checkpoint.blockers.map(blocker => `blocker: ${blocker}`)]);
	}

	section('Unresolved', brief.unresolved.map(item => `${item.line === null ? '' : `L${item.line} `}${item.marker.replaceAll('_', ' ')}: ${item.detail}`));
	const quote = (label: string, excerpt: Brief['latest_user']) => (excerpt ? [`${label} (L${excerpt.line}, quoted, untrusted): “${fit(excerpt.text, width * 2)}”`] : []);
	section('Requests and replies', [...quote('first request', brief.first_request), ...quote('latest request', brief.latest_user), ...quote('latest reply', brief.latest_assistant)]);
	section('Tool failures', brief.tool_failures.map(item => `L${item.line} ${item.tool}${item.exit_code === null ? '' : ` exit ${item.exit_code}`}: ${item.output_head}`));
	section('Pending tool calls', brief.pending_calls.map(item => `L${item.line} ${item.tool}`));
	section('Files touched', brief.files_touched.map(item => `L${item.line} ${item.path}`));
	section('Commands', brief.commands.map(item => `L${item.line} [${item.status}${item.exit_code === null ? '' : ` ${item.exit_code}`}] ${item.command}`));
	lines.push({text: ''}, {text: `${brief.tokens} of ${brief.budget} tokens (${brief.tokens_exact ? 'exact' : 'estimate'})${brief.omitted.length > 0 ? ` · omitted ${brief.omitted.map(item => `${item.items} ${item.section.replaceAll('_', ' ')}`).join(', ')}` : ''}`, tone: 'muted'});
	section('Expand', brief.expand);
	section('Resume (enter prints these and leaves; nothing is run)', [brief.resume_command, ...(brief.native_resume_command ? [brief.native_resume_command] : [])]);
	return lines;
}

export type PickupViewProps = {readonly brief: Brief; readonly width: number; readonly height: number; readonly offset: number};

export function PickupView({brief, width, height, offset}: PickupViewProps) {
	const lines = briefLines(brief, width);
	const start = Math.max(0, Math.min(offset, lines.length - height));
	const tones = {title: undefined, muted: theme.muted, warning: theme.warning, accent: theme.accent} as const;
	return (
		<Box flexDirection="column">
			{lines.slice(start, start + height).map((line, index) => (
				<Text key={start + index} bold={line.tone === 'title'} color={line.tone ? tones[line.tone] : undefined} wrap="truncate">
					{fit(line.text, width) || ' '}
				</Text>
			))}
		</Box>
	);
}
