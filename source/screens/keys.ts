/**
 * The one table of key bindings. Every key handler matches input against it (commandFor), the
 * footer shows the hints of the active screen, and the help overlay lists every row of
 * `bindings`: they cannot drift apart. `fieldBindings` are the keys of a text being typed, which
 * the help does not list as commands: each field says them where it is shown.
 */
export type KeyInfo = {
	readonly upArrow?: boolean;
	readonly downArrow?: boolean;
	readonly leftArrow?: boolean;
	readonly rightArrow?: boolean;
	readonly pageUp?: boolean;
	readonly pageDown?: boolean;
	readonly return?: boolean;
	readonly escape?: boolean;
	readonly tab?: boolean;
	readonly shift?: boolean;
	readonly backspace?: boolean;
	readonly delete?: boolean;
	readonly ctrl?: boolean;
	readonly meta?: boolean;
};

export type Scope = 'global' | 'list' | 'standup' | 'unfinished' | 'pickup' | 'checkpoints' | 'project' | 'query' | 'review' | 'retention' | 'form' | 'confirm' | 'field';

export type Binding = {
	readonly command: string;
	readonly keys: string;
	readonly description: string;
	readonly scope: Scope;
	readonly matches: (input: string, key: KeyInfo) => boolean;
};

const char = (...chars: string[]) => (input: string, key: KeyInfo) => !key.ctrl && !key.meta && chars.includes(input);

export const bindings: readonly Binding[] = [
	{command: 'help', keys: '?', description: 'show or hide this help', scope: 'global', matches: char('?')},
	{command: 'next-screen', keys: 'tab', description: 'next screen', scope: 'global', matches: (_input, key) => Boolean(key.tab) && !key.shift},
	{command: 'previous-screen', keys: 'shift+tab', description: 'previous screen', scope: 'global', matches: (_input, key) => Boolean(key.tab && key.shift)},
	// Any digit: the app opens the screen of that tab, if there is one (navigation.ts orders them).
	{command: 'go-screen', keys: '1–9', description: 'the screen of that tab number', scope: 'global', matches: (input, key) => !key.ctrl && !key.meta && /^[1-9]$/.test(input)},
	{command: 'back', keys: 'esc', description: 'back (or quit from the first screen)', scope: 'global', matches: (_input, key) => Boolean(key.escape)},
	{command: 'quit', keys: 'q', description: 'quit', scope: 'global', matches: char('q')},
	{command: 'refresh', keys: 'r', description: 'reload this screen', scope: 'global', matches: char('r')},
	{command: 'down', keys: '↓ / j', description: 'next row', scope: 'list', matches: (input, key) => Boolean(key.downArrow) || (input === 'j' && !key.ctrl)},
	{command: 'up', keys: '↑ / k', description: 'previous row', scope: 'list', matches: (input, key) => Boolean(key.upArrow) || (input === 'k' && !key.ctrl)},
	{command: 'page-down', keys: 'pgdn / space', description: 'next page of rows', scope: 'list', matches: (input, key) => Boolean(key.pageDown) || input === ' '},
	{command: 'page-up', keys: 'pgup / b', description: 'previous page of rows', scope: 'list', matches: (input, key) => Boolean(key.pageUp) || input === 'b'},
	{command: 'home', keys: 'g', description: 'first row', scope: 'list', matches: char('g')},
	{command: 'end', keys: 'G', description: 'last row', scope: 'list', matches: char('G')},
	{command: 'open', keys: 'enter', description: 'open the selected session\'s pickup', scope: 'unfinished', matches: (_input, key) => Boolean(key.return)},
	{command: 'filter', keys: '/', description: 'filter as you type (title, project, source, reasons)', scope: 'unfinished', matches: char('/')},
	{command: 'sort', keys: 's', description: 'cycle sort: age, project, confidence', scope: 'unfinished', matches: char('s')},
	{command: 'source-filter', keys: 'f', description: 'cycle the source filter', scope: 'unfinished', matches: char('f')},
	{command: 'checkpoint', keys: 'c', description: 'record a checkpoint for the selected session', scope: 'unfinished', matches: char('c')},
	{command: 'complete', keys: 'd', description: 'mark the selected session completed (asks first)', scope: 'unfinished', matches: char('d')},
	{command: 'supersede', keys: 'x', description: 'mark the selected session superseded (asks first)', scope: 'unfinished', matches: char('x')},
	{command: 'open', keys: 'enter', description: 'open the selected session\'s pickup', scope: 'standup', matches: (_input, key) => Boolean(key.return)},
	{command: 'resume', keys: 'enter', description: 'leave and print the resume commands (runs nothing)', scope: 'pickup', matches: (_input, key) => Boolean(key.return)},
	{command: 'new-checkpoint', keys: 'n', description: 'record a checkpoint', scope: 'checkpoints', matches: char('n')},
	{command: 'next-page', keys: 'n', description: 'next page', scope: 'project', matches: char('n')},
	{command: 'previous-page', keys: 'p', description: 'previous page', scope: 'project', matches: char('p')},
	{command: 'edit-query', keys: '/', description: 'type a query (enter searches)', scope: 'query', matches: char('/')},
	{command: 'promote', keys: 'p', description: 'promote the selected candidate: graph nodes and an imported checkpoint (y confirms)', scope: 'review', matches: char('p')},
	{command: 'reject', keys: 'x', description: 'reject the selected candidate; its note is kept (y confirms)', scope: 'review', matches: char('x')},
	{command: 'evidence', keys: 'e', description: 'show the turns its claims cite (esc back)', scope: 'review', matches: char('e')},
	{command: 'evidence', keys: 'e', description: 'show the selected result\'s evidence: node_sha256 and journal history (esc back)', scope: 'query', matches: char('e')},
	{command: 'execute', keys: 'x', description: 'execute the plan (asks for the count of sessions first)', scope: 'retention', matches: char('x')},
	{command: 'cycle-view', keys: 'v', description: 'cycle the view: summary, blockers, sessions, receipts', scope: 'retention', matches: char('v')},
	{command: 'blocker-filter', keys: 'f', description: 'cycle the sessions\' blocker filter', scope: 'retention', matches: char('f')},
	{command: 'filter', keys: '/', description: 'filter the sessions as you type (any words)', scope: 'retention', matches: char('/')},
	{command: 'list-blocked', keys: 'enter', description: 'on a blocker code: the sessions it blocks', scope: 'retention', matches: (_input, key) => Boolean(key.return)},
	{command: 'submit', keys: 'enter', description: 'save (checks every field first)', scope: 'form', matches: (_input, key) => Boolean(key.return)},
	{command: 'next-field', keys: 'tab / ↓', description: 'next field (←/→ change the status)', scope: 'form', matches: (_input, key) => (Boolean(key.tab) && !key.shift) || Boolean(key.downArrow)},
	{command: 'cancel', keys: 'esc', description: 'cancel', scope: 'form', matches: (_input, key) => Boolean(key.escape)},
	{command: 'yes', keys: 'y', description: 'confirm', scope: 'confirm', matches: char('y', 'Y')},
	{command: 'no', keys: 'n / esc', description: 'cancel', scope: 'confirm', matches: (input, key) => input === 'n' || input === 'N' || Boolean(key.escape)},
];

/**
 * The keys of a text being typed (the Unfinished filter, the Query field, a form's fields) and
 * of moving back through a form. The field itself says them (the form's footer line, the
 * query's "enter searches"); the help lists only `bindings`.
 */
export const fieldBindings: readonly Binding[] = [
	{command: 'accept', keys: 'enter', description: 'keep what was typed', scope: 'field', matches: (_input, key) => Boolean(key.return)},
	{command: 'dismiss', keys: 'esc', description: 'stop typing', scope: 'field', matches: (_input, key) => Boolean(key.escape)},
	{command: 'erase', keys: 'backspace', description: 'erase the last character', scope: 'field', matches: (_input, key) => Boolean(key.backspace) || Boolean(key.delete)},
	{command: 'previous-field', keys: 'shift+tab / ↑', description: 'previous field', scope: 'form', matches: (_input, key) => Boolean(key.tab && key.shift) || Boolean(key.upArrow)},
	{command: 'status-back', keys: '←', description: 'previous status', scope: 'form', matches: (_input, key) => Boolean(key.leftArrow)},
	{command: 'status-forward', keys: '→', description: 'next status', scope: 'form', matches: (_input, key) => Boolean(key.rightArrow)},
];

/** The text a key types into a field, if it types any (no control or meta chord). */
export function typedText(input: string, key: KeyInfo): string | undefined {
	return input && !key.ctrl && !key.meta ? input : undefined;
}

/** What a key does to a list's filter while it is typed (Unfinished, Retention): their reducers share these actions. */
export type FilterKeyAction = {readonly type: 'end-filter'; readonly keep: boolean} | {readonly type: 'erase'} | {readonly type: 'type'; readonly text: string};

export function filterKeyAction(input: string, key: KeyInfo): FilterKeyAction | undefined {
	const command = commandFor(['field'], input, key);
	if (command === 'dismiss' || command === 'accept') {
		return {type: 'end-filter', keep: command === 'accept'};
	}

	if (command === 'erase') {
		return {type: 'erase'};
	}

	const text = typedText(input, key);
	return text === undefined ? undefined : {type: 'type', text};
}

/**
 * The keys in one input as Ink reports it. Ink already separates escape sequences (arrows,
 * esc), but hands over a run of plain characters typed quickly or pasted (`jj`, two
 * backspaces, `q\r`) as one input: that run is split into one keypress per character, each
 * described as Ink describes a single key.
 */
export function keypressesOf<Key extends KeyInfo>(input: string, key: Key): Array<readonly [string, Key]> {
	const characters = [...input];
	if (characters.length <= 1 || input.startsWith('\u001B')) {
		return [[input, key]];
	}

	const plain = Object.fromEntries(Object.keys(key).map(name => [name, typeof key[name as keyof Key] === 'boolean' ? false : key[name as keyof Key]])) as Key;
	return characters.map(character => {
		const code = character.codePointAt(0)!;
		if (character === '\r') {
			return [character, {...plain, return: true}] as const;
		}

		if (character === '\t') {
			return ['', {...plain, tab: true}] as const;
		}

		if (character === '\u007F') {
			return ['', {...plain, delete: true}] as const;
		}

		if (character === '\b') {
			return ['', {...plain, backspace: true}] as const;
		}

		if (code >= 1 && code <= 26 && character !== '\n') {
			return [String.fromCodePoint(code + 96), {...plain, ctrl: true}] as const;
		}

		return [character, {...plain, shift: /^[A-Z]$/.test(character)}] as const;
	});
}

const allBindings = [...bindings, ...fieldBindings];

/** The first binding of the scopes, in their order, that matches the key: its command name. */
export function commandFor(scopes: readonly Scope[], input: string, key: KeyInfo): string | undefined {
	for (const scope of scopes) {
		const binding = allBindings.find(candidate => candidate.scope === scope && candidate.matches(input, key));
		if (binding) {
			return binding.command;
		}
	}

	return undefined;
}

/**
 * The footer, fitted to `width`: the active screen's own keys first, then moving and switching
 * screens, and always `? help` and `q quit` at the end, since help lists whatever did not fit.
 * Hints are never cut: from the first that does not fit on, they are left out, in table order.
 */
export function hintsFor(scope: Scope, width: number): string {
	const own = bindings.filter(binding => binding.scope === scope).map(binding => `${binding.keys.split(' / ')[0]} ${binding.command.replaceAll('-', ' ')}`);
	const always = ['? help', 'q quit'];
	const chosen: string[] = [];
	let used = always.join(' · ').length;
	for (const hint of [...own, '↑↓ move', 'tab screens']) {
		if (used + hint.length + 3 > width) {
			break;
		}

		chosen.push(hint);
		used += hint.length + 3;
	}

	return [...chosen, ...always].join(' · ');
}
