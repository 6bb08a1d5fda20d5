import * as z from 'zod/mini';
import {lazySchema} from '../../../lib/lazy-schema.js';

const layerNames = ['attachments', 'edges', 'strings', 'rows'] as const;

export const attachmentEntrySchema = lazySchema(() => z.object({
	record: z.number(),
	line: z.number(),
	pointer: z.string(),
	kind: z.enum(['image', 'media', 'encrypted_reasoning']),
	bytes: z.number(),
	sha256: z.string(),
}));

/**
 * A packet as printed: its outermost layer, which names the layers used (outermost first) and
 * carries the guide; the inner layers and the page are in `page` (docs/encodings.md).
 */
export const packetSchema = lazySchema(() => {
	const outer = {layers: z.array(z.enum(layerNames)), guide: z.string()};
	return z.discriminatedUnion('encoding', [
		z.object({encoding: z.literal('engi.attachments.v1'), ...outer, attachments: z.array(attachmentEntrySchema), page: z.unknown()}),
		z.object({encoding: z.literal('engi.edges.v1'), ...outer, join_key: z.string(), fragments: z.array(z.string()), page: z.unknown()}),
		z.object({encoding: z.literal('engi.strings.v1'), ...outer, ref_key: z.string(), texts: z.array(z.string()), page: z.unknown()}),
		z.object({encoding: z.literal('engi.rows.v1'), ...outer, layouts: z.array(z.unknown()), rows: z.array(z.unknown()), page: z.unknown()}),
	]);
});

export type Packet = z.infer<typeof packetSchema>;

/** `--attachment`: the value an attachment reference stood for, checked against its hash. */
export const attachmentValueSchema = lazySchema(() => z.object({
	status: z.literal('ok'),
	session_id: z.string(),
	source: z.string(),
	line: z.number(),
	pointer: z.string(),
	bytes: z.number(),
	sha256: z.string(),
	value: z.string(),
}));

export type AttachmentValue = z.infer<typeof attachmentValueSchema>;
