import {posix} from 'node:path';
import {patchPaths} from '../tool-calls.js';

/** What a tool call does, as far as pruning is concerned. */
export type ToolAction =
	| {kind: 'read'; paths: string[]; key: string}
	| {kind: 'write'; paths: string[]}
	| {kind: 'search'; query: string; shell: boolean}
	| {kind: 'status'; key: string}
	| {kind: 'other'};

/** A path as one comparable spelling: quotes and a leading `./` dropped, relative paths resolved against `base`. */
export function joinPath(base: string | undefined, path: string): string {
	let clean = path.trim().replace(/^(['"])(.*)\1$/, '$2');
	while (clean.startsWith('./')) {
		clean = clean.slice(2);
	}

	if (/^[A-Za-z]:[\\/]/.test(clean) || clean.startsWith('~')) {
		return clean;
	}

	if (clean.startsWith('/')) {
		return posix.normalize(clean);
	}

	return base && base.startsWith('/') ? posix.resolve(base, clean) : posix.normalize(clean);
}

type Command = {words: string[]; redirects: string[]};
type Sequence = {commands: Command[]; joined: boolean};

/**
 * Splits a shell command into pipelines of simple commands: words with quotes removed,
 * redirection targets apart, here-documents skipped. Enough to classify what an agent ran, not
 * a shell: anything it cannot follow (substitutions, subshells) it keeps as plain words.
 */
function parse(command: string): Sequence[] {
	const sequences: Sequence[] = [{commands: [], joined: false}];
	let current: Command = {words: [], redirects: []};
	let word = '';
	let inWord = false;
	let redirect = false;
	let heredoc: string | undefined;
	const endWord = () => {
		if (inWord) {
			if (redirect) {
				current.redirects.push(word);
				redirect = false;
			} else {
				current.words.push(word);
			}
		}

		word = '';
		inWord = false;
	};

	const endCommand = (pipe: boolean) => {
		endWord();
		if (current.words.length > 0 || current.redirects.length > 0) {
			sequences.at(-1)!.commands.push(current);
		}

		current = {words: [], redirects: []};
		if (!pipe && sequences.at(-1)!.commands.length > 0) {
			sequences.push({commands: [], joined: true});
		}
	};

	for (let index = 0; index < command.length; index++) {
		const char = command[index]!;
		if (char === '\'' || char === '"') {
			const close = command.indexOf(char, index + 1);
			const end = close === -1 ? command.length : close;
			word += command.slice(index + 1, end);
			inWord = true;
			index = end;
		} else if (char === '\\' && index + 1 < command.length) {
			word += command[++index];
			inWord = true;
		} else if (char === ' ' || char === '\t') {
			endWord();
		} else if (char === '\n' || char === ';' || (char === '&' && command[index + 1] === '&') || (char === '|' && command[index + 1] === '|')) {
			if (char !== '\n' && char !== ';') {
				index++;
			}

			endCommand(false);
			if (char === '\n' && heredoc !== undefined) {
				// The here-document's body is data, not commands: skip to its delimiter line.
				const end = command.indexOf(`\n${heredoc}`, index);
				index = end === -1 ? command.length : end + heredoc.length;
				heredoc = undefined;
			}
		} else if (char === '|') {
			endCommand(true);
		} else if (char === '<' && command[index + 1] === '<') {
			endWord();
			const match = /^<<-?\s*(['"]?)([\w.-]+)\1/.exec(command.slice(index));
			heredoc = match?.[2];
			index += match ? match[0].length - 1 : 1;
		} else if (char === '>' || (char === '&' && command[index + 1] === '>')) {
			// `2>` names a descriptor, not a word; `>&2` and `2>&1` duplicate one and write no file.
			if (inWord && /^\d$/.test(word)) {
				word = '';
				inWord = false;
			} else {
				endWord();
			}

			let next = index + (char === '&' ? 2 : 1);
			if (command[next] === '>') {
				next++;
			}

			if (char === '>' && command[next] === '&') {
				next++;
				while (next < command.length && /[\d-]/.test(command[next]!)) {
					next++;
				}
			} else {
				redirect = true;
			}

			index = next - 1;
		} else if (char === '&') {
			endCommand(false);
		} else {
			word += char;
			inWord = true;
		}
	}

	endCommand(false);
	return sequences.filter(sequence => sequence.commands.length > 0);
}

const readers = new Set(['cat', 'head', 'tail', 'bat', 'batcat', 'nl', 'less', 'more']);
const searchers = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack']);
/** Commands that only filter what a read or search printed. */
const filters = new Set(['head', 'tail', 'grep', 'rg', 'wc', 'sort', 'uniq', 'cut', 'awk', 'sed', 'tr', 'less', 'more', 'cat', 'nl', 'column']);
/** Options that take the next word as their value: of head and tail, and of grep and rg. */
const readerValues = new Set(['-n', '-c', '--lines', '--bytes']);
const searchValues = new Set(['-e', '-f', '-g', '-t', '-T', '-m', '-A', '-B', '-C', '-j', '--glob', '--type', '--type-not', '--max-count', '--context', '--after-context', '--before-context']);
const discard = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

const program = (words: readonly string[]) => posix.basename(words[0] ?? '');

/** The words after the program that are not options or option values. */
function operands(words: readonly string[], takesValue: (option: string) => boolean): string[] {
	const found: string[] = [];
	for (let index = 1; index < words.length; index++) {
		const word = words[index]!;
		if (word === '--') {
			found.push(...words.slice(index + 1));
			break;
		}

		if (word.startsWith('-') && word.length > 1) {
			if (takesValue(word)) {
				index++;
			}

			continue;
		}

		found.push(word);
	}

	return found;
}

/** Files a command writes: redirections, tee, sed -i, and the usual file movers. */
function writtenBy(command: Command): string[] {
	const written = command.redirects.filter(target => !discard.has(target));
	const name = program(command.words);
	const args = operands(command.words, () => false);
	if (name === 'tee' || name === 'touch' || name === 'rm') {
		written.push(...args);
	} else if (name === 'sed' && command.words.some(word => /^-i/.test(word) || word === '--in-place')) {
		written.push(...args.slice(1));
	} else if ((name === 'mv' || name === 'cp') && args.length >= 2) {
		written.push(...(name === 'mv' ? args : args.slice(-1)));
	}

	return written;
}

/**
 * Classifies a shell command: `cat/head/tail/bat/nl` or `sed -n` of files is a read, `rg/grep`
 * (also `git grep`) a search, `git status`/`git diff` a status check, and anything that writes a
 * file (a redirection, tee, sed -i, mv, an apply_patch here-document) a write. Leading `cd`
 * commands move the base directory; anything else in sequence makes it "other".
 */
export function classifyShell(command: string, base: string | undefined): ToolAction {
	if (command.includes('*** Begin Patch')) {
		const paths = patchPaths(command);
		return paths.length === 0 ? {kind: 'other'} : {kind: 'write', paths: paths.map(path => joinPath(base, path))};
	}

	const sequences = parse(command);
	let directory = base;
	const written = sequences.flatMap(sequence => sequence.commands.flatMap(item => writtenBy(item)));
	const meaningful: Sequence[] = [];
	for (const sequence of sequences) {
		const [first] = sequence.commands;
		if (sequence.commands.length === 1 && first && program(first.words) === 'cd' && first.words[1]) {
			if (written.length === 0) {
				directory = joinPath(directory, first.words[1]);
			}

			continue;
		}

		meaningful.push(sequence);
	}

	if (written.length > 0) {
		return {kind: 'write', paths: written.map(path => joinPath(directory, path))};
	}

	if (meaningful.length !== 1) {
		return {kind: 'other'};
	}

	const [head, ...rest] = meaningful[0]!.commands;
	const words = head!.words.filter((word, index) => index > 0 || !/^\w+=/.test(word));
	const name = program(words);
	const key = JSON.stringify([directory ?? null, meaningful[0]!.commands.map(item => item.words.join(' '))]);
	if (!rest.every(item => filters.has(program(item.words)))) {
		return {kind: 'other'};
	}

	if (name === 'git' && (words[1] === 'status' || words[1] === 'diff') && rest.length === 0) {
		return {kind: 'status', key};
	}

	const isSearch = searchers.has(name) || (name === 'git' && words[1] === 'grep');
	if (isSearch) {
		const searchWords = name === 'git' ? words.slice(1) : words;
		const pattern = searchWords.find((_word, index) => index > 0 && searchWords[index - 1] === '-e') ?? operands(searchWords, option => searchValues.has(option))[0];
		return pattern === undefined ? {kind: 'other'} : {kind: 'search', query: pattern, shell: true};
	}

	const isSedRead = name === 'sed' && words.includes('-n');
	if (readers.has(name) || isSedRead) {
		// sed's script is its first operand unless given with -e; its -n takes no value.
		const files = isSedRead ? operands(words, option => option === '-e' || option === '-f').slice(words.includes('-e') ? 0 : 1) : operands(words, option => readerValues.has(option));
		const paths = files.map(path => joinPath(directory, path));
		// The same files read the same way, however the paths were spelled.
		const readKey = JSON.stringify([words.filter(word => !files.includes(word)), paths, rest.map(item => item.words)]);
		return files.length === 0 ? {kind: 'other'} : {kind: 'read', paths, key: readKey};
	}

	return {kind: 'other'};
}
