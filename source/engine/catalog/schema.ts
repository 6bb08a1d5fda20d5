import type {Migration} from '../../lib/sqlite.js';

/**
 * `$XDG_CACHE_HOME/engi/catalog.sqlite`: what engi learned from each session unit, keyed by its
 * fingerprint, so unchanged files cost a stat. Derived and safe to delete; a schema change bumps
 * the version and the catalog is rebuilt on the next call. So does a change to what is masked:
 * titles, tails and the text index hold transcript text with secrets masked (11: more patterns;
 * 12: each tail's confidence and when each session was last written, stored beside it;
 * 13: per-session term counts; 14: a count of the writes to each root's rows, and answers kept under them;
 * 15: no change of tables: the adapters read more record shapes, and every session is read again
 * so titles, requests and failures are judged by them; 16: links a session's records state about
 * other sessions, its children; 17: no change of tables: the adapters read more record shapes
 * (Claude's steered prompts, teammate messages, recaps and unflagged compaction summaries; the tool
 * calls and results Gemini CLI messages' content holds; the folder a Copilot CLI 0.0.x session's
 * folder_trust notice names; Grok turns the person cancelled and its updates' millisecond times;
 * Claude's local-command output in other tags; Qwen Code records sharing a uuid joined, its tool
 * response turns, its legacy chats' projects; Gemini CLI turns a compression summarised kept in
 * the transcript; the parent's history a Codex fork or a Claude Code or Qwen Code /branch copies,
 * not the fork's own; Grok's requests inside <user_query>, interjections, code interpreter calls,
 * raw_output's server-run calls, and forks that are no subagents; OpenCode's rejected ("invalid")
 * calls and the records OpenCode 2.x keeps in `session_message`; Copilot CLI's injected
 * <skill-context>, messages another session sent and task_complete's closing summary; the Codex
 * rollouts cross_agent_session_resumer writes, timed in Unix seconds, with tool blocks in message
 * content), and every session is read again; 18: no change of tables: the adapters read more
 * (an Antigravity CLI conversation's project, from its app's history.jsonl; the name Claude
 * Code's /rename printed as its only record of it; the records a Claude Code session continued
 * in a new file carries over from the session it continues, not its own; Claude Code's
 * continued-in records and its 2.1.x bookkeeping and session-state records, known lines; Codex's
 * paginated thread items (`item_completed`), the parent context a paginated subagent inherits,
 * messages between agents, exit codes from the header above a command's output, a /review's
 * <user_action> result, and its usage and state records; Qwen Code's subagent transcripts; the
 * time a Cursor user turn's <timestamp> tag gives, and its [REDACTED] reasoning marker, no reply;
 * the chats an older Gemini CLI process recorded under one sessionId, each a session; records
 * torn mid-write or split over lines by raw newlines, read whole), and every session is read
 * again; 19: no change of tables: the adapters read more (a Claude Code hook's blocking error
 * written as an attachment, the host's text, the context hooks add, a notice, and a hook that
 * stopped the agent mid-turn, an interruption; a Claude Code reply cut off mid-stream, an
 * interruption; the "Warmup" transcripts Claude Code writes at startup, no conversation; images
 * in Claude and Codex tool results noted, not copied, and the tags Codex wraps a prompt's image
 * in, no request text; Codex server-run tool searches paired with their
 * output, code-mode cells whose status says they failed, the copied turns a subagent two forks
 * down inherits, and the names session_index.jsonl gives threads; an Antigravity CLI
 * conversation's workspace from its step database; a Cursor slug's project from its
 * .workspace-trusted; the name a Copilot CLI session's
 * workspace.yaml holds; Gemini CLI tool responses recorded flattened to text, no request, and a
 * file `gemini --resume` opened holding only host text, no conversation), and every session is
 * read again; 20: no change of tables: a file holding only the host's text (its context, a
 * command run in the CLI) is no conversation, whatever the source; and the adapters read more
 * (Claude Code's Cowork tasks and their chosen folders, messages from peer sessions and
 * coordinators, its own forked runs (compaction, prompt suggestion) as no conversation, records
 * it writes itself (<synthetic>, "(no content)", saved_hook_context) and the text it injects for
 * memory notes, MCP updates, webhooks and skills, a rejected call's feedback as a request, /btw
 * side questions; Codex's newer contextual fragments, voice
 * conversations, commands finished by a later poll, forks that reference their history, namespaced
 * MCP tools, internal threads, the desktop app's attachment list, a parentless subagent's parent;
 * Gemini CLI's JSON-era subagent chats, a recorder restarted in a chat's first minute, media
 * parts noted, prompts without their referenced files; Qwen Code's media, subagent tasks and
 * attachment tokens; Grok's
 * update stream before its chat-history cache; OpenCode forks, overflow replays and prompts
 * waiting in a 2.x inbox; Antigravity tool responses, interrupted steps, IDE tool names and subagent results; Copilot CLI block-scalar names, permission feedback, detached parents and chunked replies; the Cursor CLI's chat meta.json, plain
 * JSON store metadata, hyphenated tool blocks; images noted in Claude Code, Codex and Grok prompts; exit statuses only where each
 * shell template states them; VS Code replies stored as strings, hidden and feature-sent requests, tool calls awaiting
 * approval, queued requests, undone response parts, prompt-tsx tool results), and every
 * session is read again; 21: `archived`, whether the tool has put the session away (Codex's
 * archived_sessions/, Qwen Code's chats/archive/, OpenCode's time_archived, a Cowork task's
 * isArchived, whose state file joins its sessions' fingerprints), in the listing
 * indexes too: no archived session is an unfinished candidate; and what the readers now read:
 * a Claude Code prompt still queued at the end of its file (the tail's, through a JSONL
 * adapter's end-of-file step, and the line state keeps the queue), images a prompt attached
 * noted for Grok's update stream, Copilot CLI, VS Code, Cursor and OpenCode, Claude Code's
 * usage-limit reset time, queued prompts stored as blocks, string content items and attached
 * text documents; Copilot CLI shell-only exit statuses and 1.0.9x's shellExecution; Antigravity's
 * transcript_full.jsonl; VS Code warning parts; Grok's stopped turns; Cursor meta.json start
 * times; Cursor workspace-less transcripts, .txt thinking lines and tool inputs; Copilot prompts
 * behind a skill context; Antigravity plan approvals; VS Code confirmation requests; Grok
 * role-only chat lines; Claude cumulative reply snapshots; every session is read again); 22: no
 * change of tables: VS Code chats archived in the Agent Sessions view (only an archived chat's
 * fingerprint says so), and what the readers now read: Claude Code parallel tool calls and the
 * thinking between them no abandoned branch (a tree node keeps whether it is a reply's), a
 * compaction that keeps its latest messages, host-written AskUserQuestion feedback, an image
 * queued alone, 2.0.x bash notifications, subagent hand-backs, reminders appended to a Read's
 * output, nested subagents under the agent that started them; sessions claude-code-tools
 * trimmed, ported or rolled over (their copied history); Codex code-mode cells' commands and
 * patched files; Grok's native tool names and late tool arguments; OpenCode 2.x images in tool
 * results; a session naming itself as its parent; Codex notes in place of media it could not attach, attached audio, encrypted
 * content items, memory citations and plan blocks; Copilot CLI's per-message model; the
 * Antigravity CLI's workspace in a step database's field 7; VS Code workspaces and file references
 * written on Windows, and the one folder of a multi-root window; the Cursor CLI's project a worker.log states and subagents in folders of
 * their own; every session is read again); 23: no change of tables: Gemini's typed JSONL
 * message updates merged into their message, Claude Code records written again under their uuid
 * and time read once (the line state keeps the last few), JSONL records pretty-printed over many
 * lines, Antigravity conversations read from their step database, their parent and workspace
 * from the summary table, empty transcript logs passed over for written ones (Grok's too), Copilot
 * CLI and Codex names looked up again as a scan continues, Copilot's auto-mode model, the
 * Antigravity IDE's conversation list, Codex goals, harness-tagged and inherited items and copied
 * parent history, Grok context-only items and raw shell output, Claude background commands'
 * outcomes and transcript-only records, Codex MCP calls known only by their end, Copilot CLI
 * forks' parents, VS Code waits on questions, plan reviews and input, hooks, string commands and
 * tool calls saved twice; every session is read again); 24: no change of tables: images and
 * files a tool returned noted in its result (Grok, Copilot CLI, VS Code, OpenCode's attachments,
 * Cursor, converted Codex sessions), Antigravity background commands' outcomes and the CLI's
 * cache of each folder's last conversation, Claude Code's agent-name records, epoch timestamps,
 * ToolSearch's "Tool loaded." note and tool references, and the titles sessions-index.json kept,
 * Gemini and Qwen shell commands ended by a signal or a timeout, Qwen records written beside the
 * tail, Copilot CLI forks of forks, Codex requests after the request heading or a leading
 * environment context, Cursor line times, seconds in time tags and prompt images; every session
 * is read again); 25: no change of tables: Claude Code background tasks queued as JSON, background
 * agents' reports and the notifications naming only their agent, OpenCode shell commands killed
 * at their timeout or aborted, VS Code background-terminal notices, the Antigravity IDE's
 * overview.txt step log; every session is read again); 26: no change of tables: Claude Code and
 * Cursor message content given as one block object, the Codex desktop app's in-app-browser context
 * and question replies, Codex's flat message lines, an Antigravity command's output field, Grok
 * subagent sessions in their parent's directory and its subagent_fork/resume kinds, Cursor chat
 * stores' workspacePath and editor chats' composerHeaders name and workspace; every session is
 * read again); 27: no change of tables: Antigravity command results typed GENERIC and step-error
 * reports, Codex outputs written as an object, the model of Claude Code sessions and of Cursor
 * chats (store lastUsedModel, composerData modelConfig); every session is read again); 28: no
 * change of tables: the tenth audit's readings (Claude Code server tools and client copies,
 * Codex client copies and context, its failures told only in text, user shells and dynamic tools,
 * OpenCode's first message format, subtask commands and turn-ending rejections, VS Code's denied,
 * skipped and failed tools, Qwen Code's session agents) and bounded shell-status searches; every
 * session is read again); 29: no change of tables: Claude Code's async hook answers and 2.0.x
 * prompt-hook output in a prompt's text, Codex goal updates with a non-string turn id; every
 * session is read again); 30: no change of tables: Codex compaction summaries kept only in the
 * replacement history and reviews ended by an abort, Gemini CLI's shell-mode turns, continuation
 * nudges and loop feedback, Copilot CLI background shells' and agents' outcomes; every session is
 * read again); 31: no change of tables: OpenCode tools cut off by a failed request, VS Code's
 * saved conversation summaries; every session is read again).
 */
export const catalogMigrations: readonly Migration[] = [
	{
		version: 31,
		up(db) {
			db.exec(`
				CREATE TABLE units (
					key TEXT PRIMARY KEY,
					source TEXT NOT NULL,
					root TEXT NOT NULL,
					path TEXT NOT NULL,
					paths TEXT NOT NULL,
					variant TEXT,
					format TEXT NOT NULL,
					fingerprint TEXT NOT NULL,
					size INTEGER NOT NULL,
					mtime_ms REAL NOT NULL,
					-- When the session was last written (ms; see lastWritten), so SQL never parses a time.
					written_ms REAL NOT NULL,
					id TEXT,
					parent_id TEXT,
					project TEXT,
					started TEXT,
					modified TEXT,
					title TEXT,
					conversational INTEGER NOT NULL,
					archived INTEGER NOT NULL,
					records INTEGER NOT NULL,
					skipped INTEGER NOT NULL,
					-- 1 when the tail alone makes the session a candidate for unfinished (see tailJudgement).
					tail_open INTEGER NOT NULL,
					-- The confidence the tail alone gives (high, medium or low; see tailJudgement), so a
					-- summary counts confidences from the index, never reading or decoding a tail.
					tail_confidence TEXT NOT NULL,
					scanned_bytes INTEGER NOT NULL,
					next_line INTEGER NOT NULL,
					check_hash TEXT,
					error TEXT,
					-- The two wide JSON columns last: a row's narrow columns are read without stepping over them.
					summary TEXT NOT NULL,
					tail TEXT NOT NULL
				);
				-- Covers the warm refresh's question (which keys under a root, with which fingerprint)
				-- without touching the wide rows. The listing indexes (listingIndexes) come later.
				CREATE INDEX units_root ON units (source, root, key, fingerprint);
				-- Full text of what people and assistants wrote (secrets masked), one document per
				-- transcript line, in a contentless FTS5 table: the text itself is not stored. A
				-- document's rowid is its unit's number × 2^32 + its line (see textRowid), so a match
				-- names its session and line without a join.
				-- batches: how many batches of lines text_counts holds for the unit; counted: 0 once its
				-- counts cannot be trusted (a line indexed twice, too many batches), till it is read again.
				CREATE TABLE text_units (no INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE, docs INTEGER NOT NULL, batches INTEGER NOT NULL DEFAULT 0, counted INTEGER NOT NULL DEFAULT 1);
				CREATE INDEX text_units_uncounted ON text_units (no) WHERE counted = 0;
				-- Every indexed line, and the byte offset its rows can be read back from (NULL: the
				-- session must be loaded whole).
				CREATE TABLE text_lines (rowid INTEGER PRIMARY KEY, offset INTEGER);
				CREATE VIRTUAL TABLE text_fts USING fts5 (words, chars, content = '', contentless_delete = 1);
				-- How many lines of each unit hold each word, per batch of lines written: a document's rowid
				-- is its unit's number × 2^32 + its batch × 2^16 + that number of lines (see
				-- termCountRowid), and it holds the words (as text_fts's vocabulary spells them) that
				-- that many of the batch's lines hold. A broad word's count per session is then one short
				-- doclist, not one entry per matching line. The ascii tokenizer keeps each word as it is.
				CREATE VIRTUAL TABLE text_counts USING fts5 (terms, content = '', contentless_delete = 1, detail = none, tokenize = 'ascii');
				-- Listings an adapter may reuse while its files' stamp is unchanged (see DiscoveryMemo).
				CREATE TABLE discovery_memo (key TEXT PRIMARY KEY, stamp TEXT NOT NULL, value TEXT NOT NULL);
				-- How many times the rows of each store root were written (see countWrite in store.ts): a
				-- root's listing remembered under one count is not trusted under another. One row read
				-- per root, where counting the root's rows read its whole stretch of an index (~2 ms per
				-- root of 1,500 sessions, on every warm call). Kept by the store's writes, not by
				-- triggers: a statement with a trigger runs in a statement transaction, and each one makes
				-- FTS5 flush what it holds (a cold build paid that once per unit).
				CREATE TABLE root_writes (source TEXT NOT NULL, root TEXT NOT NULL, writes INTEGER NOT NULL, PRIMARY KEY (source, root)) WITHOUT ROWID;
				-- Answers about the sessions of a scope worked out once and kept under the write counts of
				-- its roots, so they hold exactly while no row of the scope is written (see scope-memo.ts).
				CREATE TABLE scope_memo (key TEXT PRIMARY KEY, stamp TEXT NOT NULL, value BLOB NOT NULL);
				CREATE TABLE offsets (
					key TEXT NOT NULL,
					line INTEGER NOT NULL,
					offset INTEGER NOT NULL,
					PRIMARY KEY (key, line)
				) WITHOUT ROWID;
			`);
			// What one session's records say about others: the sessions it started whose own records
			// do not name it (SessionInfo.children; an Antigravity parent's INVOKE_SUBAGENT step). A
			// child's row takes its parent from here (units.parent_id) when its own records name none,
			// whichever of the two was read first. Kept by the parent's key, rewritten when the parent
			// is read again and dropped when it is gone; looked up by child (the primary key) when a
			// session new to the catalog is saved, and by parent key when a parent's links change. A
			// row with an empty parent key marks a child whose links changed while its row (saved
			// already) shows the old parent; applied by id (store.ts relinkMarked) in the transaction
			// that marked it, or in a cold build, which has no id index yet, with the listing indexes:
			// kept in the catalog, so a build killed before those leaves the work to the next call.
			db.exec(`
				CREATE TABLE session_links (source TEXT NOT NULL, child_id TEXT NOT NULL, parent_key TEXT NOT NULL, parent_id TEXT NOT NULL, PRIMARY KEY (source, child_id, parent_key)) WITHOUT ROWID;
				CREATE INDEX session_links_parent ON session_links (parent_key);
			`);
		},
	},
];

/**
 * The indexes every listing reads, made once the catalog's first refresh has written its rows
 * (ensureListingIndexes), not with the table. Maintained row by row through a cold build, their
 * pages were spread among the text index's, thousands of pages apart: counting 15,000 sessions
 * touched ~900 pages of the memory map, one page fault each (~10 µs apiece on a virtual
 * machine), where an index made in one go fills neighbouring pages, which the kernel maps a run
 * at a time (~130 faults, 22 ms → 7 ms). A cold build also stops updating four indexes per row.
 */
export const listingIndexes: ReadonlyArray<{readonly name: string; readonly sql: string}> = [
	{name: 'units_id', sql: 'CREATE INDEX IF NOT EXISTS units_id ON units (id)'},
	// Every recorded project once (where checkpoint files are read from) by stepping over a narrow
	// index in order, with no sort of every unit's project.
	{name: 'units_project', sql: 'CREATE INDEX IF NOT EXISTS units_project ON units (project)'},
	// Listing and counting read only these narrow columns, newest first, never the wide rows.
	// parent_id first: top-level sessions come out newest first straight from the index, and
	// subagent counts per parent read it too.
	{name: 'units_listing', sql: 'CREATE INDEX IF NOT EXISTS units_listing ON units (parent_id, modified, source, root, conversational, error, project, id, key, mtime_ms, written_ms, tail_open, archived)'},
	// The same columns newest first for listings that include subagents (unfinished, standup).
	{name: 'units_recent', sql: 'CREATE INDEX IF NOT EXISTS units_recent ON units (modified, source, root, conversational, error, parent_id, project, id, key, mtime_ms, written_ms, tail_open, tail_confidence, archived)'},
	// How many lines each session has indexed, alone: every search averages it over all sessions,
	// which read the whole text_units table (its keys are long paths) on every call (13 → 2 ms at L).
	{name: 'text_units_docs', sql: 'CREATE INDEX IF NOT EXISTS text_units_docs ON text_units (docs)'},
	// The sessions that could not be parsed, alone: every search counts those in scope, which
	// stepped over all of units_recent (15,000 entries at L, ~4 ms) to find none.
	{name: 'units_unreadable', sql: 'CREATE INDEX IF NOT EXISTS units_unreadable ON units (key) WHERE error IS NOT NULL'},
];
