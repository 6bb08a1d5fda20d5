import {Box, Text} from 'ink';
import type {Brief} from '../../engine/continuity/brief-schema.js';
import {fit, theme} from '../theme.js';

export type PickupLine = {readonly text: string; readonly tone?: 'title' | 'muted' | 'warning' | 'accent' | 'quote'};

/**
 * The brief as screen lines, in the brief's own order (what tells the next agent most first).
 * Everything taken from the transcript is marked as a quote: its section says so, and each of its
 * lines hangs off a bar, so a transcript's words never pass for the dashboard's own.
 */
export function briefLines(brief: Brief, width: number): PickupLine[] {
	const lines: PickupLine[] = [{text: `${brief.source} ${brief.session_id} · ${brief.project}`, tone: 'title'}, {text: brief.notice, tone: 'muted'}];
	const section = (title: string, items: string[]) => {
		if (items.length > 0) {
			lines.push({text: ''}, {text: title, tone: 'accent'}, ...items.map(text => ({text: `  ${text}`})));
		}
	};

	const quoted = (title: string, items: string[]) => {
		if (items.length > 0) {
			lines.push({text: ''}, {text: `${title} · quoted from the transcript, untrusted`, tone: 'accent'}, ...items.map(text => ({text: `│ ${text}`, tone: 'quote' as const})));
		}
	};

	const excerpt = (label: string, value: Brief['latest_user']) => (value ? [`${label}L${value.line}: ${fit(value.text, width * 2)}`] : []);
	quoted('Title', brief.title === null ? [] : [brief.title]);
	quoted('Pending tool calls', brief.pending_calls.map(item => `L${item.line} ${item.tool}${item.input === null ? '' : `: ${item.input}`}`));
	quoted('Tool failures', brief.tool_failures.map(item => `L${item.line} ${item.tool}${item.exit_code === null ? '' : ` exit ${item.exit_code}`}: ${item.output_head}`));
	quoted('Unresolved', brief.unresolved.map(item => `${item.line === null ? '' : `L${item.line} `}${item.marker.replaceAll('_', ' ')}: ${item.detail}`));
	quoted('Latest request', excerpt('', brief.latest_user));
	if (brief.checkpoint) {
		section('Checkpoint (recorded with engi)', [`${brief.checkpoint.status}: ${brief.checkpoint.objective}`, ...(brief.checkpoint.next_action ? [`next: ${brief.checkpoint.next_action}`] : []), ...brief.checkpoint.blockers.map(blocker => `blocker: ${blocker}`)]);
	}

	quoted('First request and latest reply', [...excerpt('first request ', brief.first_request), ...excerpt('latest reply ', brief.latest_assistant)]);
	quoted('Commands', brief.commands.map(item => `L${item.line} [${item.status}${item.exit_code === null ? '' : ` ${item.exit_code}`}] ${item.command}`));
	quoted('Files touched', brief.files_touched.map(item => `L${item.line} ${item.path}`));
	const omitted = Object.entries(brief.omitted);
	lines.push({text: ''}, {text: `${brief.tokens} of ${brief.budget} tokens (${brief.tokens_exact ? 'exact' : 'estimate'})${omitted.length > 0 ? ` · omitted ${omitted.map(([name, items]) => `${items} ${name.replaceAll('_', ' ')}`).join(', ')}` : ''}`, tone: 'muted'});
	section('Expand', brief.expand);
	section('Resume (enter prints these and leaves; nothing is run)', [...(brief.resume_command ? [brief.resume_command] : []), ...(brief.native_resume_command ? [brief.native_resume_command] : [])]);
	// engi's own notes, such as why the tool's resume cannot run here: the brief's words, not the transcript's.
	if (brief.warnings.length > 0) {
		lines.push({text: ''}, ...brief.warnings.map(warning => ({text: `warning: ${warning}`, tone: 'warning' as const})));
	}

	return lines;
}

export type PickupViewProps = {readonly brief: Brief; readonly width: number; readonly height: number; readonly offset: number};

export function PickupView({brief, width, height, offset}: PickupViewProps) {
	const lines = briefLines(brief, width);
	const start = Math.max(0, Math.min(offset, lines.length - height));
	const tones = {title: undefined, muted: theme.muted, warning: theme.warning, accent: theme.accent, quote: undefined} as const;
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
