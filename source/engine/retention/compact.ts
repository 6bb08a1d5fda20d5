import {lstatSync, mkdirSync, readdirSync, unlinkSync} from 'node:fs';
import {dirname, join, relative} from 'node:path';
import {loadAdapter} from '../../adapters/stores.js';
import type {SourceId} from '../../adapters/types.js';
import {authorOf} from '../conversation/author.js';
import {walkRows} from '../conversation/rows.js';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {nodeKind} from '../index/store.js';
import type {EventDraft} from '../journal/append.js';
import type {KbPaths} from '../kb/paths.js';
import {conversationNodeDraft, conversationNodeId} from '../knowledge/conversation-node.js';
import {writeEvents} from '../knowledge/write.js';
import {maskSecrets} from '../search/secrets.js';
import {createAtomicFile, isStaleTemporary} from '../../lib/atomic.js';
import {sha256} from '../../lib/hash.js';
import {pauseAt} from '../../lib/test-pause.js';
import type {Database} from '../../lib/sqlite.js';
import type {Assessment} from './assess.js';
import {receiptDraft} from './attest.js';
import {unitOf} from './candidates.js';
import {retentionKinds, toReceipt, type RetentionReceipt} from './journal.js';
import {pinTargets} from './pins.js';

export const compactProvenance = 'engi retention sweep (compact)';

/** `<root>/00-inbox/harvest/compact/<source>/<id>.jsonl`: outside the Markdown that harvest and ingest read. */
export function compactPath(paths: KbPaths, source: string, sessionId: string): string {
	return join(paths.harvest, 'compact', source, `${sessionId}.jsonl`);
}

export type Compaction = {
	readonly path: string;
	readonly bytes: number;
	readonly messages: number;
	/** The receipt the compact copy attests the session with. */
	readonly receipt: RetentionReceipt;
};

const flushBytes = 1024 * 1024;

/**
 * Writes a session's user and assistant text (secrets masked; host-injected text left out) as JSON lines `{line, role,
 * content, timestamp?, session?}` (`session` names a subagent inside it), into a temporary file
 * of this process's own, renamed into place once durable and read back, and only if the
 * session's files are exactly as they were hashed before: a session written meanwhile is left alone. Then journals the copy as a
 * CompactTranscript node DERIVED_FROM the conversation, and a receipt that pins the session's
 * bytes to it, which is what lets the sweep retire the session next.
 */
export async function compactSession(assessment: Assessment, catalog: Database, paths: KbPaths, deps: Deps): Promise<Compaction> {
	const {candidate} = assessment;
	const {unit} = candidate;
	const targets = assessment.scan!.targets;
	const pins = pinTargets(targets);
	const adapter = (await loadAdapter(unit.source as SourceId))!;
	const destination = compactPath(paths, unit.source, unit.session_id);
	try {
		mkdirSync(dirname(destination), {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(destination, error);
	}

	// A temporary of its own: a sweep racing this one on the same session writes its own copy beside it.
	const file = createAtomicFile(destination, 0o600);
	pauseAt(deps.env, 'retention.compact_started');
	const hash = sha256();
	let bytes = 0;
	let messages = 0;
	try {
		let pending: string[] = [];
		let pendingBytes = 0;
		const flush = () => {
			const chunk = Buffer.from(pending.join(''));
			file.write(chunk);
			hash.update(chunk);
			bytes += chunk.length;
			pending = [];
			pendingBytes = 0;
		};

		for (const part of [unit, ...candidate.nested]) {
			const session = part === unit ? undefined : part.session_id;
			walkRows(catalog, adapter, unitOf(part), {fromLine: 1}, row => {
				for (const event of row.events) {
					// The conversation itself: what people typed, what agents asked and answered; not the host's injections.
					const spoken = event.kind === 'assistant' || (event.kind === 'user' && authorOf(event) !== 'host');
					if (spoken && event.text?.trim()) {
						const line = `${JSON.stringify({line: event.line, role: event.kind, content: maskSecrets(event.text), ...(event.timestamp ? {timestamp: event.timestamp} : {}), ...(session ? {session} : {})})}\n`;
						pending.push(line);
						pendingBytes += line.length;
						messages++;
						if (pendingBytes >= flushBytes) {
							flush();
						}
					}
				}
			});
		}

		flush();
	} catch (error) {
		file.abort();
		// The copy's own writes fail as EngiErrors (write_failed); anything else came from reading the session.
		throw error instanceof EngiError ? error : readError((error as NodeJS.ErrnoException).path ?? unit.path, error);
	}

	file.commit(() => {
		pauseAt(deps.env, 'retention.compact_written');
		const changed = targets.find(target => {
			const now = lstatSync(target.path, {throwIfNoEntry: false});
			return !now || now.dev !== target.dev || now.ino !== target.ino || (target.kind === 'file' && (now.size !== target.bytes || now.mtimeMs !== target.mtime_ms));
		});
		if (changed) {
			throw new EngiError('source_changed', `${changed.path} changed while its session was compacted; the copy was discarded`, {hint: 'the session is still being written; the next sweep tries again'});
		}
	});
	const digest = hash.digest('hex');
	const conversation = conversationNodeId(unit.source as SourceId, unit.session_id);
	const compactId = `compact-transcript:${unit.source}:${unit.session_id}:${digest.slice(0, 16)}`;
	const main = pins.find(pin => pin.path === unit.path);
	const receipt = receiptDraft({source: unit.source as SourceId, id: unit.session_id, boundary: candidate.retirement!.boundary, pins, knowledge: [compactId], provenance: compactProvenance});
	await writeEvents(paths, deps, index => [
		...(nodeKind(index.db, conversation) !== undefined
			? []
			: [
					conversationNodeDraft({
						source: unit.source as SourceId,
						nativeId: unit.session_id,
						sourcePath: unit.path,
						sourceSha256: main?.sha256 ?? receipt.payload.source_sha256,
						sourceBytes: main?.bytes ?? receipt.payload.source_bytes,
						project: unit.project,
						title: unit.title,
						provenance: compactProvenance,
					}),
				]),
		{
			op: 'node.upsert',
			payload: {
				id: compactId,
				kind: retentionKinds.compact,
				label: `compact transcript of ${unit.source} session ${unit.session_id}`,
				provenance: compactProvenance,
				session_id: unit.session_id,
				source: unit.source,
				path: relative(paths.root, destination),
				sha256: digest,
				bytes,
				messages,
				source_sha256: receipt.payload.source_sha256,
				source_bytes: receipt.payload.source_bytes,
			},
		},
		{op: 'edge.assert', payload: {from: compactId, type: 'DERIVED_FROM', to: conversation, provenance: compactProvenance}},
		receipt,
	] satisfies EventDraft[]);
	return {path: destination, bytes, messages, receipt: toReceipt({id: receipt.payload.id, payload: receipt.payload, line: 0})};
}

/**
 * A session's file that could not be read while it was copied. Gone (a racing sweep retired it,
 * or its tool deleted it) is a source that changed, which the next sweep sees as it is now.
 */
function readError(path: string, error: unknown): EngiError {
	const code = systemErrorCode(error);
	if (code === 'ENOENT' || code === 'ENOTDIR') {
		return new EngiError('source_changed', `${path} was removed while its session was compacted; the copy was discarded`, {hint: 'the next sweep plans from the files as they are now'});
	}

	return new EngiError('source_unreadable', `could not read ${path} while compacting its session (${code ?? 'error'}); the copy was discarded`, {hint: 'check the file\'s permissions; the next sweep tries again'});
}

/**
 * Before a sweep compacts anything: the copies that killed sweeps left half-written go, the
 * temporaries of processes no longer running and the `.partial` files engi wrote its copies
 * through before each had a temporary of its own.
 */
export function removeUnfinishedCopies(paths: KbPaths): void {
	const root = join(paths.harvest, 'compact');
	let sources: string[];
	try {
		sources = readdirSync(root);
	} catch {
		return;
	}

	for (const source of sources) {
		const directory = join(root, source);
		let names: string[];
		try {
			names = readdirSync(directory);
		} catch {
			continue;
		}

		for (const name of names.filter(entry => isStaleTemporary(entry) || entry.endsWith('.jsonl.partial'))) {
			try {
				unlinkSync(join(directory, name));
			} catch {}
		}
	}
}
