import {mediaTypeNote} from '../shared/media.js';
import {isRecord} from '../shared/text.js';

/**
 * Notes of the media a `user.message` sent (github/copilot-sdk nodejs/src/generated/session-events.ts,
 * `Attachment`), one each, in order. Only an attachment that is the bytes is noted: a `blob`
 * (inline base64 `data` with its `mimeType`) and a `file` whose bytes went to the model natively
 * (`assetId`, with the `mimeType` of the bytes sent, an image's after resizing). A file listed by
 * its path (`taggedFilesEntry`), a directory, a selection or a GitHub reference is a pointer the
 * model read through tools or prompt text, no medium. Neither path nor payload is copied.
 */
export function attachmentNotes(attachments: unknown): string[] {
	return Array.isArray(attachments) ? attachments.flatMap(attachment => (isRecord(attachment) && isMedia(attachment) ? [mediaTypeNote(attachment['mimeType'])] : [])) : [];
}

function isMedia(attachment: Record<string, unknown>): boolean {
	if (attachment['type'] === 'blob') {
		return true;
	}

	return attachment['type'] === 'file' && typeof attachment['assetId'] === 'string' && attachment['assetId'] !== '';
}
