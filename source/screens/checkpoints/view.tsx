import {Box, Text} from 'ink';
import type {Checkpoint} from '../../engine/continuity/checkpoint-schema.js';
import {projectName} from '../../lib/project.js';
import {VirtualList} from '../components/virtual-list.js';
import type {ListState} from '../hooks/use-list-state.js';
import {plural} from '../../lib/words.js';
import {visible} from '../../output/text.js';
import {ageOf, editable, fit, fitParts, theme} from '../theme.js';
import {formFields, type FormState} from './form-state.js';

export type CheckpointsViewProps = {
	readonly checkpoints: readonly Checkpoint[];
	/** The one project shown, or null when every project's checkpoints are. */
	readonly project: string | null;
	readonly projects: number;
	/** The rows' cursor and scroll, and how many fit (the screen less its heading and message lines). */
	readonly list: ListState;
	readonly width: number;
	readonly now: Date;
	readonly message: string | null;
};

export function CheckpointsView({checkpoints, project, projects, list, width, now, message}: CheckpointsViewProps) {
	return (
		<Box flexDirection="column">
			<Text color={theme.accent} wrap="truncate">
				{fitParts(project === null ? `${plural(checkpoints.length, 'checkpoint')} in ${plural(projects, 'project')}` : `${plural(checkpoints.length, 'checkpoint')} in ${project} · only this project; --all-projects shows all`, width)}
			</Text>
			{checkpoints.length === 0 ? (
				<Text color={theme.muted}>No checkpoints yet: record one from the Unfinished screen (c).</Text>
			) : (
				<VirtualList
					items={checkpoints}
					list={list}
					rowKey={checkpoint => checkpoint.session}
					render={checkpoint => (
						<Text wrap="truncate">
							{`${ageOf(checkpoint.updated_at, now).padStart(4)} `}
							<Text color={theme.status[checkpoint.status]}>{checkpoint.status.padEnd(11)}</Text>
							{fit(`${project === null ? `${projectName(checkpoint.project)}: ` : ''}${checkpoint.objective}${checkpoint.next_action ? ` → ${checkpoint.next_action}` : ''}${checkpoint.blockers.length > 0 ? ` (blocked: ${checkpoint.blockers.join('; ')})` : ''}`, Math.max(10, width - 20))}
						</Text>
					)}
				/>
			)}
			{message ? (
				<Text color={theme.muted} wrap="truncate">
					{fit(message, width)}
				</Text>
			) : null}
		</Box>
	);
}

const labels: Record<(typeof formFields)[number], string> = {objective: 'Objective', status: 'Status', next_action: 'Next action', blockers: 'Blockers', verification: 'Verification'};

export function CheckpointFormView({form, width}: {form: FormState; width: number}) {
	return (
		<Box flexDirection="column" borderStyle="round" borderColor={theme.accent} paddingX={1} width={Math.min(width, 80)}>
			<Text bold wrap="truncate">
				{fit(`Checkpoint for ${form.session}`, Math.min(width, 80) - 4)}
			</Text>
			{formFields.map((field, index) => {
				const focused = index === form.focus;
				const value = field === 'status' ? `‹ ${form.status} ›` : form.values[field];
				return (
					<Text key={field} color={focused ? theme.selected : undefined} wrap="truncate">
						{`${focused ? theme.pointer : ' '} ${labels[field].padEnd(13)}${focused && field !== 'status' ? `${editable(value, Math.min(width, 80) - 23)}▏` : fit(value, Math.min(width, 80) - 22)}`}
					</Text>
				);
			})}
			{/* Wrapped, never cut: the keys of a form matter most when they are not visible elsewhere. */}
			<Text color={form.error ? theme.error : theme.muted}>{form.saving ? 'saving…' : visible(form.error ?? 'enter saves · tab next field · ←/→ status · esc cancels')}</Text>
			{form.saving || form.error ? null : <Text color={theme.muted}>Empty fields keep the previous checkpoint's value.</Text>}
		</Box>
	);
}
