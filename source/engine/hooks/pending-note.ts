import {shellWord} from '../../lib/words.js';

/**
 * A pending note: what a hook queued, one Markdown file per session at
 * `00-inbox/harvest/pending-<digest>.md`. It is a queue entry, not knowledge: ingest and
 * `harvest --check` pass over these names (see isPendingNoteName), and only a candidate harvest
 * of the session it names consumes it. Small and dependency-free, because `engi hook run` (which
 * runs at the end of every agent session) and the inbox walk both load it.
 */
export type PendingNote = {
	readonly agent: string | null;
	readonly event: string;
	readonly session_id: string | null;
	readonly transcript_path: string | null;
	/** The transcript's size when the hook ran (null: no transcript named, or unreadable). */
	readonly transcript_bytes: number | null;
	readonly cwd: string;
	/** The git worktree the session ran in. */
	readonly project: string;
	readonly queued_at: string;
	readonly digest: string;
};

const pendingName = /^pending-[\da-f]{16}\.md$/;

/** Whether a file name in the top of the harvest inbox is a hook's queue entry. */
export function isPendingNoteName(name: string): boolean {
	return pendingName.test(name);
}

export function pendingFileName(digest: string): string {
	return `pending-${digest.slice(0, 16)}.md`;
}

const keys = ['agent', 'event', 'session_id', 'transcript_path', 'transcript_bytes', 'cwd', 'project', 'queued_at', 'digest'] as const;

/** Frontmatter values are JSON scalars, which YAML reads as they are: no YAML writer needed, and none to load back. */
export function renderPendingNote(note: PendingNote, harvest: string): string {
	return [
		'---',
		...keys.map(key => `${key}: ${JSON.stringify(note[key])}`),
		'---',
		`A ${note.agent ?? 'agent'} hook (${note.event}) queued this session for a candidate harvest. It is not knowledge and is never ingested.`,
		'',
		`Harvest it with: \`${harvest}\``,
		'',
	].join('\n');
}

/** The note's fields, or undefined when its frontmatter is not what renderPendingNote writes. */
export function parsePendingNote(text: string): PendingNote | undefined {
	const lines = text.split('\n');
	if (lines[0] !== '---') {
		return undefined;
	}

	const fields: Record<string, unknown> = {};
	for (const line of lines.slice(1)) {
		if (line === '---') {
			break;
		}

		const colon = line.indexOf(': ');
		try {
			fields[line.slice(0, colon)] = JSON.parse(line.slice(colon + 2));
		} catch {
			return undefined;
		}
	}

	const text_ = (key: string) => typeof fields[key] === 'string';
	const nullableText = (key: string) => fields[key] === null || text_(key);
	const valid =
		nullableText('agent') && text_('event') && nullableText('session_id') && nullableText('transcript_path') && (fields['transcript_bytes'] === null || typeof fields['transcript_bytes'] === 'number') && text_('cwd') && text_('project') && text_('queued_at') && text_('digest');
	return valid ? (fields as PendingNote) : undefined;
}

/** The exact command that harvests what a note queued: its session, or (no id given) the project's recent sessions of that agent. */
export function harvestCommand(note: Pick<PendingNote, 'agent' | 'session_id' | 'project'>): string {
	const source = note.agent === null ? '' : ` --source ${note.agent}`;
	return note.session_id === null ? `engi candidates harvest${source} --project ${shellWord(note.project)}` : `engi candidates harvest ${shellWord(note.session_id)}${source}`;
}
