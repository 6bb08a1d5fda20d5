import type {SessionEvent} from '../events.js';
import type {CodexState} from './state.js';

/** How many turn starts the state remembers: a rollback reaching further back is not plausible. */
const rememberedTurns = 1000;

/**
 * Where Codex's turns start, as its own history builder counts them (app-server
 * `thread_history.rs`): `turn_started`/`task_started` opens a turn that the next prompt joins;
 * a prompt outside an open turn starts one of its own; `turn_complete`/`task_complete` and
 * `turn_aborted` end the turn.
 */
export function noteTurnStart(state: CodexState, line: number, explicit: boolean): void {
	if (!explicit && state.turnOpen === 'explicit') {
		state.turnOpen = 'prompted';
		return;
	}

	if (!explicit && state.turnOpen === 'prompted') {
		return; // A prompt typed while the turn runs steers it.
	}

	state.turns = [...(state.turns ?? []), line].slice(-rememberedTurns);
	state.turnOpen = explicit ? 'explicit' : 'implicit';
}

export function noteTurnEnd(state: CodexState): void {
	delete state.turnOpen;
}

/**
 * `thread_rolled_back {num_turns}`: the last turns were dropped from the thread (Codex rebuilds
 * its history without them). Their records stay in the rollout; the marker names the first line
 * it discarded, so they read as an abandoned branch.
 */
export function rollbackEvents(state: CodexState, turns: number | undefined, base: Omit<SessionEvent, 'kind'>): SessionEvent[] {
	const count = turns !== undefined && turns > 0 ? turns : 0;
	const known = state.turns ?? [];
	const kept = Math.max(0, known.length - count);
	const from = count > 0 ? known[kept] : undefined;
	state.turns = known.slice(0, kept);
	noteTurnEnd(state);
	const text = `Rolled back ${count === 1 ? 'the last turn' : `the last ${count} turns`}; their records are on an abandoned branch`;
	return [{...base, kind: 'system', text, ...(from === undefined ? {} : {rewound_from: from})}];
}
