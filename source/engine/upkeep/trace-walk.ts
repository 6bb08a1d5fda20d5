import {closeSync, fstatSync, lstatSync, openSync, readSync} from 'node:fs';
import {isAbsolute, join} from 'node:path';
import {isSourceId, type SourceId} from '../../adapters/types.js';
import {sha256Hex} from '../../lib/hash.js';
import {pointerPart} from '../conversation/codec/attachments.js';
import {isPlainObject} from '../conversation/codec/decode.js';
import {edgesTouching, getNode, type Moment} from '../index/store.js';
import type {Database} from '../../lib/sqlite.js';
import type {KbPaths} from '../kb/paths.js';
import type {TraceBudget} from './trace-budget.js';
import type {TraceHop} from './trace-schema.js';
import {sourceKind} from './vocabulary.js';

/** A transcript the walk reached: by a Conversation node (source known) or by a session id an evidence file names (any source). */
export type SessionTarget = {readonly seed: string; readonly hops: TraceHop[]; readonly nodeId: string | null; readonly source: SourceId | null; readonly sessionId: string};

/** The edges a trace follows and which way: knowledge to what it came from and where it was discussed, an artifact back to the conversation that delivered it. */
const followed: Array<{type: TraceHop['type']; direction: TraceHop['direction']}> = [
	{type: 'DERIVED_FROM', direction: 'forward'},
	{type: 'DISCUSSED_IN', direction: 'forward'},
	{type: 'DELIVERED', direction: 'reverse'},
];

/** Fields of an evidence file that name a session (innen's descriptors). */
const sessionRefKeys = new Set(['session_id', 'conversation_id', 'origin_session_id']);

type Visit = {id: string; seed: string; hops: TraceHop[]};

/** The session a Conversation node stands for (`conversation:<source>:<native id>`, conversation-node.ts). */
function sessionOf(id: string, payload: Record<string, unknown>): {source: SourceId; sessionId: string} | undefined {
	const source = payload['source'];
	const nativeId = payload['native_id'];
	if (typeof source === 'string' && isSourceId(source) && typeof nativeId === 'string') {
		return {source, sessionId: nativeId};
	}

	const parsed = /^conversation:([a-z]+):(.+)$/.exec(id);
	return parsed && isSourceId(parsed[1]!) ? {source: parsed[1]!, sessionId: parsed[2]!} : undefined;
}

/** The file a node is evidence in: an artifact's stored copy (relative to the root), or a Source node that names an absolute path. */
function evidenceFileOf(paths: KbPaths, kind: string | null, label: string | null, payload: Record<string, unknown>): string | undefined {
	const path = payload['path'];
	if (kind === 'Artifact' && typeof path === 'string') {
		return isAbsolute(path) ? path : join(paths.root, path);
	}

	return kind === sourceKind && label !== null && isAbsolute(label) ? label : undefined;
}

/** Every string under a session-ref key, with its JSON pointer. */
function sessionRefs(value: unknown, at: string, found: Array<{pointer: string; id: string}>): void {
	if (Array.isArray(value)) {
		value.forEach((item, index) => sessionRefs(item, at + pointerPart(index), found));
	} else if (isPlainObject(value)) {
		for (const [key, child] of Object.entries(value)) {
			if (sessionRefKeys.has(key) && typeof child === 'string' && child.trim() !== '') {
				found.push({pointer: at + pointerPart(key), id: child.trim()});
			} else {
				sessionRefs(child, at + pointerPart(key), found);
			}
		}
	}
}

/** The session ids a JSON or JSONL evidence file names; a file that is neither names none. */
function refsInText(text: string): Array<{pointer: string; id: string}> {
	const found: Array<{pointer: string; id: string}> = [];
	try {
		sessionRefs(JSON.parse(text), '', found);
		return found;
	} catch {}

	for (const [index, line] of text.split('\n').entries()) {
		try {
			sessionRefs(JSON.parse(line), pointerPart(index), found);
		} catch {}
	}

	return found;
}

/**
 * Reads one evidence file whole if the budget has a source and its size left (a symlink or
 * anything but a regular file is not followed): its hash and the session ids it names.
 */
function readEvidenceFile(file: string, budget: TraceBudget): {sha256: string; refs: Array<{pointer: string; id: string}>} | undefined {
	try {
		if (!lstatSync(file).isFile()) {
			return undefined;
		}
	} catch {
		return undefined;
	}

	const fd = openSync(file, 'r');
	try {
		const size = fstatSync(fd).size;
		if (!budget.source() || !budget.bytes(size)) {
			return undefined;
		}

		const buffer = Buffer.alloc(size);
		let read = 0;
		while (read < size) {
			const got = readSync(fd, buffer, read, size - read, read);
			if (got === 0) {
				break;
			}

			read += got;
		}

		const bytes = buffer.subarray(0, read);
		return {sha256: sha256Hex(bytes), refs: refsInText(bytes.toString('utf8'))};
	} finally {
		closeSync(fd);
	}
}

/**
 * Walks from the seeds breadth-first (so each transcript is reached by its shortest path, seeds
 * in rank order first) along the typed provenance hops, as of the moment, within the budget's
 * nodes and depth; evidence files on the way are read for the sessions they name. Returns the
 * transcripts reached, each once, by the first path that reached it.
 */
export function walkProvenance(db: Database, paths: KbPaths, seeds: readonly string[], moment: Moment, budget: TraceBudget): SessionTarget[] {
	const queue: Visit[] = seeds.map(id => ({id, seed: id, hops: []}));
	const visited = new Set<string>();
	const targets = new Map<string, SessionTarget>();
	const addTarget = (target: SessionTarget) => {
		const key = `${target.source ?? '*'}\u0000${target.sessionId}`;
		if (!targets.has(key)) {
			targets.set(key, target);
		}
	};

	for (let next = 0; next < queue.length; next++) {
		const visit = queue[next]!;
		if (visited.has(visit.id)) {
			continue;
		}

		if (!budget.node()) {
			break;
		}

		visited.add(visit.id);
		const node = getNode(db, visit.id, moment);
		if (!node) {
			continue;
		}

		const session = node.kind === 'Conversation' || visit.id.startsWith('conversation:') ? sessionOf(visit.id, node.payload) : undefined;
		if (session) {
			addTarget({seed: visit.seed, hops: visit.hops, nodeId: visit.id, ...session});
		}

		const depth = visit.hops.length + 1;
		const file = evidenceFileOf(paths, node.kind, node.label, node.payload);
		if (file !== undefined && budget.depth(depth)) {
			const evidence = readEvidenceFile(file, budget);
			for (const ref of evidence?.refs ?? []) {
				const hop: TraceHop = {type: 'METADATA_SESSION_REF', direction: 'forward', from: visit.id, to: ref.id, parent_sha256: evidence!.sha256, pointer: ref.pointer};
				addTarget({seed: visit.seed, hops: [...visit.hops, hop], nodeId: null, source: null, sessionId: ref.id});
			}
		}

		for (const edge of edgesTouching(db, visit.id, moment)) {
			const rule = followed.find(entry => entry.type === edge.type && (entry.direction === 'forward' ? edge.from_id === visit.id : edge.to_id === visit.id));
			const to = rule?.direction === 'forward' ? edge.to_id : edge.from_id;
			if (!rule || visited.has(to) || !budget.depth(depth)) {
				continue;
			}

			queue.push({id: to, seed: visit.seed, hops: [...visit.hops, {type: rule.type, direction: rule.direction, from: visit.id, to, parent_sha256: null, pointer: null}]});
		}
	}

	return [...targets.values()];
}
