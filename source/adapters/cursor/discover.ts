import {basename, join} from 'node:path';
import {childPath, filesStamp, fileUnit, isDirectory, listDirectory, stem} from '../shared/fs.js';
import {factsBook, isOptionalString, type FactsBook} from '../shared/memo.js';
import {isRecord} from '../shared/text.js';
import type {DiscoveredUnit, DiscoveryMemo} from '../types.js';
import {archivedComposerIds, composerLookup, composerMark, globalStateDatabase, globalStateStamp, type ComposerFacts} from './composer.js';
import {chatStores, cursorHomeOf, localWorkspace, type ChatStore} from './projects.js';
import {chatFactFiles, readChatFacts} from './store-db.js';

const transcriptsDirectory = 'agent-transcripts';

/** The variant of an older build's plain-text transcript, `<id>.txt`: one document, read whole (text.ts). */
export const cursorTextVariant = 'txt';

function isTranscript(name: string): boolean {
	return name.endsWith('.jsonl') || name.endsWith('.txt');
}

function transcriptStem(name: string): string {
	return name.slice(0, name.lastIndexOf('.'));
}

/** Subagent transcripts sit in their parent session's folder; right under `agent-transcripts` it belongs to no session. */
const subagentsDirectory = 'subagents';

/** What discovery learns beside a transcript: its chat's metadata (with the chat's own cwd and, for a subagent, its parent), and the workspace a slug spells. */
type CursorFacts = {title?: string; started?: string; cwd?: string; parent?: string; model?: string; workspace?: string; archived?: string[]};
const isCursorFacts = (value: unknown): value is CursorFacts =>
	isRecord(value) &&
	(value['archived'] === undefined || (Array.isArray(value['archived']) && value['archived'].every(id => typeof id === 'string'))) &&
	isOptionalString(value['title']) &&
	isOptionalString(value['started']) &&
	isOptionalString(value['cwd']) &&
	isOptionalString(value['parent']) &&
	isOptionalString(value['model']) &&
	isOptionalString(value['workspace']);

/**
 * `projects/<slug>/agent-transcripts/` holds `<id>.jsonl` (older) or `<id>/<id>.jsonl` (newer)
 * transcripts, and subagents under `<parent id>/subagents/<id>.jsonl`. The id is the file stem;
 * another file in a session's folder is not a transcript.
 * Older builds wrote `<id>.txt` instead, plain text (text.ts), found by the same rules; a newer
 * build leaves it in place beside the JSONL it writes for the same chat, which is then the one read.
 * The slug spells the workspace path lossily (projects.ts): the project is the directory on this
 * machine that spells it, checked against the MD5 that names the session's chat store
 * (`chats/<md5>/<id>/store.db`, whose metadata also gives the chat's name and creation time). The
 * CLI's `meta.json` beside that store states the chat's cwd: the workspace itself, over the slug's.
 */
export function discoverCursor(root: string, memo?: DiscoveryMemo): DiscoveredUnit[] {
	const book = factsBook(memo, root, isCursorFacts);
	const home = cursorHomeOf(root);
	const stores = home === undefined ? new Map<string, ChatStore>() : chatStores(home);
	const editor = editorChats(home, book);
	const units = projectDirectories(root, home).flatMap(([project, slug]) => discoverProject(project, slug, stores, book, editor));
	editor.close();
	book.save();
	return units;
}

/** What the editor's global state database says of a chat (composer.ts), by session id and the transcript's fingerprint. */
type EditorChats = {facts(id: string, transcript: string): ComposerFacts; archived(id: string): boolean; close(): void};

/**
 * The editor's chats, asked only for a transcript no chat store names, and remembered per chat
 * under its transcript's fingerprint: the editor rewrites its database all the time, but a
 * chat's name, start and workspace change with its transcript, so a warm call asks the database
 * for those only where a transcript changed (a rename alone shows at the chat's next write). The
 * archived chats, which archiving marks without writing a transcript, are one small query made
 * when the database's stamp changed.
 */
function editorChats(home: string | undefined, book: FactsBook<CursorFacts>): EditorChats {
	const database = home === undefined ? undefined : globalStateDatabase(home);
	let lookup: ReturnType<typeof composerLookup> | undefined;
	// Archiving writes no transcript: the archived chats are asked again whenever the database changed.
	const archived = database === undefined ? new Set<string>() : new Set(book.facts('composer-archive', globalStateStamp(database), () => ({archived: archivedComposerIds(database)})).archived);
	return {
		facts: (id, transcript) => book.facts(`composer:${id}`, `${transcript}|${composerFactsVersion}`, () => (database === undefined ? {} : (lookup ??= composerLookup(database)).facts(id))),
		archived: id => archived.has(id),
		close: () => lookup?.close(),
	};
}

/** Raised when composerLookup learns more of a chat (2: its composerHeaders head; 3: its modelConfig's model), so facts remembered before are worked out again. */
const composerFactsVersion = 3;

/**
 * The project directories under a root, each with the slug that spells its workspace. cursor-agent
 * run outside any workspace writes `projects/agent-transcripts/` itself (the projects directory
 * standing in for a workspace's), beside every other chat's `projects/<slug>/`: those chats spell
 * no workspace. A root that is not a `projects` directory and holds `agent-transcripts` is one
 * project directory a user pointed --source-root at.
 */
function projectDirectories(root: string, home: string | undefined): Array<[project: string, slug: string | undefined]> {
	const hasOwn = isDirectory(join(root, transcriptsDirectory));
	if (hasOwn && home === undefined) {
		return [[root, basename(root)]];
	}

	const projects: Array<[string, string | undefined]> = listDirectory(root)
		.filter(entry => entry.isDirectory() && entry.name !== transcriptsDirectory)
		.map(entry => [join(root, entry.name), entry.name]);
	return hasOwn ? [[root, undefined], ...projects] : projects;
}

function discoverProject(project: string, slug: string | undefined, stores: ReadonlyMap<string, ChatStore>, book: FactsBook<CursorFacts>, editor: EditorChats): DiscoveredUnit[] {
	const found = discoverTranscripts(join(project, transcriptsDirectory));
	if (found.length === 0) {
		return [];
	}

	const md5 = found.map(unit => stores.get(unit.idHint ?? '')?.md5).find(hash => hash !== undefined);
	// Looked up again when the chat store's hash for it changes; a workspace is not expected to move.
	const workspace = slug === undefined ? undefined : book.facts(`workspace:${slug}`, md5 ?? '', () => {
		const path = localWorkspace(slug, md5);
		return path === undefined ? {} : {workspace: path};
	}).workspace;
	return found.map(unit => {
		const store = stores.get(unit.idHint ?? '');
		const stamp = store === undefined ? undefined : storeStamp(store.storeDb);
		const stored = store === undefined || stamp === undefined ? {} : book.facts(store.storeDb, `${stamp}|${chatFactsVersion}`, () => readChatFacts(store.storeDb));
		// An editor chat has no chat store: the editor's database names it instead.
		const named = stored.title === undefined && stored.started === undefined && unit.idHint !== undefined ? editor.facts(unit.idHint, unit.fingerprint) : {};
		const facts: CursorFacts = {...stored, ...named};
		// What discovery adds is part of what the catalog keeps, so a change to it means re-read.
		const archived = unit.idHint !== undefined && editor.archived(unit.idHint);
		const added = [workspace, stamp, composerMark(named), archived ? 'archived' : undefined].filter(Boolean);
		// Set in place, not spread into a copy: in a fresh process a spread takes V8's slow path.
		if (added.length > 0) {
			unit.fingerprint = `${unit.fingerprint}|${added.join('|')}`;
		}

		// The chat's own cwd is where it ran; the slug's spelling only narrows where that could be.
		const project = facts.cwd ?? workspace;
		if (project !== undefined) {
			unit.projectHint = project;
		}

		// A Task subagent often gets its own transcript folder beside its parent's, not one under
		// the parent's subagents/: only its chat store says whose it is.
		if (unit.parentIdHint === undefined && facts.parent !== undefined && facts.parent !== unit.idHint) {
			unit.parentIdHint = facts.parent;
		}

		if (archived) {
			Object.assign(unit, {archived: true}); // The person put the chat away in the editor.
		}

		if (facts.title || facts.started || facts.model) {
			unit.facts = {...(facts.title ? {title: facts.title} : {}), ...(facts.started ? {started: facts.started} : {}), ...(facts.model ? {model: facts.model} : {})};
		}

		return unit;
	});
}

/** Raised when readChatFacts learns more of a store (2: a subagent's parent; 3: its workspacePath; 4: its lastUsedModel), so facts remembered before are worked out again. */
const chatFactsVersion = 4;

/**
 * The stamp of a chat's fact files (store.db, its WAL, and meta.json): a status each, no read. The
 * CLI keeps store.db open in WAL mode, so a commit (the chat's name) lands in `store.db-wal` and
 * reaches store.db only at a checkpoint: without the WAL's status a rename would go unseen.
 */
function storeStamp(storeDb: string): string {
	const [store, meta] = chatFactFiles(storeDb);
	return filesStamp([store, `${store}-wal`, meta]);
}

type FileUnit = NonNullable<ReturnType<typeof fileUnit>>;

function discoverTranscripts(directory: string): FileUnit[] {
	const units: FileUnit[] = [];
	const push = (path: string, parentIdHint?: string) => {
		const text = path.endsWith('.txt');
		const unit = fileUnit(path, {idHint: stem(path, text ? '.txt' : '.jsonl'), parentIdHint, variant: text ? cursorTextVariant : undefined});
		if (unit) {
			units.push(unit);
		}
	};

	for (const entry of listDirectory(directory)) {
		const path = childPath(directory, entry.name);
		if (entry.isFile() && isTranscript(entry.name)) {
			push(path);
		} else if (entry.isDirectory() && entry.name !== subagentsDirectory) {
			// A session's folder: only the file named after it is its transcript.
			for (const inner of listDirectory(path)) {
				if (inner.isFile() && isTranscript(inner.name) && transcriptStem(inner.name) === entry.name) {
					push(childPath(path, inner.name));
				}
			}

			for (const child of listDirectory(join(path, subagentsDirectory))) {
				if (child.isFile() && isTranscript(child.name)) {
					push(join(path, subagentsDirectory, child.name), entry.name);
				}
			}
		}
	}

	return preferJsonl(units);
}

/** One session per id: a `.txt` whose id also has a JSONL transcript is the older copy of that chat. */
function preferJsonl(units: FileUnit[]): FileUnit[] {
	if (!units.some(unit => unit.variant === cursorTextVariant)) {
		return units; // Newer stores hold no `.txt`: nothing to compare.
	}

	const jsonlIds = new Set(units.filter(unit => unit.variant === undefined).map(unit => unit.idHint));
	return units.filter(unit => unit.variant !== cursorTextVariant || !jsonlIds.has(unit.idHint));
}
