import type {CommandDefinition} from './cli/define.js';

/**
 * The one table of commands. Each entry loads its definition on demand, so a call only pays
 * for the command it runs; help and suggestions need only the names and summaries here.
 */
export type CommandEntry = {
	readonly name: string;
	readonly summary: string;
	readonly load: () => Promise<CommandDefinition>;
};

const entry = (name: string, summary: string, load: () => Promise<CommandDefinition>): CommandEntry => ({name, summary, load});

export const commandTable: readonly CommandEntry[] = [
	entry('init', 'create a knowledge base and register it', async () => (await import('./commands/init.js')).default),
	entry('config get', 'print a configuration value', async () => (await import('./commands/config.js')).configGet),
	entry('config set', 'set a configuration value', async () => (await import('./commands/config.js')).configSet),
	entry('status', 'count nodes, edges, events and quarantined lines', async () => (await import('./commands/status.js')).default),
	entry('timeline', 'list journal events in order', async () => (await import('./commands/timeline.js')).default),
	entry('project', 'the project/task brief', async () => (await import('./commands/project.js')).default),
	entry('query', 'search the knowledge base by id or text', async () => (await import('./commands/query.js')).default),
	entry('harvest', 'check the staged notes in 00-inbox/harvest/', async () => (await import('./commands/harvest.js')).harvest),
	entry('ingest', 'append new and changed staged notes to the journal', async () => (await import('./commands/harvest.js')).ingest),
	entry('proposal apply', 'write a reviewed task proposal to the journal', async () => (await import('./commands/proposal.js')).proposalApply),
	entry('graph node', 'record or update a node', async () => (await import('./commands/graph.js')).graphNode),
	entry('graph relate', 'assert an edge between nodes', async () => (await import('./commands/graph.js')).graphRelate),
	entry('graph retract', 'retract an edge', async () => (await import('./commands/graph.js')).graphRetract),
	entry('wiki sync', 'read 02-wiki/ pages into the graph, holding conflicted pages', async () => (await import('./commands/wiki.js')).wikiSync),
	entry('trace', 'follow a clue from knowledge back to the transcripts it came from', async () => (await import('./commands/trace.js')).default),
	entry('dream', 'deterministic knowledge upkeep (steps 1-7)', async () => (await import('./commands/dream.js')).default),
	entry('index rebuild', 'rebuild the derived index from the journal', async () => (await import('./commands/index-rebuild.js')).default),
	entry('doctor', 'check the knowledge base without changing it', async () => (await import('./commands/doctor.js')).default),
	entry('sessions', 'list agent sessions, newest first', async () => (await import('./commands/sessions.js')).default),
	entry('read', 'read one agent session, a page at a time', async () => (await import('./commands/read.js')).default),
	entry('conversation', 'alias of read', async () => (await import('./commands/read.js')).default),
	entry('unfinished', 'sessions whose work looks unfinished', async () => (await import('./commands/unfinished.js')).default),
	entry('checkpoint record', 'record a progress checkpoint for a session', async () => (await import('./commands/checkpoint.js')).checkpointRecord),
	entry('checkpoint show', 'print a session\'s latest checkpoint', async () => (await import('./commands/checkpoint.js')).checkpointShow),
	entry('checkpoint list', 'latest checkpoint per session in a project', async () => (await import('./commands/checkpoint.js')).checkpointList),
	entry('resume', 'a bounded, evidence-linked brief to pick a session up', async () => (await import('./commands/resume.js')).default),
	entry('pickup', 'choose a session to continue and print how to resume it', async () => (await import('./commands/pickup.js')).default),
	entry('standup', 'the morning review across projects', async () => (await import('./commands/standup.js')).default),
	entry('candidates harvest', 'write a candidate note of each session in scope', async () => (await import('./commands/candidates-harvest.js')).candidatesHarvest),
	entry('candidates list', 'the review queue of candidate notes', async () => (await import('./commands/candidates.js')).candidatesList),
	entry('candidates show', 'one candidate note with its facts and claims', async () => (await import('./commands/candidates.js')).candidatesShow),
	entry('candidates evidence', 'a candidate\'s numbered turns, as untrusted evidence', async () => (await import('./commands/candidates-distill.js')).candidatesEvidence),
	entry('candidates accept', 'take a distillation through the citation filter', async () => (await import('./commands/candidates-distill.js')).candidatesAccept),
	entry('candidates distill', 'run a distiller command through the citation filter', async () => (await import('./commands/candidates-distill.js')).candidatesDistill),
	entry('candidates reject', 'mark a candidate rejected (the note is kept)', async () => (await import('./commands/candidates.js')).candidatesReject),
	entry('candidates promote', 'make a reviewed candidate durable knowledge', async () => (await import('./commands/candidates.js')).candidatesPromote),
	entry('middleware prepare', 'choose the context items that fit a token budget', async () => (await import('./commands/middleware.js')).middlewarePrepare),
	entry('middleware expand', 'the content of chosen context items, hash-checked', async () => (await import('./commands/middleware.js')).middlewareExpand),
	entry('retention plan', 'which sessions could be retired now, and what blocks the rest', async () => (await import('./commands/retention-plan.js')).retentionPlan),
	entry('retention attest', 'pin a closed session\'s bytes to the knowledge taken from it', async () => (await import('./commands/retention.js')).retentionAttest),
	entry('retention purge', 'delete one attested session\'s files (dry run unless --execute)', async () => (await import('./commands/retention.js')).retentionPurge),
	entry('retention sweep', 'retire every retirable session (dry run, then --execute --plan)', async () => (await import('./commands/retention.js')).retentionSweep),
	entry('retention log', 'purge attempts, receipts and failures, newest first', async () => (await import('./commands/retention.js')).retentionLogCommand),
	entry('artifact add', 'store a file in the content-addressed artifact store', async () => (await import('./commands/artifact.js')).artifactAdd),
	entry('artifact add-tree', 'record a directory tree by hash, without copying it', async () => (await import('./commands/artifact.js')).artifactAddTree),
	entry('artifact finalize', 'move final files into a collection and delete the rest (dry run unless --apply)', async () => (await import('./commands/artifact.js')).artifactFinalize),
	entry('demo', 'open the dashboard on an invented set of sessions', async () => (await import('./commands/demo.js')).default),
	entry('schema', 'print the JSON Schema of each command\'s output', async () => (await import('./commands/schema.js')).default),
	entry('mcp', 'serve the commands as MCP tools over stdio', async () => (await import('./commands/mcp.js')).default),
	entry('hook install', 'merge engi\'s session-end hook into an agent\'s config', async () => (await import('./commands/hook.js')).hookInstall),
	entry('hook run', 'queue the session an agent\'s hook names for a harvest', async () => (await import('./commands/hook.js')).hookRun),
	entry('hook pending', 'the sessions hooks queued, and whether a harvest took each', async () => (await import('./commands/hook.js')).hookPending),
	entry('guide', 'print or merge an AGENTS.md section on using engi', async () => (await import('./commands/guide.js')).default),
];

/** Command words that only introduce subcommands, e.g. `graph` in `engi graph node`. */
export const commandGroups: ReadonlySet<string> = new Set(commandTable.filter(entry => entry.name.includes(' ')).map(entry => entry.name.split(' ')[0]!));

/** Subcommands run when a group is given alone, e.g. `engi checkpoint` lists checkpoints. */
export const groupDefaults: Readonly<Record<string, string>> = {checkpoint: 'checkpoint list', candidates: 'candidates list', retention: 'retention plan', hook: 'hook pending'};

export async function loadCommand(name: string): Promise<CommandDefinition> {
	const found = commandTable.find(entry => entry.name === name);
	if (!found) {
		throw new Error(`no command ${name}`);
	}

	return found.load();
}
