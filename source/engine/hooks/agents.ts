import {join} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {homeDirectory} from '../kb/paths.js';

export const hookAgents = ['claude', 'codex', 'gemini', 'opencode', 'copilot'] as const;
export type HookAgent = (typeof hookAgents)[number];

/** What `engi hook run --event` takes: the moments agents offer that mean "a session has something to harvest". */
export const hookEvents = ['session-end', 'stop', 'pre-compact'] as const;
export type HookEvent = (typeof hookEvents)[number];

export const hookScopes = ['user', 'project'] as const;
export type HookScope = (typeof hookScopes)[number];

/**
 * How one agent runs a command when a session ends, learned from its own documentation:
 *
 * - `claude-json`: a JSON settings file whose `hooks.<Event>` is a list of `{matcher?, hooks:
 *   [{type: "command", command}]}` groups (Claude Code's settings.json, Gemini CLI's
 *   settings.json, Codex's hooks.json all use this shape);
 * - `copilot-json`: a `.github/hooks/*.json` file, `{version: 1, hooks: {sessionEnd: [{type:
 *   "command", bash}]}}`;
 * - `plugin`: a JavaScript plugin file of engi's own in OpenCode's plugin folder.
 */
export type AgentHookSpec = {
	readonly agent: HookAgent;
	readonly format: 'claude-json' | 'copilot-json' | 'plugin';
	/** The agent's name for the moment the hook runs at. */
	readonly nativeEvent: string;
	/** The `--event` the installed command passes to `engi hook run`. */
	readonly event: HookEvent;
	readonly scopes: readonly HookScope[];
	/** The file the hook goes into, for a scope. */
	file(scope: HookScope, project: string, deps: Deps): string;
	/** Extra fields of engi's hook entry beside the command. */
	readonly entryFields?: Readonly<Record<string, unknown>>;
	/** What a person should know about this agent's hook (what the event means, what else it needs). */
	readonly notes: readonly string[];
};

const xdgConfig = (deps: Deps) => deps.env['XDG_CONFIG_HOME']?.trim() || join(homeDirectory(deps), '.config');
const codexHome = (deps: Deps) => deps.env['CODEX_HOME']?.trim() || join(homeDirectory(deps), '.codex');

export const agentHookSpecs: Readonly<Record<HookAgent, AgentHookSpec>> = {
	claude: {
		agent: 'claude',
		format: 'claude-json',
		nativeEvent: 'SessionEnd',
		event: 'session-end',
		scopes: ['user', 'project'],
		file: (scope, project, deps) => (scope === 'user' ? join(homeDirectory(deps), '.claude', 'settings.json') : join(project, '.claude', 'settings.json')),
		notes: ['SessionEnd runs when a session ends (/exit, a closed terminal), not when it is suspended with Ctrl+C.'],
	},
	gemini: {
		agent: 'gemini',
		format: 'claude-json',
		nativeEvent: 'SessionEnd',
		event: 'session-end',
		scopes: ['user', 'project'],
		file: (scope, project, deps) => (scope === 'user' ? join(homeDirectory(deps), '.gemini', 'settings.json') : join(project, '.gemini', 'settings.json')),
		entryFields: {name: 'engi'},
		notes: ['Gemini CLI runs SessionEnd on exit or /clear; versions where hooks are experimental run them only once hooks are enabled in settings.json (engi changes no other key).'],
	},
	codex: {
		agent: 'codex',
		format: 'claude-json',
		nativeEvent: 'Stop',
		event: 'stop',
		scopes: ['user', 'project'],
		file: (scope, project, deps) => (scope === 'user' ? join(codexHome(deps), 'hooks.json') : join(project, '.codex', 'hooks.json')),
		notes: [
			'Codex has no session-end hook: Stop runs when a turn completes, so the session is queued (once, refreshed as it grows) after every turn.',
			'Codex runs hooks only with `[features] codex_hooks = true` in its config.toml; engi does not edit TOML, so add that line yourself if it is missing.',
		],
	},
	opencode: {
		agent: 'opencode',
		format: 'plugin',
		nativeEvent: 'session.idle',
		event: 'stop',
		scopes: ['user', 'project'],
		file: (scope, project, deps) => (scope === 'user' ? join(xdgConfig(deps), 'opencode', 'plugins', 'engi.js') : join(project, '.opencode', 'plugins', 'engi.js')),
		notes: ['OpenCode has no session-end event: the plugin runs on session.idle, when the agent finishes a turn, and queues the session once (refreshed as it grows).'],
	},
	copilot: {
		agent: 'copilot',
		format: 'copilot-json',
		nativeEvent: 'sessionEnd',
		event: 'session-end',
		scopes: ['project'],
		file: (_scope, project) => join(project, '.github', 'hooks', 'engi.json'),
		entryFields: {timeoutSec: 10},
		notes: ['Copilot CLI reads hooks from the repository\'s .github/hooks/*.json only, and its sessionEnd payload may carry no session id: the project\'s recent Copilot sessions are queued then.'],
	},
};

/** The scope a hook goes into: the one asked for, else the user's (or the only one the agent has). */
export function hookScope(spec: AgentHookSpec, asked: HookScope | undefined): HookScope {
	const scope = asked ?? spec.scopes[0]!;
	if (!spec.scopes.includes(scope)) {
		throw new EngiError('hook_scope_unsupported', `${spec.agent} has no ${scope}-wide hooks; it reads them from ${spec.scopes.join(' or ')} scope only`, {
			hint: `engi hook install --agent ${spec.agent} --scope ${spec.scopes[0]}`,
		});
	}

	return scope;
}

/** The command line an installed hook runs. */
export function hookCommand(base: string, spec: AgentHookSpec): string {
	return `${base} hook run --event ${spec.event} --agent ${spec.agent}`;
}

/** Whether a command in an agent's config is engi's hook for that agent (however engi itself is spelled). */
export function isEngiHookCommand(command: unknown, agent: HookAgent): boolean {
	return typeof command === 'string' && / hook run /.test(command) && command.includes(`--agent ${agent}`);
}
