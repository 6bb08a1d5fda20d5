import {posix} from 'node:path';
import {patchPaths} from '../tool-calls.js';

/** What a tool call does, as far as pruning is concerned. */
export type ToolAction =
	| {kind: 'read'; paths: string[]; key: string}
	| {kind: 'write'; paths: string[]}
	/** `noMatchExit`: the program exits 1 when nothing matched (grep, rg), which is no failure. */
	| {kind: 'search'; query: string; noMatchExit: boolean}
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

/** Readers of files, each with the options that take the next word as their value (cat's `-n` numbers lines and takes none). */
const readers: ReadonlyMap<string, ReadonlySet<string>> = new Map(Object.entries({
	cat: [],
	head: ['-n', '-c', '--lines', '--bytes'],
	tail: ['-n', '-c', '--lines', '--bytes'],
	bat: ['-l', '--language', '-r', '--line-range', '-H', '--highlight-line', '--style', '--theme', '--tabs', '--wrap'],
	batcat: ['-l', '--language', '-r', '--line-range', '-H', '--highlight-line', '--style', '--theme', '--tabs', '--wrap'],
	nl: ['-b', '-d', '-f', '-h', '-i', '-l', '-n', '-s', '-v', '-w'],
	less: [],
	more: [],
}).map(([name, values]) => [name, new Set(values)]));
const searchers = new Set(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack']);
/** Commands that only filter what a read or search printed. */
const filters = new Set(['head', 'tail', 'grep', 'rg', 'wc', 'sort', 'uniq', 'cut', 'awk', 'sed', 'tr', 'less', 'more', 'cat', 'nl', 'column']);
/** Shells a script may be handed to with `-c` (Codex's `bash -lc '<script>'`). */
const shells = new Set(['sh', 'bash', 'zsh', 'dash']);
/** git's own options before its subcommand: `-C <dir>` runs it there, the others change only how it prints. */
const gitValues = new Set(['-C', '-c', '--git-dir', '--work-tree']);
/** find's predicates that act on what it finds (run, delete, write a file): a find with one is no look. */
const findActions = new Set(['-exec', '-execdir', '-ok', '-okdir', '-delete', '-fprint', '-fprint0', '-fprintf', '-fls']);
/** find's tests whose value says what it looks for, and fd's options that take a value. */
const findPatterns = new Set(['-name', '-iname', '-path', '-ipath', '-wholename', '-iwholename', '-regex', '-iregex', '-lname', '-ilname']);
const fdValues = new Set(['-e', '--extension', '-t', '--type', '-E', '--exclude', '-d', '--max-depth', '--min-depth', '--exact-depth', '-S', '--size', '--changed-within', '--changed-before', '-o', '--owner', '-j', '--threads', '-c', '--color', '--base-directory', '--search-path']);
const fdActions = new Set(['-x', '--exec', '-X', '--exec-batch']);
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

/** The script of `bash -lc '<script>'` (or `sh -c`, …) when that is the whole command, else undefined. */
function shellScript(sequences: readonly Sequence[]): string | undefined {
	const [only] = sequences;
	const words = only?.commands[0]?.words ?? [];
	const flags = words.slice(1, -1);
	const handed = sequences.length === 1 && only!.commands.length === 1 && only!.commands[0]!.redirects.length === 0 && shells.has(program(words)) && words.length >= 3;
	return handed && flags.length > 0 && flags.every(flag => /^-[a-z]*c[a-z]*$/.test(flag) || flag === '-l' || flag === '--login') && flags.some(flag => flag.includes('c') && !flag.startsWith('--')) ? words.at(-1) : undefined;
}

/** git's words without its own options before the subcommand, and the directory `-C` moves it to. */
function gitCommand(words: readonly string[], directory: string | undefined): {words: string[]; directory: string | undefined} {
	let at = 1;
	let where = directory;
	while (at < words.length && words[at]!.startsWith('-')) {
		if (gitValues.has(words[at]!)) {
			if (words[at] === '-C' && words[at + 1] !== undefined) {
				where = joinPath(where, words[at + 1]!);
			}

			at += 2;
		} else {
			at++;
		}
	}

	return {words: [words[0]!, ...words.slice(at)], directory: where};
}

/** What a `find` or `fd` looks for, or undefined when it also acts on what it finds. */
function listingQuery(name: string, words: readonly string[]): string | undefined {
	if (name === 'find') {
		if (words.some(word => findActions.has(word))) {
			return undefined;
		}

		const pattern = words.find((_word, index) => index > 0 && findPatterns.has(words[index - 1]!));
		return pattern ?? words.slice(1).find(word => !word.startsWith('-')) ?? '.';
	}

	if (words.some(word => fdActions.has(word))) {
		return undefined;
	}

	return operands(words, option => fdValues.has(option))[0] ?? words.slice(1).join(' ');
}

/**
 * Classifies a shell command: `cat/head/tail/bat/nl` or `sed -n` of files is a read, `rg/grep`
 * (also `git grep`) a search, and so is a `find` or `fd` that only lists what matches;
 * `git status`/`git diff` a status check, and anything that writes a file (a redirection, tee,
 * sed -i, mv, an apply_patch here-document) a write. Leading `cd` commands move the base
 * directory; anything else in sequence makes it "other". A script handed to a shell with `-c`
 * is classified as that script.
 */
export function classifyShell(command: string, base: string | undefined): ToolAction {
	if (command.includes('*** Begin Patch')) {
		const paths = patchPaths(command);
		return paths.length === 0 ? {kind: 'other'} : {kind: 'write', paths: paths.map(path => joinPath(base, path))};
	}

	const sequences = parse(command);
	const script = shellScript(sequences);
	if (script !== undefined) {
		return classifyShell(script, base);
	}

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
	let words = head!.words.filter((word, index) => index > 0 || !/^\w+=/.test(word));
	const name = program(words);
	if (name === 'git') {
		({words, directory} = gitCommand(words, directory));
	}

	const key = JSON.stringify([directory ?? null, [words.join(' '), ...rest.map(item => item.words.join(' '))]]);
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
		return pattern === undefined ? {kind: 'other'} : {kind: 'search', query: pattern, noMatchExit: true};
	}

	if (name === 'find' || name === 'fd' || name === 'fdfind') {
		const query = listingQuery(name, words);
		return query === undefined ? {kind: 'other'} : {kind: 'search', query, noMatchExit: false};
	}

	const isSedRead = name === 'sed' && words.includes('-n');
	const valueOptions = readers.get(name);
	if (valueOptions || isSedRead) {
		// sed's script is its first operand unless given with -e; its -n takes no value.
		const files = isSedRead ? operands(words, option => option === '-e' || option === '-f').slice(words.includes('-e') ? 0 : 1) : operands(words, option => valueOptions!.has(option));
		const paths = files.map(path => joinPath(directory, path));
		// The same files read the same way, however the paths were spelled.
		const readKey = JSON.stringify([words.filter(word => !files.includes(word)), paths, rest.map(item => item.words)]);
		return files.length === 0 ? {kind: 'other'} : {kind: 'read', paths, key: readKey};
	}

	return {kind: 'other'};
}
