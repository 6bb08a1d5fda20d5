import {encodeAttachments} from './attachments.js';
import type {LayerName} from './decode.js';
import {encodeEdges} from './edges.js';
import {guideFor, type GuideKeys} from './guide.js';
import {jsonBytes} from './keys.js';
import {encodeRows} from './rows.js';
import {encodeStrings} from './strings.js';

export type EncodeOptions = {
	/** The rows and strings layers. */
	readonly compact: boolean;
	/** The edges layer on top (only with compact). */
	readonly deltas: boolean;
	/** Images and encrypted reasoning of native records replaced by references. */
	readonly attachmentRefs: boolean;
};

export type Encoded = {
	/** The packet, or the page itself when no layer made it smaller. */
	readonly document: Record<string, unknown>;
	/** The layers used, outermost first (the order to undo them); empty for the plain page. */
	readonly layers: LayerName[];
};

type Layer = {encoding: string; page: unknown} & Record<string, unknown>;

/**
 * Encodes a page (`{…, records: […]}`) with the layers asked for, each kept only when the
 * serialised document gets smaller, and the whole packet only when it, guide included, is
 * smaller than the plain page. Attachment references come first (innermost), then rows,
 * strings and edges.
 */
export function encodePage(page: Record<string, unknown>, options: EncodeOptions): Encoded {
	const plainBytes = jsonBytes(page);
	let body: Record<string, unknown> = page;
	let attachments: Layer | undefined;
	if (options.attachmentRefs) {
		const layer = encodeAttachments(page);
		if (layer && jsonBytes(layer) < plainBytes) {
			attachments = layer;
			body = layer.page as Record<string, unknown>;
		}
	}

	let document: unknown = body;
	let bytes = attachments ? jsonBytes(body) : plainBytes;
	const compact: LayerName[] = [];
	const keys: GuideKeys = {};
	const attempt = (name: LayerName, layer: Layer | undefined) => {
		if (!layer) {
			return;
		}

		const size = jsonBytes(layer);
		if (size < bytes) {
			document = layer;
			bytes = size;
			compact.unshift(name);
			if (name === 'strings') {
				keys.refKey = layer['ref_key'] as string;
			} else if (name === 'edges') {
				keys.joinKey = layer['join_key'] as string;
			}
		}
	};

	if (options.compact) {
		attempt('rows', encodeRows(body));
		attempt('strings', encodeStrings(document));
		if (options.deltas) {
			attempt('edges', encodeEdges(document));
		}
	}

	const layers: LayerName[] = [...(attachments ? (['attachments'] as const) : []), ...compact];
	if (layers.length === 0) {
		return {document: page, layers};
	}

	const guide = guideFor(layers, keys);
	const outer = attachments ? {...attachments, page: document} : (document as Layer);
	const {encoding, ...rest} = outer;
	const packet = {encoding, layers, guide, ...rest};
	return jsonBytes(packet) < plainBytes ? {document: packet, layers} : {document: page, layers: []};
}
