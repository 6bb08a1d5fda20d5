import {mkdirSync, readFileSync, statSync} from 'node:fs';
import {isAbsolute, join, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {createAtomicFile} from '../../lib/atomic.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {sha256Hex} from '../../lib/hash.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {gitRoot} from '../../lib/project.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {maskSecretsReporting} from '../search/secrets.js';
import type {HookAgent, HookEvent} from './agents.js';
import {harvestCommand, parsePendingNote, pendingFileName, renderPendingNote, type PendingNote} from './pending-note.js';

export const hookRunOutputSchema = lazySchema(() => z.object({
	/** queued: a new note; updated: the session's note, refreshed (its transcript changed); duplicate: the same state was queued already, nothing written. */
	status: z.enum(['queued', 'updated', 'duplicate']),
	path: z.string(),
	digest: z.string(),
	agent: z.nullable(z.string()),
	event: z.string(),
	session_id: z.nullable(z.string()),
	transcript_path: z.nullable(z.string()),
	project: z.string(),
	/** The command that harvests what was queued. */
	harvest: z.string(),
	/** Patterns of the secret-shaped values masked before the note was written (never the values). */
	masked: z.array(z.string()),
}));

export type HookRunOutput = z.infer<typeof hookRunOutputSchema>;

export type HookRunInput = {
	readonly event: HookEvent;
	readonly agent?: HookAgent;
	/** The agent's payload as parsed from stdin (an empty stdin is an empty object). */
	readonly payload: unknown;
	/** Flags that stand in for what a payload lacks. */
	readonly sessionId?: string;
	readonly transcript?: string;
	readonly cwd?: string;
};

/** The agents' own key names, first match wins (Claude, Codex and Gemini: snake_case; Copilot: camelCase; Antigravity: conversationId, workspacePaths). */
const sessionKeys = ['session_id', 'sessionId', 'sessionID', 'conversationId', 'thread_id', 'thread-id'];
const transcriptKeys = ['transcript_path', 'transcriptPath'];
const cwdKeys = ['cwd', 'workspacePaths', 'workspace_roots', 'directory'];

function firstText(payload: Record<string, unknown>, keys: readonly string[]): string | undefined {
	for (const key of keys) {
		const value = payload[key];
		const text = Array.isArray(value) ? value[0] : value;
		if (typeof text === 'string' && text.trim() !== '') {
			return text;
		}
	}

	return undefined;
}

function transcriptBytes(path: string | null): number | null {
	try {
		return path === null ? null : statSync(path).size;
	} catch {
		return null;
	}
}

function existingNote(path: string): PendingNote | undefined {
	try {
		return parsePendingNote(readFileSync(path, 'utf8'));
	} catch (error) {
		if (systemErrorCode(error) === undefined) {
			throw error;
		}

		return undefined;
	}
}

/**
 * `engi hook run`: what an agent's hook hands over on stdin, queued for a candidate harvest as
 * one pending note per session (`00-inbox/harvest/pending-<digest>.md`, the digest of agent,
 * session and transcript). A repeat for a session whose transcript has not changed writes
 * nothing; one whose transcript grew refreshes the note. Only the fields named here are kept,
 * masked; the rest of the payload (an assistant's last message, say) is never written. Refused
 * outside a git worktree. Kept cheap: it runs at the end of every agent session, so the harvest
 * itself waits for `engi candidates harvest` (see `engi hook pending`).
 */
export function runHook(paths: KbPaths, input: HookRunInput, deps: Deps): HookRunOutput {
	if (typeof input.payload !== 'object' || input.payload === null || Array.isArray(input.payload)) {
		throw new EngiError('hook_payload_invalid', 'the hook payload on stdin is not a JSON object', {hint: 'an agent hands its hook a JSON object; nothing was queued'});
	}

	const payload = input.payload as Record<string, unknown>;
	const sessionId = input.sessionId ?? firstText(payload, sessionKeys) ?? null;
	const transcript = input.transcript ?? firstText(payload, transcriptKeys);
	const cwd = resolve(deps.cwd, input.cwd ?? firstText(payload, cwdKeys) ?? deps.cwd);
	const transcriptPath = transcript === undefined ? null : isAbsolute(transcript) ? transcript : resolve(cwd, transcript);
	requireKnowledgeBase(paths);
	const project = gitRoot(cwd);
	if (project === undefined) {
		throw new EngiError('hook_outside_git', `${cwd} is not in a git worktree, so the session was not queued`, {hint: 'engi queues sessions of git projects only; nothing was written'});
	}

	const agent = input.agent ?? null;
	const digest = sha256Hex(JSON.stringify([agent, sessionId, transcriptPath, sessionId === null && transcriptPath === null ? project : null]));
	const masked: string[] = [];
	const mask = <T extends string | null>(value: T): T => {
		if (value === null) {
			return value;
		}

		const result = maskSecretsReporting(value);
		masked.push(...result.patterns);
		return result.text as T;
	};

	const note: PendingNote = {
		agent,
		event: input.event,
		session_id: mask(sessionId),
		transcript_path: mask(transcriptPath),
		transcript_bytes: transcriptBytes(transcriptPath),
		cwd: mask(cwd),
		project: mask(project),
		queued_at: deps.now().toISOString(),
		digest,
	};
	const path = join(paths.harvest, pendingFileName(digest));
	const harvest = harvestCommand(note);
	const output = {path, digest, agent, event: input.event, session_id: note.session_id, transcript_path: note.transcript_path, project: note.project, harvest, masked};
	const before = existingNote(path);
	if (before && before.transcript_bytes === note.transcript_bytes) {
		return {status: 'duplicate', ...output};
	}

	try {
		mkdirSync(paths.harvest, {recursive: true, mode: 0o700});
		const file = createAtomicFile(path);
		file.write(Buffer.from(renderPendingNote(note, harvest)));
		file.commit();
	} catch (error) {
		throw writeError(path, error, 'nothing was queued');
	}

	return {status: before ? 'updated' : 'queued', ...output};
}
