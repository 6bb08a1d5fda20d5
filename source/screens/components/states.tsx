import {Box, Text} from 'ink';
import type {Loaded} from '../hooks/use-engine.js';
import {fit, theme} from '../theme.js';
import {visible} from '../../output/text.js';

export type LoadingProps = {readonly label: string};

export function Loading({label}: LoadingProps) {
	return (
		<Box paddingX={1}>
			<Text color={theme.muted}>⋯ loading {label}</Text>
		</Box>
	);
}

export type EmptyStateProps = {readonly title: string; readonly hint?: string};

export function EmptyState({title, hint}: EmptyStateProps) {
	return (
		<Box flexDirection="column" paddingX={1}>
			<Text>{visible(title)}</Text>
			{hint ? <Text color={theme.muted}>{visible(hint)}</Text> : null}
		</Box>
	);
}

export type ErrorStateProps = {readonly message: string; readonly hint?: string};

export function ErrorState({message, hint}: ErrorStateProps) {
	return (
		<Box flexDirection="column" paddingX={1}>
			<Text color={theme.error}>✗ {visible(message)}</Text>
			{hint ? <Text color={theme.muted}>{visible(hint)}</Text> : null}
		</Box>
	);
}

/** What a screen shows while its engine call runs or after it failed. */
export function NotReady({loaded, label}: {readonly loaded: Exclude<Loaded<unknown>, {status: 'ready'}>; readonly label: string}) {
	return loaded.status === 'loading' ? <Loading label={label} /> : <ErrorState message={loaded.error} hint={loaded.hint} />;
}

export type DegradedNoteProps = {readonly reasons: readonly string[]; readonly width: number};

/** Partial answers say so: a source with skipped lines, a cache that could not be written. */
export function DegradedNote({reasons, width}: DegradedNoteProps) {
	if (reasons.length === 0) {
		return null;
	}

	return (
		<Box paddingX={1}>
			<Text color={theme.warning} wrap="truncate">
				{fit(`! ${reasons.length === 1 ? reasons[0]! : `${reasons.length} warnings: ${reasons[0]!}`}`, width - 2)}
			</Text>
		</Box>
	);
}
