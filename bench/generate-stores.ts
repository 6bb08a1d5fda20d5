import {closeSync, mkdirSync, openSync, writeFileSync, writeSync} from 'node:fs';
import {dirname, join} from 'node:path';
import {seededRandom, sentence} from './lib/random.js';
import {openDatabase} from '../source/lib/sqlite.js';

/**
 * Synthetic agent stores for the benchmarks: every supported source, laid out as the tools lay
 * them out under a HOME directory, with sessions of user requests, assistant replies and tool
 * calls whose outputs carry most of the bytes (as real transcripts do).
 */
type Message = {role: 'user' | 'assistant'; text: string; tool?: {name: string; id: string; input: Record<string, unknown>; output: string; failed: boolean}};

type Random = ReturnType<typeof seededRandom>;

function uuid(random: Random): string {
	const hex = () => Math.floor(random.next() * 16).toString(16);
	const part = (length: number) => Array.from({length}, hex).join('');
	return `${part(8)}-${part(4)}-4${part(3)}-8${part(3)}-${part(12)}`;
}

function conversation(random: Random, messages: number, outputBytes: number): Message[] {
	const list: Message[] = [];
	for (let index = 0; index < messages; index++) {
		if (index % 2 === 0) {
			list.push({role: 'user', text: `${sentence(random, 12)} in src/${sentence(random, 1)}.ts`});
		} else {
			const withTool = random.next() < 0.6;
			const output = sentence(random, Math.max(1, Math.round(outputBytes / 7)));
			list.push({
				role: 'assistant',
				text: sentence(random, 30),
				...(withTool ? {tool: {name: 'shell', id: `call_${index}_${Math.floor(random.next() * 1e9)}`, input: {command: `npm test -- ${sentence(random, 1)}`}, output, failed: random.next() < 0.1}} : {}),
			});
		}
	}

	return list;
}

const at = (base: number, index: number) => new Date(base + index * 15_000).toISOString();

function writeLines(path: string, lines: string[]): void {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, lines.join('\n') + '\n');
}

function claudeLines(id: string, cwd: string, messages: Message[], base: number): string[] {
	const lines: string[] = [];
	let parent: string | null = null;
	messages.forEach((message, index) => {
		const uuidOf = `${id.slice(0, 8)}-${index}`;
		const common = {parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.80', uuid: uuidOf, timestamp: at(base, index)};
		if (message.role === 'user') {
			lines.push(JSON.stringify({...common, type: 'user', message: {role: 'user', content: message.text}}));
		} else {
			const content: unknown[] = [{type: 'text', text: message.text}];
			if (message.tool) {
				content.push({type: 'tool_use', id: message.tool.id, name: 'Bash', input: message.tool.input});
			}

			lines.push(JSON.stringify({...common, type: 'assistant', message: {id: `msg_${uuidOf}`, role: 'assistant', content}}));
			if (message.tool) {
				lines.push(JSON.stringify({...common, uuid: `${uuidOf}-r`, parentUuid: uuidOf, type: 'user', message: {role: 'user', content: [{type: 'tool_result', tool_use_id: message.tool.id, content: message.tool.output, is_error: message.tool.failed}]}}));
			}
		}

		parent = uuidOf;
	});
	return lines;
}

function codexLines(id: string, cwd: string, messages: Message[], base: number): string[] {
	const lines = [JSON.stringify({timestamp: at(base, 0), type: 'session_meta', payload: {id, timestamp: at(base, 0), cwd, originator: 'codex_cli_rs', cli_version: '0.60.0', source: 'cli'}})];
	messages.forEach((message, index) => {
		const timestamp = at(base, index);
		if (message.role === 'user') {
			lines.push(JSON.stringify({timestamp, type: 'response_item', payload: {type: 'message', role: 'user', content: [{type: 'input_text', text: message.text}]}}));
			lines.push(JSON.stringify({timestamp, type: 'event_msg', payload: {type: 'user_message', message: message.text}}));
		} else {
			lines.push(JSON.stringify({timestamp, type: 'response_item', payload: {type: 'message', role: 'assistant', content: [{type: 'output_text', text: message.text}]}}));
			if (message.tool) {
				lines.push(JSON.stringify({timestamp, type: 'response_item', payload: {type: 'function_call', name: 'shell', arguments: JSON.stringify({command: ['bash', '-lc', message.tool.input['command']]}), call_id: message.tool.id}}));
				lines.push(JSON.stringify({timestamp, type: 'response_item', payload: {type: 'function_call_output', call_id: message.tool.id, output: JSON.stringify({output: message.tool.output, metadata: {exit_code: message.tool.failed ? 1 : 0, duration_seconds: 1.2}})}}));
			}
		}
	});
	return lines;
}

function copilotLines(id: string, cwd: string, messages: Message[], base: number): string[] {
	let previous: string | null = null;
	let counter = 0;
	const event = (type: string, data: Record<string, unknown>, index: number) => {
		const eventId = `${id.slice(0, 8)}-e${counter++}`;
		const line = JSON.stringify({type, data, id: eventId, timestamp: at(base, index), parentId: previous});
		previous = eventId;
		return line;
	};

	const lines = [event('session.start', {sessionId: id, version: 1, producer: 'copilot-agent', copilotVersion: '1.0.20', startTime: at(base, 0), context: {cwd}}, 0)];
	messages.forEach((message, index) => {
		if (message.role === 'user') {
			lines.push(event('user.message', {content: message.text, attachments: []}, index));
			lines.push(event('assistant.turn_start', {turnId: String(index)}, index));
		} else {
			lines.push(event('assistant.message', {messageId: `m${index}`, content: message.text, toolRequests: message.tool ? [{toolCallId: message.tool.id, name: 'bash', arguments: message.tool.input, type: 'function'}] : []}, index));
			if (message.tool) {
				lines.push(event('tool.execution_complete', {toolCallId: message.tool.id, success: !message.tool.failed, result: {content: message.tool.output}}, index));
			}

			lines.push(event('assistant.turn_end', {turnId: String(index - 1)}, index));
		}
	});
	return lines;
}

function cursorLines(messages: Message[]): string[] {
	return messages.map(message =>
		JSON.stringify(
			message.role === 'user'
				? {role: 'user', message: {content: [{type: 'text', text: `<user_query>\n${message.text}\n</user_query>`}]}}
				: {role: 'assistant', message: {content: [{type: 'text', text: message.text}, ...(message.tool ? [{type: 'tool_use', name: 'Shell', input: message.tool.input}] : [])]}},
		),
	);
}

function antigravityLines(messages: Message[], base: number): string[] {
	const lines: string[] = [];
	let step = 0;
	messages.forEach((message, index) => {
		const created_at = at(base, index);
		if (message.role === 'user') {
			lines.push(JSON.stringify({step_index: step++, source: 'USER_EXPLICIT', type: 'USER_INPUT', status: 'DONE', created_at, content: `<USER_REQUEST>\n${message.text}\n</USER_REQUEST>`}));
		} else {
			lines.push(JSON.stringify({step_index: step++, source: 'MODEL', type: 'PLANNER_RESPONSE', status: 'DONE', created_at, content: message.text, ...(message.tool ? {tool_calls: [{name: 'run_command', args: {CommandLine: JSON.stringify(message.tool.input['command'])}}]} : {})}));
			if (message.tool) {
				lines.push(JSON.stringify({step_index: step++, source: 'SYSTEM', type: 'RUN_COMMAND', status: message.tool.failed ? 'ERROR' : 'DONE', created_at, content: message.tool.output}));
			}
		}
	});
	return lines;
}

function geminiLines(id: string, messages: Message[], base: number): string[] {
	const lines = [JSON.stringify({sessionId: id, projectHash: 'f'.repeat(64), startTime: at(base, 0), lastUpdated: at(base, messages.length), kind: 'main'})];
	messages.forEach((message, index) => {
		lines.push(
			JSON.stringify(
				message.role === 'user'
					? {id: `g${index}`, timestamp: at(base, index), type: 'user', content: message.text}
					: {
							id: `g${index}`,
							timestamp: at(base, index),
							type: 'gemini',
							content: message.text,
							...(message.tool ? {toolCalls: [{id: message.tool.id, name: 'run_shell_command', args: message.tool.input, status: 'success', timestamp: at(base, index), result: [{functionResponse: {id: message.tool.id, name: 'run_shell_command', response: {output: message.tool.output}}}]}]} : {}),
						},
			),
		);
	});
	return lines;
}

function qwenLines(id: string, cwd: string, messages: Message[], base: number): string[] {
	let parent: string | null = null;
	return messages.map((message, index) => {
		const uuidOf = `${id.slice(0, 8)}-q${index}`;
		const line = JSON.stringify({uuid: uuidOf, parentUuid: parent, sessionId: id, timestamp: at(base, index), type: message.role, cwd, version: '0.1.0', message: {role: message.role === 'user' ? 'user' : 'model', parts: [{text: message.text}]}});
		parent = uuidOf;
		return line;
	});
}

function grokLines(messages: Message[]): string[] {
	return messages.map(message =>
		JSON.stringify(
			message.role === 'user'
				? {type: 'user', content: [{type: 'text', text: message.text}]}
				: {type: 'assistant', content: message.text, ...(message.tool ? {tool_calls: [{id: message.tool.id, name: 'bash', arguments: JSON.stringify(message.tool.input)}]} : {})},
		),
	);
}

function vscodeDocument(id: string, messages: Message[], base: number): string {
	const requests = [];
	for (let index = 0; index < messages.length; index += 2) {
		const reply = messages[index + 1];
		requests.push({
			requestId: `request_${index}`,
			timestamp: base + index * 15_000,
			message: {text: messages[index]!.text, parts: []},
			response: reply ? [{kind: 'markdownContent', content: {value: reply.text}}] : [],
			...(reply ? {result: {timings: {totalElapsed: 1000}}} : {}),
		});
	}

	return JSON.stringify({version: 3, sessionId: id, creationDate: base, lastMessageDate: base + messages.length * 15_000, requesterUsername: 'dev', responderUsername: 'GitHub Copilot', initialLocation: 'panel', requests});
}

export type StoreTier = {sessions: number; messages: number; outputBytes: number};

/**
 * The generator's version, recorded beside each corpus it writes: a corpus made by another
 * version is made again. Raise it whenever a change alters what `generateStores` writes.
 */
export const storesVersion = 3;

/**
 * A word no other text uses, in the first request of one session in a hundred: `sessions --q`
 * on a selective word finds 1% of the sessions at every tier (the other words are in most lines).
 */
export const selectiveWord = 'zeppelin';
const markedSession = (index: number) => index % 100 === 7;

type OpencodeSession = {id: string; cwd: string; messages: Message[]; start: number};

/**
 * Writes every source's store under `home`; returns the number of sessions written. Streams:
 * each session is written (OpenCode's into its database) before the next is made, so memory
 * stays that of one session at any tier; `progress` hears how many are done every 500.
 */
export function generateStores(home: string, tier: StoreTier, seed = 11, progress?: (done: number) => void): number {
	const random = seededRandom(seed);
	const sources = ['claude', 'codex', 'copilot', 'cursor', 'antigravity', 'gemini', 'qwen', 'grok', 'vscode', 'opencode'] as const;
	const perSession = Math.max(2, Math.round(tier.messages / tier.sessions));
	// Every session starts in the 30 days before \`end\`, the newest last (version 2 started them
	// at \`end\` and went on ten minutes apart, so most of L's 15,000 were dated after the day the
	// bench runs and counted as active): the bench's \`--since 2026-10-01\` takes in every tier whole.
	const end = Date.parse('2026-11-01T00:00:00Z');
	const spacing = Math.min(600_000, Math.floor((30 * 86_400_000) / tier.sessions));
	const opencode = opencodeWriter(join(home, '.local', 'share', 'opencode', 'opencode.db'));
	try {
		for (let index = 0; index < tier.sessions; index++) {
			const source = sources[index % sources.length]!;
			const id = uuid(random);
			const cwd = `/src/project-${index % 40}`;
			const start = end - (tier.sessions - index) * spacing;
			const messages = conversation(random, perSession, tier.outputBytes);
			if (markedSession(index)) {
				messages[0] = {...messages[0]!, text: `${messages[0]!.text} ${selectiveWord}`};
			}

			switch (source) {
				case 'claude':
					writeLines(join(home, '.claude', 'projects', cwd.replaceAll('/', '-'), `${id}.jsonl`), claudeLines(id, cwd, messages, start));
					break;
				case 'codex':
					writeLines(join(home, '.codex', 'sessions', '2026', '11', String(1 + (index % 28)).padStart(2, '0'), `rollout-2026-11-01T00-00-00-${id}.jsonl`), codexLines(id, cwd, messages, start));
					break;
				case 'copilot':
					writeLines(join(home, '.copilot', 'session-state', id, 'events.jsonl'), copilotLines(id, cwd, messages, start));
					break;
				case 'cursor':
					writeLines(join(home, '.cursor', 'projects', `src-project-${index % 40}`, 'agent-transcripts', `${id}.jsonl`), cursorLines(messages));
					break;
				case 'antigravity':
					writeLines(join(home, '.gemini', 'antigravity-cli', 'brain', id, '.system_generated', 'logs', 'transcript.jsonl'), antigravityLines(messages, start));
					break;
				case 'gemini':
					writeLines(join(home, '.gemini', 'tmp', `project-${index % 40}`, 'chats', `session-2026-11-01T00-00-${id.slice(0, 8)}.jsonl`), geminiLines(id, messages, start));
					break;
				case 'qwen':
					writeLines(join(home, '.qwen', 'projects', cwd.replaceAll('/', '-'), 'chats', `${id}.jsonl`), qwenLines(id, cwd, messages, start));
					break;
				case 'grok': {
					const directory = join(home, '.grok', 'sessions', encodeURIComponent(cwd), id);
					writeLines(join(directory, 'chat_history.jsonl'), grokLines(messages));
					writeFileSync(join(directory, 'summary.json'), JSON.stringify({info: {id, cwd}, created_at: at(start, 0), updated_at: at(start, messages.length), num_messages: messages.length, chat_format_version: 1}));
					break;
				}

				case 'vscode': {
					const directory = join(home, '.config', 'Code', 'User', 'workspaceStorage', `ws${index % 40}`);
					mkdirSync(join(directory, 'chatSessions'), {recursive: true});
					writeFileSync(join(directory, 'workspace.json'), JSON.stringify({folder: `file://${cwd}`}));
					writeFileSync(join(directory, 'chatSessions', `${id}.json`), vscodeDocument(id, messages, start));
					break;
				}

				case 'opencode':
					opencode.write({id: `ses_${id.replaceAll('-', '').slice(0, 24)}`, cwd, messages, start});
					break;
			}

			if ((index + 1) % 500 === 0) {
				progress?.(index + 1);
			}
		}
	} finally {
		opencode.close();
	}

	return tier.sessions;
}

/** OpenCode's database, written one session (one transaction) at a time. */
function opencodeWriter(path: string): {write: (session: OpencodeSession) => void; close: () => void} {
	mkdirSync(dirname(path), {recursive: true});
	const db = openDatabase(path);
	db.exec(`
		CREATE TABLE IF NOT EXISTS project (id TEXT PRIMARY KEY, worktree TEXT, time_created INTEGER, time_updated INTEGER);
		CREATE TABLE IF NOT EXISTS session (id TEXT PRIMARY KEY, project_id TEXT, parent_id TEXT, slug TEXT, directory TEXT, title TEXT, version TEXT, time_created INTEGER, time_updated INTEGER);
		CREATE TABLE IF NOT EXISTS message (id TEXT PRIMARY KEY, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
		CREATE TABLE IF NOT EXISTS part (id TEXT PRIMARY KEY, message_id TEXT, session_id TEXT, time_created INTEGER, time_updated INTEGER, data TEXT);
		CREATE INDEX IF NOT EXISTS message_session_idx ON message (session_id, time_created, id);
		CREATE INDEX IF NOT EXISTS part_message_idx ON part (message_id, id);
		CREATE INDEX IF NOT EXISTS part_session_idx ON part (session_id);
	`);
	const insertSession = db.prepare('INSERT OR REPLACE INTO session VALUES (?, ?, NULL, ?, ?, ?, ?, ?, ?)');
	const insertMessage = db.prepare('INSERT OR REPLACE INTO message VALUES (?, ?, ?, ?, ?)');
	const insertPart = db.prepare('INSERT OR REPLACE INTO part VALUES (?, ?, ?, ?, ?, ?)');
	const write = db.transaction((session: OpencodeSession) => {
		const end = session.start + session.messages.length * 15_000;
		insertSession.run(session.id, 'proj_bench', session.id.slice(4, 12), session.cwd, session.messages[0]?.text.slice(0, 40) ?? '', '1.2.0', session.start, end);
		session.messages.forEach((message, index) => {
			const messageId = `msg_${session.id.slice(4)}_${String(index).padStart(5, '0')}`;
			const time = session.start + index * 15_000;
			const data = message.role === 'user' ? {role: 'user', time: {created: time}} : {role: 'assistant', time: {created: time, completed: time + 1000}, parentID: `msg_${session.id.slice(4)}_${String(index - 1).padStart(5, '0')}`, path: {cwd: session.cwd, root: session.cwd}, finish: 'stop'};
			insertMessage.run(messageId, session.id, time, time, JSON.stringify(data));
			insertPart.run(`prt_${messageId.slice(4)}_0`, messageId, session.id, time, time, JSON.stringify({type: 'text', text: message.text}));
			if (message.tool) {
				insertPart.run(
					`prt_${messageId.slice(4)}_1`,
					messageId,
					session.id,
					time,
					time,
					JSON.stringify({type: 'tool', callID: message.tool.id, tool: 'bash', state: {status: 'completed', input: message.tool.input, output: message.tool.output, metadata: {exit: message.tool.failed ? 1 : 0}, title: 'bash', time: {start: time, end: time + 500}}}),
				);
			}
		});
	});
	return {write: session => write(session), close: () => db.close()};
}

/** One Claude Code transcript of about `bytes` bytes, written in chunks (never held whole), its records timed from `start`. */
export function generateLargeTranscript(path: string, bytes: number, seed = 5, start = '2026-10-01T00:00:00Z'): {lines: number; id: string} {
	const random = seededRandom(seed);
	const id = 'ffffffff-1111-4222-8333-444444444444';
	mkdirSync(dirname(path), {recursive: true});
	const fd = openSync(path, 'w');
	let written = 0;
	let lines = 0;
	let index = 0;
	const base = Date.parse(start);
	try {
		while (written < bytes) {
			const chunk = claudeLines(id, '/src/huge', conversation(random, 200, 6000), base + index * 3_000_000).join('\n') + '\n';
			const buffer = Buffer.from(chunk.replaceAll(`${id.slice(0, 8)}-`, `${id.slice(0, 8)}-${index}-`));
			writeSync(fd, buffer);
			written += buffer.length;
			lines += chunk.split('\n').length - 1;
			index++;
		}
	} finally {
		closeSync(fd);
	}

	return {lines, id};
}

/**
 * `count` small Claude Code sessions across 60 projects, each ending on a request nothing has
 * answered yet, so every one is an unfinished candidate: the triage list's worst case.
 */
export function generateTriageStore(home: string, count: number, seed = 23): void {
	const random = seededRandom(seed);
	const base = Date.parse('2026-11-01T00:00:00Z');
	for (let index = 0; index < count; index++) {
		const id = uuid(random);
		const cwd = `/src/service-${index % 60}`;
		const messages = conversation(random, 3, 400);
		writeLines(join(home, '.claude', 'projects', cwd.replaceAll('/', '-'), `${id}.jsonl`), claudeLines(id, cwd, messages, base + index * 60_000));
	}
}

/** `messages` more messages of Claude Code session `id`, as the text to append to its transcript (ids unlike the first ones'). */
export function moreClaudeLines(id: string, cwd: string, messages: number, start: number, seed = 3): string {
	const lines = claudeLines(id, cwd, conversation(seededRandom(seed), messages, 20_000), start);
	return lines.join('\n').replaceAll(`${id.slice(0, 8)}-`, `${id.slice(0, 8)}-more-`) + '\n';
}
