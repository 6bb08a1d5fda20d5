import type {SessionEvent, SessionRow} from '../events.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import {openReadOnlyInPlace} from '../../lib/sqlite.js';
import {isRecord} from '../shared/text.js';
import {SessionCorruptError, type DiscoveredUnit, type LineState, type LoadedSession} from '../types.js';
import {conversationWorkspace} from './conversation-db.js';
import {normalizeAntigravityLine} from './normalize.js';
import {protoBytes, protoFields, protoText, protoVarint, type ProtoField} from './protobuf.js';

/**
 * A conversation discovery lists from the `agy` CLI's step database, `<app>/conversations/<id>.db`
 * (variant stepDatabaseVariant), because it has no transcript to read: builds that create
 * `transcript.jsonl` and never write to it (every one of a Windows store's transcripts empty, the
 * steps only in the database: ImL1s/resume-skills issue #248), and conversations with a database
 * and no brain directory. The database's `steps(idx, step_type, step_payload)` rows, in step order. The payload is an
 * undocumented protobuf message; what other readers of these databases decode of it is read here
 * (yangzichao/JustSessions Services/Transcript/Antigravity/AntigravityTranscriptReader.swift and
 * AntigravityTranscriptTimestamp.swift, Adapters/Antigravity/AntigravitySQLiteReader.swift):
 * - field 4, the step's status: 4 and 5 mark a step made invalid or cleared by a rewind or a
 *   compaction, no longer part of the conversation;
 * - field 5, its metadata: field 1 the time it was made (`{1: seconds, 2: nanos}`), field 3 its
 *   source (4: USER_EXPLICIT, what a person typed; any other: context the host added);
 * - step type 14, USER_INPUT: field 19 holds the request, as text in its field 2 (1 in some);
 * - step type 15, PLANNER_RESPONSE: field 20 holds the reply, its text in field 8 (or 1) and each
 *   tool call in a field 7 (`{2: name, 3: arguments as JSON text}`).
 * Each step becomes the step a transcript line would hold and is read by the transcript's own
 * normaliser, so both layouts give the same events. Other step types (tool results, thinking,
 * bookkeeping) have no known layout and are passed over, not counted as damage.
 */
export function loadAntigravityStepDb(unit: DiscoveredUnit): LoadedSession {
	const steps = readSteps(unit.path);
	const state: LineState = {};
	const rows: SessionRow[] = [];
	const workspace = conversationWorkspace(unit.path);
	if (workspace !== undefined) {
		rows.push({line: 1, raw: {workspace}, events: [{line: 1, kind: 'meta', session: {cwd: workspace}}]});
	}

	// The workspace is stated above; the normaliser need not look for it again.
	const reading: DiscoveredUnit = workspace === undefined ? unit : {...unit, projectHint: workspace};
	let skipped = 0;
	steps.forEach((row, index) => {
		const line = index + 1;
		const step = stepOf(row);
		if (step === 'damaged') {
			skipped++;
			return;
		}

		if (step === undefined) {
			return;
		}

		let events: SessionEvent[] | null;
		try {
			const read = normalizeAntigravityLine(step, line, state, reading);
			events = Array.isArray(read) ? read : null;
		} catch {
			events = null;
		}

		if (events === null) {
			skipped++;
		} else {
			rows.push({line, raw: step, events});
		}
	});
	return {rows, skipped, warnings: skipped > 0 ? [`${skipped} step${skipped === 1 ? '' : 's'} of the step database could not be decoded`] : []};
}

type StepRow = {readonly idx: unknown; readonly type: unknown; readonly payload: unknown};

/**
 * The steps in order: none in a database without a steps table (another build's, one only just
 * created), which holds no conversation. A file that is no database cannot be read at all.
 */
function readSteps(path: string): StepRow[] {
	try {
		const db = openReadOnlyInPlace(path);
		try {
			db.pragma('busy_timeout = 250');
			if (db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'steps'").get() === undefined) {
				return [];
			}

			return db.prepare('SELECT idx, step_type AS type, step_payload AS payload FROM steps ORDER BY idx').all() as StepRow[];
		} finally {
			db.close();
		}
	} catch {
		throw new SessionCorruptError(path, null, 'not a readable Antigravity step database');
	}
}

const userInputType = 14;
const plannerResponseType = 15;
/** Statuses of a step no longer in the conversation: made invalid, or cleared by a rewind or compaction. */
const removedStatuses = new Set([4, 5]);
const userExplicitSource = 4;

/** The transcript step one database row holds; undefined for a type not decoded or a removed step. */
function stepOf(row: StepRow): Record<string, unknown> | 'damaged' | undefined {
	if ((row.type !== userInputType && row.type !== plannerResponseType) || !Buffer.isBuffer(row.payload)) {
		return undefined;
	}

	const fields = protoFields(row.payload);
	if (fields === undefined) {
		return 'damaged';
	}

	if (removedStatuses.has(protoVarint(fields, 4) ?? -1)) {
		return undefined;
	}

	const metadata = protoFieldsOf(protoBytes(fields, 5));
	const createdAt = timeOf(protoFieldsOf(protoBytes(metadata, 1)));
	const step: Record<string, unknown> = {
		...(typeof row.idx === 'number' && Number.isSafeInteger(row.idx) ? {step_index: row.idx} : {}),
		...(createdAt === undefined ? {} : {created_at: createdAt}),
	};
	return row.type === userInputType ? userInputStep(step, fields, protoVarint(metadata, 3)) : plannerStep(step, fields);
}

function userInputStep(step: Record<string, unknown>, fields: ProtoField[], source: number | undefined): Record<string, unknown> | 'damaged' {
	const input = protoFieldsOf(protoBytes(fields, 19));
	const content = protoText(input, 2) ?? protoText(input, 1);
	if (content === undefined) {
		return 'damaged';
	}

	// No source is what a person typed, as JustSessions reads it; any source but 4 the host added.
	const named = source === undefined ? {} : {source: source === userExplicitSource ? 'USER_EXPLICIT' : 'USER_IMPLICIT'};
	return {...step, ...named, type: 'USER_INPUT', content};
}

function plannerStep(step: Record<string, unknown>, fields: ProtoField[]): Record<string, unknown> | 'damaged' {
	const response = protoFieldsOf(protoBytes(fields, 20));
	if (response === undefined) {
		return 'damaged';
	}

	const content = protoText(response, 8) ?? protoText(response, 1);
	const calls = response.filter(item => item.field === 7 && item.bytes !== undefined).flatMap(item => {
		const call = protoFieldsOf(item.bytes);
		const name = protoText(call, 2);
		return name ? [{name, args: argumentsOf(protoText(call, 3))}] : [];
	});
	return {...step, source: 'MODEL', type: 'PLANNER_RESPONSE', ...(content === undefined ? {} : {content}), ...(calls.length > 0 ? {tool_calls: calls} : {})};
}

/**
 * A call's arguments, JSON text: the object it holds, whose values the normaliser decodes as it
 * does a transcript's (where each is JSON text again); text that is no JSON object is kept whole.
 */
function argumentsOf(text: string | undefined): unknown {
	if (text === undefined) {
		return {};
	}

	try {
		const value: unknown = parseBoundedJson(text);
		return isRecord(value) ? value : text;
	} catch {
		return text;
	}
}

function protoFieldsOf(bytes: Buffer | undefined): ProtoField[] | undefined {
	return bytes === undefined ? undefined : protoFields(bytes);
}

/** A protobuf Timestamp (`{1: seconds, 2: nanos}`) as an ISO time; undefined when absent or out of range. */
function timeOf(timestamp: ProtoField[] | undefined): string | undefined {
	const seconds = protoVarint(timestamp, 1);
	const nanos = protoVarint(timestamp, 2) ?? 0;
	if (seconds === undefined || nanos >= 1e9) {
		return undefined;
	}

	const time = new Date(seconds * 1000 + Math.floor(nanos / 1e6));
	return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}
