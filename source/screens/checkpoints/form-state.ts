import {EngiError} from '../../lib/errors.js';
import {applyCheckpointRules, type CheckpointFields} from '../../engine/continuity/checkpoint-rules.js';
import {checkpointDraftSchema, checkpointStatuses, type CheckpointDraft, type CheckpointStatus} from '../../engine/continuity/checkpoint-schema.js';

export const formFields = ['objective', 'status', 'next_action', 'blockers', 'verification'] as const;
export type FormField = (typeof formFields)[number];

export type FormState = {
	readonly session: string;
	readonly source: string;
	readonly values: Readonly<Record<Exclude<FormField, 'status'>, string>>;
	readonly status: CheckpointStatus;
	readonly focus: number;
	readonly error: string | null;
	readonly saving: boolean;
	/** The session's latest checkpoint, which fields left empty inherit from; none for a first checkpoint. */
	readonly previous: Partial<CheckpointFields> | undefined;
};

export type FormAction =
	| {type: 'type'; text: string}
	| {type: 'erase'}
	| {type: 'next'}
	| {type: 'previous'}
	| {type: 'cycle-status'; by: 1 | -1}
	| {type: 'saving'}
	| {type: 'failed'; error: string};

export function initialForm(session: string, source: string, previous?: Pick<CheckpointFields, 'objective' | 'status' | 'next_action' | 'blockers' | 'verification'> & Partial<CheckpointFields>): FormState {
	return {
		session,
		source,
		values: {objective: previous?.objective ?? '', next_action: previous?.next_action ?? '', blockers: previous?.blockers.join(', ') ?? '', verification: previous?.verification ?? ''},
		status: previous?.status ?? 'active',
		focus: 0,
		error: null,
		saving: false,
		previous,
	};
}

/** Typing, moving between fields and cycling the status: pure, so it is tested without a terminal. */
export function formReducer(state: FormState, action: FormAction): FormState {
	const field = formFields[state.focus]!;
	switch (action.type) {
		case 'type':
			return field === 'status' ? state : {...state, values: {...state.values, [field]: state.values[field] + action.text}, error: null};
		case 'erase':
			return field === 'status' ? state : {...state, values: {...state.values, [field]: [...state.values[field]].slice(0, -1).join('')}, error: null};
		case 'next':
			return {...state, focus: (state.focus + 1) % formFields.length};
		case 'previous':
			return {...state, focus: (state.focus + formFields.length - 1) % formFields.length};
		case 'cycle-status': {
			if (field !== 'status') {
				return state;
			}

			const index = checkpointStatuses.indexOf(state.status);
			return {...state, status: checkpointStatuses[(index + action.by + checkpointStatuses.length) % checkpointStatuses.length]!};
		}

		case 'saving':
			return {...state, saving: true, error: null};
		case 'failed':
			return {...state, saving: false, error: action.error};
		default:
			return state;
	}
}

/**
 * The draft the form would record, checked by the same zod schema as `engi checkpoint record
 * --file` and the engine's own checkpoint rules; an error names the field. Empty optional
 * fields are left out so they are inherited.
 */
export function draftOf(state: FormState): {draft: CheckpointDraft} | {error: string} {
	const list = (text: string) => text.split(',').map(item => item.trim()).filter(Boolean);
	const candidate: CheckpointDraft = {
		session: state.session,
		source: state.source,
		status: state.status,
		...(state.values.objective.trim() ? {objective: state.values.objective.trim()} : {}),
		...(state.values.next_action.trim() ? {next_action: state.values.next_action.trim()} : {}),
		...(state.values.blockers.trim() ? {blockers: list(state.values.blockers)} : {}),
		...(state.values.verification.trim() ? {verification: state.values.verification.trim()} : {}),
	};
	const parsed = checkpointDraftSchema.safeParse(candidate);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return {error: `${issue?.path.map(String).join('.') || 'checkpoint'}: ${issue?.message ?? 'invalid'}`};
	}

	try {
		applyCheckpointRules(parsed.data, state.previous);
	} catch (error) {
		if (error instanceof EngiError) {
			return {error: error.message};
		}

		throw error;
	}

	return {draft: parsed.data};
}
