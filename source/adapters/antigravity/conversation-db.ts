import {peekValue} from '../../lib/sqlite.js';
import {lengthDelimited} from './protobuf.js';

/**
 * The `agy` CLI's step database, `<app>/conversations/<id>.db`, keeps the conversation's metadata
 * in `trajectory_metadata_blob` (row `main`): a protobuf message whose field 1 is the workspace
 * the conversation ran in, holding its `file://` URI in field 1 (field 2 is when it was created).
 * The message also states the URI as a plain string in its field 7, which a blob may hold
 * alone. No `.proto` is published; only that URI is read, by walking the wire format.
 */
export function conversationWorkspace(path: string): string | undefined {
	// Not a step database (or one being rewritten): no workspace from it.
	const blob = peekValue(path, "SELECT data FROM trajectory_metadata_blob ORDER BY id = 'main' DESC LIMIT 1");
	return Buffer.isBuffer(blob) ? workspaceOfMetadata(blob) : undefined;
}

/** The workspace in field 1's nested URI, else in the plain URI of field 7. */
function workspaceOfMetadata(blob: Buffer): string | undefined {
	const workspace = lengthDelimited(blob, 1);
	const nested = workspace ? lengthDelimited(workspace, 1) : undefined;
	const fromNested = nested ? pathOfFileUri(nested.toString('utf8')) : undefined;
	if (fromNested !== undefined) {
		return fromNested;
	}

	const flat = lengthDelimited(blob, 7);
	return flat ? pathOfFileUri(flat.toString('utf8')) : undefined;
}

/** `file:///home/a/b` → `/home/a/b`; `file:///c%3A/Users/a` → `c:/Users/a`. Other schemes name no local folder. */
export function pathOfFileUri(uri: string): string | undefined {
	if (!uri.startsWith('file://')) {
		return undefined;
	}

	let path: string;
	try {
		path = decodeURIComponent(uri.slice('file://'.length));
	} catch {
		return undefined;
	}

	if (/^\/[A-Za-z]:/.test(path)) {
		return path.slice(1);
	}

	return path.startsWith('/') && path.length > 1 ? path : undefined;
}
