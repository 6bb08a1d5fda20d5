import {appendFileSync, mkdirSync, utimesSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';

/**
 * A Claude Code transcript (formats.md §1) written step by step: requests, replies, and Bash
 * calls whose results succeed, fail or never come. Enough for a session whose turns a test
 * numbers and cites.
 */
export type Step =
	| {readonly user: string}
	| {readonly assistant: string}
	| {readonly bash: string; readonly id: string; readonly ok?: string; readonly fail?: string};

export type ClaudeTranscript = {readonly path: string; append(steps: readonly Step[], at?: Date): void};

const hourAgo = () => new Date(Date.now() - 60 * 60 * 1000);

export function writeClaudeTranscript(home: string, session: {id: string; cwd: string; at?: Date}, steps: readonly Step[]): ClaudeTranscript {
	const path = join(home, '.claude', 'projects', session.cwd.replaceAll(/[^A-Za-z\d]/g, '-'), `${session.id}.jsonl`);
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, '');
	let parent: string | null = null;
	let count = 0;
	const base = (session.at ?? hourAgo()).getTime();
	const lines = (list: readonly Step[]) =>
		list.flatMap(step => {
			const record = (extra: Record<string, unknown>) => {
				const uuid = `${session.id.slice(0, 8)}-${count}`;
				const line = {parentUuid: parent, isSidechain: false, userType: 'external', cwd: session.cwd, sessionId: session.id, version: '2.1.80', uuid, timestamp: new Date(base + count * 1000).toISOString(), ...extra};
				parent = uuid;
				count++;
				return JSON.stringify(line);
			};

			if ('user' in step) {
				return [record({type: 'user', message: {role: 'user', content: step.user}})];
			}

			if ('assistant' in step) {
				return [record({type: 'assistant', message: {id: `msg-${count}`, role: 'assistant', content: [{type: 'text', text: step.assistant}]}})];
			}

			const call = record({type: 'assistant', message: {id: `msg-${count}`, role: 'assistant', content: [{type: 'tool_use', id: step.id, name: 'Bash', input: {command: step.bash}}]}});
			if (step.ok === undefined && step.fail === undefined) {
				return [call];
			}

			const failed = step.fail !== undefined;
			const output = failed ? `Exit code 1\n${step.fail}` : step.ok!;
			return [call, record({type: 'user', toolUseResult: {stdout: failed ? '' : output, stderr: failed ? step.fail : '', interrupted: false}, message: {role: 'user', content: [{type: 'tool_result', tool_use_id: step.id, content: output, is_error: failed}]}})];
		});
	const write = (list: readonly Step[], at: Date) => {
		appendFileSync(path, lines(list).map(line => `${line}\n`).join(''));
		// Written a while ago, so the session does not look as if it were still running.
		utimesSync(path, at, at);
	};

	write(steps, session.at ?? hourAgo());
	return {path, append: (more, at = hourAgo()) => write(more, at)};
}
