import {mkdirSync, writeFileSync} from 'node:fs';
import {dirname, join} from 'node:path';

/**
 * Tool-heavy sessions in Claude Code's and Codex's native formats (../shared/formats.md), for
 * pruning, encoding and the token benchmark: files read, edited, read again, searched, shell
 * commands run. Each step becomes the records the tool itself writes for it, including the
 * structured copies of outputs both keep beside the text the model saw.
 */
export type ToolStep =
	| {readonly user: string}
	| {readonly assistant: string}
	| {readonly read: string; readonly content: string}
	| {readonly edit: string; readonly old: string; readonly new: string}
	| {readonly write: string; readonly content: string}
	| {readonly search: string; readonly output: string}
	| {readonly shell: string; readonly output: string; readonly exit?: number};

const stamp = (start: number, index: number) => new Date(start + index * 7000).toISOString();

/** Claude Code numbers a read file's lines `     1→text`. */
const numbered = (content: string) => content.split('\n').map((line, index) => `${String(index + 1).padStart(6)}\u2192${line}`).join('\n');

export function claudeToolLines(id: string, cwd: string, steps: readonly ToolStep[], start = Date.parse('2026-11-24T09:00:00Z')): string[] {
	const lines: string[] = [];
	let parent: string | null = null;
	let counter = 0;
	const push = (record: Record<string, unknown>) => {
		const uuid = `${id.slice(0, 8)}-${String(counter).padStart(4, '0')}`;
		lines.push(JSON.stringify({parentUuid: parent, isSidechain: false, userType: 'external', cwd, sessionId: id, version: '2.1.80', gitBranch: 'main', ...record, uuid, timestamp: stamp(start, counter)}));
		parent = uuid;
		counter++;
	};

	const usage = {input_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 18_000, output_tokens: 40, service_tier: 'standard'};
	const assistant = (content: unknown[]) => push({type: 'assistant', requestId: `req_${counter}`, message: {id: `msg_${counter}`, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content, stop_reason: 'tool_use', stop_sequence: null, usage}});
	const call = (name: string, input: Record<string, unknown>, output: string, toolUseResult: unknown, isError = false) => {
		const toolId = `toolu_${id.slice(0, 4)}${String(counter).padStart(4, '0')}`;
		assistant([{type: 'tool_use', id: toolId, name, input}]);
		push({type: 'user', message: {role: 'user', content: [{type: 'tool_result', tool_use_id: toolId, content: output, ...(isError ? {is_error: true} : {})}]}, toolUseResult});
	};

	for (const step of steps) {
		if ('user' in step) {
			push({type: 'user', message: {role: 'user', content: step.user}});
		} else if ('assistant' in step) {
			assistant([{type: 'text', text: step.assistant}]);
		} else if ('read' in step) {
			const total = step.content.split('\n').length;
			call('Read', {file_path: step.read}, numbered(step.content), {type: 'text', file: {filePath: step.read, content: step.content, numLines: total, startLine: 1, totalLines: total}});
		} else if ('edit' in step) {
			call('Edit', {file_path: step.edit, old_string: step.old, new_string: step.new, replace_all: false}, `The file ${step.edit} has been updated.`, {filePath: step.edit, oldString: step.old, newString: step.new, userModified: false, replaceAll: false, structuredPatch: [{oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: [`-${step.old}`, `+${step.new}`]}]});
		} else if ('write' in step) {
			call('Write', {file_path: step.write, content: step.content}, `File created successfully at: ${step.write}`, {type: 'create', filePath: step.write, content: step.content, structuredPatch: []});
		} else if ('search' in step) {
			const found = step.output !== '';
			call('Grep', {pattern: step.search, output_mode: 'content', '-n': true}, found ? step.output : 'No matches found', {mode: 'content', numFiles: found ? 1 : 0, filenames: [], content: step.output, numLines: found ? step.output.split('\n').length : 0});
		} else {
			const failed = (step.exit ?? 0) !== 0;
			call('Bash', {command: step.shell, description: `Run ${step.shell.split(' ')[0]}`}, failed ? `Exit code ${step.exit}\n${step.output}` : step.output, {stdout: step.output, stderr: '', interrupted: false, isImage: false}, failed);
		}
	}

	return lines;
}

/** Codex's unified exec output, as `function_call_output` carries it. */
const execOutput = (output: string, exit: number) => `Chunk ID: 5e${String(output.length % 997).padStart(4, '0')}\nWall time: 0.0${output.length % 9} seconds\nProcess exited with code ${exit}\nOriginal token count: ${Math.ceil(output.length / 4)}\nOutput:\n${output}`;

export function codexToolLines(id: string, cwd: string, steps: readonly ToolStep[], start = Date.parse('2026-11-24T09:00:00Z')): string[] {
	const lines: string[] = [];
	let counter = 0;
	const push = (type: string, payload: Record<string, unknown>) => {
		lines.push(JSON.stringify({timestamp: stamp(start, counter), type, payload}));
		counter++;
	};

	push('session_meta', {id, timestamp: stamp(start, 0), cwd, originator: 'codex_cli_rs', cli_version: '0.98.0', source: 'cli', model_provider: 'openai'});
	push('turn_context', {turn_id: 'turn-1', cwd, approval_policy: 'on-request', sandbox_policy: {type: 'workspace-write', writable_roots: [cwd], network_access: false}, model: 'gpt-5.3-codex', effort: 'medium', summary: 'auto'});
	const exec = (command: string, output: string, exit = 0) => {
		const callId = `call_${id.slice(0, 4)}${String(counter).padStart(4, '0')}`;
		push('response_item', {type: 'function_call', name: 'exec_command', arguments: JSON.stringify({cmd: command, workdir: cwd, yield_time_ms: 10_000}), call_id: callId});
		push('event_msg', {type: 'exec_command_end', call_id: callId, turn_id: 'turn-1', command: ['bash', '-lc', command], cwd, stdout: output, stderr: '', aggregated_output: output, exit_code: exit, duration: {secs: 0, nanos: 41_000_000}, formatted_output: output, status: exit === 0 ? 'completed' : 'failed'});
		push('response_item', {type: 'function_call_output', call_id: callId, output: execOutput(output, exit)});
	};

	const patch = (path: string, body: string) => {
		const callId = `call_${id.slice(0, 4)}${String(counter).padStart(4, '0')}`;
		push('response_item', {type: 'custom_tool_call', status: 'completed', call_id: callId, name: 'apply_patch', input: `*** Begin Patch\n${body}*** End Patch\n`});
		push('event_msg', {type: 'patch_apply_end', call_id: callId, turn_id: 'turn-1', stdout: `Success. Updated the following files:\nM ${path}\n`, stderr: '', success: true, status: 'completed', changes: {}});
		push('response_item', {type: 'custom_tool_call_output', call_id: callId, output: JSON.stringify({output: `Success. Updated the following files:\nM ${path}\n`, metadata: {exit_code: 0, duration_seconds: 0}})});
	};

	for (const step of steps) {
		if ('user' in step) {
			push('event_msg', {type: 'user_message', message: step.user, images: []});
			push('response_item', {type: 'message', role: 'user', content: [{type: 'input_text', text: step.user}]});
		} else if ('assistant' in step) {
			push('response_item', {type: 'message', role: 'assistant', content: [{type: 'output_text', text: step.assistant}]});
			push('event_msg', {type: 'agent_message', message: step.assistant});
		} else if ('read' in step) {
			exec(`sed -n '1,200p' ${step.read}`, step.content);
		} else if ('edit' in step) {
			patch(step.edit, `*** Update File: ${step.edit}\n@@\n-${step.old}\n+${step.new}\n`);
		} else if ('write' in step) {
			patch(step.write, `*** Add File: ${step.write}\n${step.content.split('\n').map(line => `+${line}`).join('\n')}\n`);
		} else if ('search' in step) {
			exec(`rg -n '${step.search}'`, step.output, step.output === '' ? 1 : 0);
		} else {
			exec(step.shell, step.output, step.exit ?? 0);
		}
	}

	return lines;
}

export function writeLines(path: string, lines: readonly string[]): string {
	mkdirSync(dirname(path), {recursive: true});
	writeFileSync(path, lines.join('\n') + '\n');
	return path;
}

/** Where Claude Code keeps a session of `cwd` under its projects directory. */
export const claudeSessionPath = (projects: string, id: string, cwd: string) => join(projects, cwd.replaceAll(/[^A-Za-z\d]/g, '-'), `${id}.jsonl`);

/** Where Codex keeps a rollout started on a given day. */
export const codexSessionPath = (sessions: string, id: string, day = '2026/11/24') => join(sessions, day, `rollout-${day.replaceAll('/', '-')}T09-00-00-${id}.jsonl`);

/** A source file of `lines` lines that reads like code, varied by `seed`. */
export function sourceFile(name: string, lines: number, seed = 1): string {
	const body: string[] = [`// ${name}: request handling`, 'import {retry} from \'./retry.js\';', ''];
	for (let index = 0; body.length < lines; index++) {
		const n = (index * 7 + seed * 13) % 97;
		body.push(`export function handler${index}(request: Request, attempt = ${n}): Response {`, `\tconst timeout = ${index === 0 ? 100 : 110 + n * 10};`, `\treturn retry(() => fetch(request.url + '/v${n}'), {timeout, attempt});`, '}', '');
	}

	return body.slice(0, lines).join('\n');
}

/**
 * A typical tool-heavy session: a file read, read again unchanged, edited, read after the edit;
 * searches that find nothing; git status twice; the tests run; the newest steps at the end.
 */
export function toolHeavySteps(root: string, size = 1): ToolStep[] {
	const files = Array.from({length: 3 * size}, (_, index) => `${root}/src/module${index}.ts`);
	const steps: ToolStep[] = [{user: 'The retry timeouts are wrong across the handlers; fix them and make the tests pass.'}];
	files.forEach((file, index) => {
		const content = sourceFile(file, 60 + index * 10, index);
		steps.push(
			{assistant: `Looking at ${file} first.`},
			{read: file, content},
			{search: `retryTimeoutLegacy${index}`, output: ''},
			{shell: 'git status --short', output: ` M ${file}\n`},
			{read: file, content},
			{edit: file, old: 'const timeout = 100;', new: 'const timeout = 250;'},
			{read: file, content: content.replace('const timeout = 100;', 'const timeout = 250;')},
			{shell: 'git status --short', output: ` M ${file}\n`},
		);
	});
	steps.push({shell: 'npm test', output: 'Tests: 42 passed, 42 total\n'}, {assistant: 'All handlers now use the longer timeout and the tests pass.'}, {user: 'Thanks, commit it.'});
	return steps;
}
