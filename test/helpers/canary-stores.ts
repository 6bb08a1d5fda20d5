import {mkdirSync, utimesSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';

/**
 * What a session says, source-neutral: the stores below write it in each tool's own format
 * (as `formats.md` describes them), so one script exercises every reader the same way.
 */
export type Turn =
	| {readonly kind: 'user'; readonly text: string}
	| {readonly kind: 'assistant'; readonly text: string}
	| {readonly kind: 'call'; readonly id: string; readonly command: string}
	| {readonly kind: 'failure'; readonly id: string; readonly output: string};

export type ScriptedSession = {readonly id: string; readonly cwd: string; readonly at: Date; readonly turns: readonly Turn[]};

const stamp = (session: ScriptedSession, index: number) => new Date(session.at.getTime() + index * 1000).toISOString();

function write(path: string, lines: unknown[], at: Date): string {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, lines.map(line => JSON.stringify(line)).join('\n') + '\n');
	// Written "an hour ago", so no session looks as if it were still being written.
	utimesSync(path, at, at);
	return path;
}

/** Claude Code: `~/.claude/projects/<slug>/<id>.jsonl`, a parentUuid chain of user and assistant records. */
export function writeClaude(home: string, session: ScriptedSession): string {
	let parent: string | null = null;
	const lines = session.turns.map((turn, index) => {
		const uuid = `${session.id.slice(0, 8)}-${index}`;
		const base = {parentUuid: parent, isSidechain: false, userType: 'external', cwd: session.cwd, sessionId: session.id, version: '2.1.80', uuid, timestamp: stamp(session, index)};
		parent = uuid;
		switch (turn.kind) {
			case 'user':
				return {...base, type: 'user', message: {role: 'user', content: turn.text}};
			case 'assistant':
				return {...base, type: 'assistant', message: {id: `msg-${uuid}`, role: 'assistant', content: [{type: 'text', text: turn.text}]}};
			case 'call':
				return {...base, type: 'assistant', message: {id: `msg-${uuid}`, role: 'assistant', content: [{type: 'tool_use', id: turn.id, name: 'Bash', input: {command: turn.command}}]}};
			case 'failure':
				return {...base, type: 'user', toolUseResult: {stdout: '', stderr: turn.output, interrupted: false}, message: {role: 'user', content: [{type: 'tool_result', tool_use_id: turn.id, content: `Exit code 1\n${turn.output}`, is_error: true}]}};
		}
	});
	return write(join(home, '.claude', 'projects', session.cwd.replaceAll(/[^A-Za-z\d]/g, '-'), `${session.id}.jsonl`), lines, session.at);
}

/** Codex: `~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`, response items after session_meta. */
export function writeCodex(home: string, session: ScriptedSession): string {
	const day = session.at.toISOString().slice(0, 10).split('-');
	const lines: unknown[] = [
		{timestamp: stamp(session, 0), type: 'session_meta', payload: {id: session.id, timestamp: stamp(session, 0), cwd: session.cwd, originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli', model_provider: 'openai'}},
		{timestamp: stamp(session, 0), type: 'turn_context', payload: {turn_id: 'turn-1', cwd: session.cwd, approval_policy: 'on-request', model: 'gpt-5.3-codex'}},
	];
	session.turns.forEach((turn, index) => {
		const timestamp = stamp(session, index + 1);
		if (turn.kind === 'user') {
			lines.push({timestamp, type: 'event_msg', payload: {type: 'user_message', message: turn.text}}, {timestamp, type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: turn.text}]}});
		} else if (turn.kind === 'assistant') {
			lines.push({timestamp, type: 'response_item', payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text: turn.text}], id: `msg_${index}`}});
		} else if (turn.kind === 'call') {
			lines.push({timestamp, type: 'response_item', payload: {type: 'function_call', name: 'shell', arguments: JSON.stringify({command: ['bash', '-lc', turn.command], workdir: session.cwd}), call_id: turn.id}});
		} else {
			lines.push({timestamp, type: 'response_item', payload: {type: 'function_call_output', call_id: turn.id, output: JSON.stringify({output: turn.output, metadata: {exit_code: 1, duration_seconds: 0.4}})}});
		}
	});
	return write(join(home, '.codex', 'sessions', day[0]!, day[1]!, day[2]!, `rollout-${session.at.toISOString().slice(0, 19).replaceAll(':', '-')}-${session.id}.jsonl`), lines, session.at);
}

/**
 * Gemini CLI: `~/.gemini/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, a metadata line and then
 * messages; a tool call is settled in place (`status`), an `executing` one is still pending.
 */
export function writeGemini(home: string, session: ScriptedSession): string {
	const slug = 'shop';
	const project = join(home, '.gemini', 'tmp', slug);
	mkdirSync(project, {recursive: true});
	writeFileSync(join(project, '.project_root'), session.cwd);
	const lines: unknown[] = [{sessionId: session.id, projectHash: 'a'.repeat(64), startTime: stamp(session, 0), lastUpdated: stamp(session, session.turns.length), kind: 'main'}];
	const failures = new Map(session.turns.flatMap(turn => (turn.kind === 'failure' ? [[turn.id, turn.output] as const] : [])));
	session.turns.forEach((turn, index) => {
		const timestamp = stamp(session, index);
		if (turn.kind === 'user') {
			lines.push({id: `u${index}`, timestamp, type: 'user', content: [{text: turn.text}]});
		} else if (turn.kind === 'assistant') {
			lines.push({id: `g${index}`, timestamp, type: 'gemini', content: turn.text, model: 'gemini-3-pro-preview'});
		} else if (turn.kind === 'call') {
			const output = failures.get(turn.id);
			const settled = output === undefined ? {status: 'executing'} : {status: 'error', result: [{functionResponse: {id: turn.id, name: 'run_shell_command', response: {output: `Command: ${turn.command}\nOutput: ${output}\nExit Code: 1`}}}]};
			lines.push({id: `g${index}`, timestamp, type: 'gemini', content: '', model: 'gemini-3-pro-preview', toolCalls: [{id: turn.id, name: 'run_shell_command', args: {command: turn.command}, timestamp, ...settled}]});
		}
	});
	return write(join(project, 'chats', `session-${session.at.toISOString().slice(0, 16).replaceAll(':', '-')}-${session.id.slice(-8)}.jsonl`), lines, session.at);
}

/** Copilot CLI: `~/.copilot/session-state/<id>/events.jsonl` (typed events) with a workspace.yaml sidecar. */
export function writeCopilot(home: string, session: ScriptedSession): string {
	const directory = join(home, '.copilot', 'session-state', session.id);
	mkdirSync(directory, {recursive: true});
	writeFileSync(join(directory, 'workspace.yaml'), `id: ${session.id}\ncwd: ${session.cwd}\nname: 'Deploy the shop'\n`);
	let parentId: string | null = null;
	const lines: unknown[] = [];
	const push = (type: string, data: Record<string, unknown>, index: number) => {
		const id = `${session.id.slice(0, 8)}-0000-4000-8000-${String(lines.length).padStart(12, '0')}`;
		lines.push({type, data, id, timestamp: stamp(session, index), parentId});
		parentId = id;
	};

	push('session.start', {sessionId: session.id, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.14', startTime: stamp(session, 0), context: {cwd: session.cwd}}, 0);
	session.turns.forEach((turn, index) => {
		if (turn.kind === 'user') {
			push('user.message', {content: turn.text, transformedContent: turn.text, attachments: [], interactionId: `int-${index}`}, index);
		} else if (turn.kind === 'assistant') {
			push('assistant.message', {messageId: `msg-${index}`, content: turn.text, toolRequests: []}, index);
		} else if (turn.kind === 'call') {
			push('assistant.message', {messageId: `msg-${index}`, content: '', toolRequests: [{toolCallId: turn.id, name: 'bash', arguments: {command: turn.command}, type: 'function'}]}, index);
			push('tool.execution_start', {toolCallId: turn.id, toolName: 'bash', arguments: {command: turn.command}}, index);
		} else {
			push('tool.execution_complete', {toolCallId: turn.id, success: false, result: {content: `${turn.output}\n<exited with exit code 1>`}, error: {message: 'Command failed', code: 'failure'}}, index);
		}
	});
	return write(join(directory, 'events.jsonl'), lines, session.at);
}

export const writers = {claude: writeClaude, codex: writeCodex, gemini: writeGemini, copilot: writeCopilot} as const;
