import * as z from 'zod/mini';
import type {StoreSelection} from '../catalog/targets.js';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {sha256Hex} from '../../lib/hash.js';
import {parseInputJson, readBoundedInput} from '../../lib/bounded-input.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {encodingNames, isPlainObject, PacketError, resolvePointer} from './codec/decode.js';
import {encodePage, type EncodeOptions} from './codec/encode.js';
import {guideFor} from './codec/guide.js';
import {attachmentValueSchema, packetSchema, type AttachmentValue, type Packet} from './codec/schema.js';
import {validatePacket} from './codec/validate.js';
import {readConversation, readOutputSchema, type ReadInput, type ReadOutput} from './read.js';

/** What `engi read` prints: a page, a packet of it, or one attachment's value. */
export const readResultSchema = lazySchema(() => z.union([readOutputSchema, packetSchema, attachmentValueSchema]));
export type ReadResult = z.infer<typeof readResultSchema>;

export type {EncodeOptions} from './codec/encode.js';

export const plainPage: EncodeOptions = {compact: false, deltas: false, attachmentRefs: false};

/** A page (or a brief) with the encodings asked for; the document itself when none is, or none makes it smaller. */
export function encodeDocument<Document extends object>(document: Document, options: EncodeOptions): Document | Packet {
	if (!options.compact && !options.attachmentRefs) {
		return document;
	}

	return encodePage(document as Record<string, unknown>, options).document as Document | Packet;
}

/** `engi read` and `resume` pages: read (pruned if asked), then encoded. */
export async function readEncoded(input: ReadInput & {readonly encoding: EncodeOptions}, deps: Deps): Promise<ReadOutput | Packet> {
	if (input.encoding.attachmentRefs && (input.lines ? 'events' : input.view) !== 'events') {
		throw new EngiError('conflicting_flags', `--attachment-refs works on native records (the events view), not --view ${input.view}`, {hint: 'add --view events, or drop --attachment-refs'});
	}

	return encodeDocument(await readConversation(input, deps), input.encoding);
}

export type AttachmentInput = StoreSelection & {
	readonly id: string;
	readonly line: number;
	readonly pointer: string;
	readonly sha256: string;
	readonly masked?: boolean;
};

/**
 * The value an attachment reference stood for: the native record on `line` read again, the
 * pointer followed, and the value returned only when its SHA-256 is the one expected. Through
 * `resume` the record is masked first, as the page that listed the attachment was.
 */
export async function readAttachment(input: AttachmentInput, deps: Deps): Promise<AttachmentValue> {
	if (input.pointer !== '' && !input.pointer.startsWith('/')) {
		throw new EngiError('invalid_flag_value', `--attachment must be a JSON pointer such as /message/content/0/source/data, got "${input.pointer}"`, {hint: 'copy the pointer from the page\'s attachments table'});
	}

	const page = await readConversation({id: input.id, source: input.source, sourceRoot: input.sourceRoot, view: 'events', offset: 0, limit: 1, lines: [input.line], masked: input.masked}, deps);
	const values = page.records.map(record => resolvePointer((record as {event: unknown}).event, input.pointer)).filter((value): value is string => typeof value === 'string');
	if (values.length === 0) {
		throw new EngiError('attachment_not_found', `line ${input.line} of ${page.source_path} has no text value at ${input.pointer}`, {hint: 'take the line and pointer from the attachments table of the page that listed it'});
	}

	const expected = input.sha256.toLowerCase();
	const value = values.find(candidate => sha256Hex(candidate) === expected);
	if (value === undefined) {
		throw new EngiError('attachment_hash_mismatch', `the value at ${input.pointer} on line ${input.line} has SHA-256 ${sha256Hex(values[0]!)}, not ${expected}`, {
			hint: 'the transcript changed since the page was read, or the hash was mistyped; read the page again for the current table',
		});
	}

	return {status: 'ok', session_id: page.session_id, source: page.source, line: input.line, pointer: input.pointer, bytes: Buffer.byteLength(value), sha256: expected, value};
}

function packetFailure(error: unknown, name: string): never {
	if (error instanceof PacketError) {
		throw new EngiError(error.code, `${name}: ${error.message}`, {hint: error.code === 'not_a_page' ? 'give a page engi read printed (it has "records")' : 'the packet is damaged; read the page again'});
	}

	throw error;
}

/** The document of an offline file, with the `schema` name engi prints in front of every document dropped. */
async function readDocument(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<Record<string, unknown>> {
	const name = file === '-' ? 'stdin' : file;
	const value = parseInputJson(await readBoundedInput(file, stdin, cwd), name);
	if (!isPlainObject(value)) {
		throw new EngiError('not_a_page', `${name} holds no JSON object`, {hint: 'give a page or a packet engi read printed'});
	}

	const {schema, ...rest} = value;
	return typeof schema === 'string' && /^engi\.[\w.]+\.v\d+$/.test(schema) ? rest : value;
}

/** `--encode-json`: a page saved earlier, encoded offline. */
export async function encodeJsonFile(file: string, options: EncodeOptions, stdin: NodeJS.ReadableStream, cwd: string): Promise<ReadOutput | Packet> {
	const page = await readDocument(file, stdin, cwd);
	if (Object.hasOwn(page, 'encoding')) {
		throw new EngiError('already_encoded', `${file} is already a packet (it has "encoding")`, {hint: 'decode it first with --decode-packet'});
	}

	if (!Array.isArray(page['records'])) {
		throw new EngiError('not_a_page', `${file} is not a page: it has no "records" array`, {hint: 'give a page engi read printed'});
	}

	return encodePage(page, options).document as ReadOutput | Packet;
}

/** `--validate-packet`: the packet unchanged when every layer of it is sound; a typed error naming the first flaw otherwise. */
export async function validatePacketFile(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<Packet> {
	const packet = await readDocument(file, stdin, cwd);
	try {
		validatePacket(packet);
	} catch (error) {
		packetFailure(error, file);
	}

	return packet as Packet;
}

/** `--decode-packet`: the page again; an attachments layer stays around it (its values are not in the packet). */
export async function decodePacketFile(file: string, stdin: NodeJS.ReadableStream, cwd: string): Promise<ReadOutput | Packet> {
	const packet = await readDocument(file, stdin, cwd);
	// A page no layer made smaller was printed plain: it is its own decoding.
	if (!Object.hasOwn(packet, 'encoding') && Array.isArray(packet['records'])) {
		return packet as ReadOutput;
	}

	let decoded: unknown;
	try {
		decoded = validatePacket(packet);
	} catch (error) {
		packetFailure(error, file);
	}

	if (isPlainObject(decoded) && decoded['encoding'] === encodingNames.attachments) {
		return {encoding: encodingNames.attachments, layers: ['attachments'], guide: guideFor(['attachments'], {}), attachments: decoded['attachments'], page: decoded['page']} as Packet;
	}

	return decoded as ReadOutput;
}
