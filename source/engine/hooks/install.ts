import {copyFileSync, mkdirSync, readFileSync, realpathSync} from 'node:fs';
import {dirname, resolve} from 'node:path';
import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {createAtomicFile} from '../../lib/atomic.js';
import {parseInputJson} from '../../lib/bounded-input.js';
import {appendMember, jsonSpan} from '../../lib/json-splice.js';
import {gitRoot} from '../../lib/project.js';
import {canonicalUtc} from '../../lib/time.js';
import {agentHookSpecs, hookCommand, hookScope, isEngiHookCommand, type AgentHookSpec, type HookAgent, type HookScope} from './agents.js';
import {opencodePlugin, pluginMarker} from './opencode-plugin.js';

export const hookInstallOutputSchema = z.object({
	agent: z.string(),
	scope: z.enum(['user', 'project']),
	/** The agent's config file (a symlink's target) the hook is in. */
	path: z.string(),
	/** The agent's name for the moment the hook runs at (SessionEnd, Stop, session.idle, sessionEnd). */
	native_event: z.string(),
	command: z.string(),
	/** created: a new file; added: the hook joined an existing file; updated: engi's hook there changed; unchanged: nothing to do. */
	action: z.enum(['created', 'added', 'updated', 'unchanged']),
	/** The original file, copied beside it before it was changed. */
	backup: z.nullable(z.string()),
	dry_run: z.boolean(),
	/** With --dry-run: the file as it would be written (null when unchanged). */
	merged: z.nullable(z.string()),
	notes: z.array(z.string()),
});

export type HookInstallOutput = z.infer<typeof hookInstallOutputSchema>;

export type HookInstallInput = {
	readonly agent: HookAgent;
	readonly scope?: HookScope;
	/** How the hook calls engi (default `engi`, found on the agent's PATH). */
	readonly command?: string;
	readonly dryRun: boolean;
};

type Merge = {text: string; action: 'added' | 'updated' | 'unchanged'};

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The file's own indentation (its first indented line), so a rewrite keeps its look; two spaces when it has none. */
function indentOf(text: string): string {
	return /\n([ \t]+)\S/.exec(text)?.[1] ?? '  ';
}

/** The config parsed; a file that is not strict JSON is refused, named with the line (parseInputJson). */
function parseConfig(file: string, text: string): unknown {
	try {
		return parseInputJson(Buffer.from(text), file);
	} catch (error) {
		if (!(error instanceof EngiError)) {
			throw error;
		}

		throw new EngiError('hook_config_unparsable', `${error.message} (engi reads strict JSON: no comments, no trailing commas), so engi cannot merge a hook into it`, {
			hint: 'fix the file (or move it aside), then run engi hook install again; nothing was changed',
		});
	}
}

function unexpected(file: string, key: string, wanted: string): EngiError {
	return new EngiError('hook_config_unexpected', `${file}: ${key} is not ${wanted}, so engi cannot merge a hook into it`, {hint: 'fix that key by hand, then run engi hook install again; nothing was changed'});
}

type EntryMerge = {action: 'added'; entry: unknown} | {action: 'updated'; previous: string} | {action: 'unchanged'};

/** engi's entry in an event's list, merged: updated in place when there, appended when not. */
function mergeEntries(list: unknown[], file: string, key: string, spec: AgentHookSpec, command: string): EntryMerge {
	const field = spec.format === 'copilot-json' ? 'bash' : 'command';
	for (const item of list) {
		if (!isObject(item)) {
			throw unexpected(file, `${key}[]`, 'a list of objects');
		}

		const handlers: unknown[] = spec.format === 'copilot-json' ? [item] : Array.isArray(item['hooks']) ? item['hooks'] : [];
		for (const handler of handlers) {
			if (isObject(handler) && isEngiHookCommand(handler[field], spec.agent)) {
				const previous = handler[field] as string;
				if (previous === command) {
					return {action: 'unchanged'};
				}

				handler[field] = command;
				return {action: 'updated', previous};
			}
		}
	}

	const ours = {type: 'command', [field]: command, ...spec.entryFields};
	const entry = spec.format === 'copilot-json' ? ours : {hooks: [ours]};
	list.push(entry);
	return {action: 'added', entry};
}

/**
 * The merge written into the original text, every byte outside the edit kept: the entry added
 * last in the event's list (or the event added last in `hooks`, or `hooks` last at the top),
 * or the command's string replaced. Undefined when the result would not read back as `config`.
 */
function spliceHook(text: string, config: unknown, spec: AgentHookSpec, merge: EntryMerge, command: string): string | undefined {
	const indent = indentOf(text);
	const event = spec.nativeEvent;
	let spliced: string;
	if (merge.action === 'updated') {
		const list = jsonSpan(text, ['hooks', event])!;
		const at = text.indexOf(JSON.stringify(merge.previous), list.start);
		if (at === -1 || at >= list.end) {
			return undefined;
		}

		spliced = text.slice(0, at) + JSON.stringify(command) + text.slice(at + JSON.stringify(merge.previous).length);
	} else if (merge.action === 'added') {
		const serialize = (value: unknown) => JSON.stringify(value, null, indent);
		const list = jsonSpan(text, ['hooks', event]);
		const hooks = jsonSpan(text, ['hooks']);
		spliced = list
			? appendMember(text, list, 2, indent, serialize(merge.entry))
			: hooks
				? appendMember(text, hooks, 1, indent, `${JSON.stringify(event)}: ${serialize([merge.entry])}`)
				: appendMember(text, jsonSpan(text, [])!, 0, indent, `"hooks": ${serialize({[event]: [merge.entry]})}`);
	} else {
		return text;
	}

	try {
		return JSON.stringify(JSON.parse(spliced)) === JSON.stringify(config) ? spliced : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The config with engi's hook merged in. The edit is spliced into the file's own text, so every
 * other key keeps its bytes (its value, place, layout and indentation); only a file the splice
 * cannot read back exactly is written out whole, in its own indentation.
 */
function mergeJsonHook(existing: string | undefined, file: string, spec: AgentHookSpec, command: string): Merge {
	const text = existing?.replace(/^\uFEFF/, '');
	const blank = text === undefined || text.trim() === '';
	let config: unknown = spec.format === 'copilot-json' ? {version: 1} : {};
	if (!blank) {
		config = parseConfig(file, text);
	}

	if (!isObject(config)) {
		throw unexpected(file, 'the top level', 'an object');
	}

	config['hooks'] ??= {};
	const hooks = config['hooks'];
	if (!isObject(hooks)) {
		throw unexpected(file, 'hooks', 'an object');
	}

	hooks[spec.nativeEvent] ??= [];
	const list = hooks[spec.nativeEvent];
	if (!Array.isArray(list)) {
		throw unexpected(file, `hooks.${spec.nativeEvent}`, 'a list');
	}

	const merge = mergeEntries(list, file, `hooks.${spec.nativeEvent}`, spec, command);
	if (merge.action === 'unchanged') {
		return {text: existing!, action: 'unchanged'};
	}

	const trailing = blank || text.endsWith('\n') ? '\n' : '';
	// A file on one line stays on one line (a splice would break it over several).
	if (!blank && !text.trim().includes('\n')) {
		return {text: JSON.stringify(config) + trailing, action: merge.action};
	}

	const spliced = blank ? undefined : spliceHook(existing!, config, spec, merge, command);
	return {text: spliced ?? JSON.stringify(config, null, indentOf(text ?? '')) + trailing, action: merge.action};
}

function mergePlugin(existing: string | undefined, file: string, spec: AgentHookSpec, command: string): Merge {
	const plugin = opencodePlugin(command);
	if (existing === undefined) {
		return {text: plugin, action: 'added'};
	}

	if (!existing.startsWith(pluginMarker)) {
		throw new EngiError('hook_config_foreign', `${file} exists and is not engi's plugin, so engi leaves it alone`, {hint: `move it aside (or remove it), then run engi hook install --agent ${spec.agent} again; nothing was changed`});
	}

	return existing === plugin ? {text: existing, action: 'unchanged'} : {text: plugin, action: 'updated'};
}

function readConfig(path: string): {target: string; existing: string | undefined} {
	try {
		const target = realpathSync(path);
		return {target, existing: readFileSync(target, 'utf8')};
	} catch (error) {
		if (systemErrorCode(error) !== 'ENOENT') {
			throw new EngiError('hook_config_unreadable', `${path} cannot be read (${systemErrorCode(error) ?? 'error'})`, {hint: 'check its permissions; nothing was changed'});
		}

		return {target: resolve(path), existing: undefined};
	}
}

/**
 * `engi hook install`: engi's session-end hook merged into one agent's own config file.
 * Idempotent (a second install changes nothing and copies nothing); before an existing file is
 * changed its original is copied beside it (`<name>.engi-backup-<UTC>`); a file that does not
 * parse is refused and named, never rewritten.
 */
export function installHook(input: HookInstallInput, deps: Deps): HookInstallOutput {
	const spec = agentHookSpecs[input.agent];
	const scope = hookScope(spec, input.scope);
	const project = gitRoot(deps.cwd) ?? deps.cwd;
	const command = hookCommand(input.command?.trim() || 'engi', spec);
	const {target, existing} = readConfig(spec.file(scope, project, deps));
	const merged = spec.format === 'plugin' ? mergePlugin(existing, target, spec, command) : mergeJsonHook(existing, target, spec, command);
	const action = existing === undefined ? 'created' : merged.action;
	const output: HookInstallOutput = {agent: spec.agent, scope, path: target, native_event: spec.nativeEvent, command, action, backup: null, dry_run: input.dryRun, merged: null, notes: [...spec.notes]};
	if (action === 'unchanged') {
		return output;
	}

	if (input.dryRun) {
		return {...output, merged: merged.text};
	}

	try {
		if (existing === undefined) {
			mkdirSync(dirname(target), {recursive: true, mode: 0o700});
		} else {
			output.backup = `${target}.engi-backup-${canonicalUtc(deps.now()).replaceAll(/[-:]/g, '')}`;
			copyFileSync(target, output.backup);
		}

		const file = createAtomicFile(target);
		file.write(Buffer.from(merged.text));
		file.commit();
	} catch (error) {
		throw writeError(target, error);
	}

	return output;
}
