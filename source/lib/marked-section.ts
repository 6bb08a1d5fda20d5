import {readFileSync, realpathSync} from 'node:fs';
import {resolve} from 'node:path';
import {createAtomicFile} from './atomic.js';
import {EngiError, systemErrorCode, writeError} from './errors.js';

/** The lines that open and close a section engi keeps inside a file someone else owns. */
export type SectionMarkers = {readonly begin: string; readonly end: string};

export type MergedSection = {readonly text: string; readonly action: 'created' | 'updated' | 'unchanged' | 'appended'};

/**
 * The file's text with `section` between the markers: replacing what they hold, or appended
 * after a blank line when the file has none, so everything outside them stays as it was and a
 * second merge changes nothing. Markers that do not pair up (one missing, repeated, or the end
 * first) are refused, naming the line, rather than guessed at.
 */
export function mergeMarkedSection(existing: string | undefined, section: string, markers: SectionMarkers, file: string): MergedSection {
	const block = `${markers.begin}\n${section.trimEnd()}\n${markers.end}`;
	if (existing === undefined) {
		return {text: `${block}\n`, action: 'created'};
	}

	const lines = existing.split('\n');
	const begins = lines.flatMap((line, index) => (line.trim() === markers.begin ? [index] : []));
	const ends = lines.flatMap((line, index) => (line.trim() === markers.end ? [index] : []));
	if (begins.length === 0 && ends.length === 0) {
		const separator = existing === '' ? '' : existing.endsWith('\n\n') ? '' : existing.endsWith('\n') ? '\n' : '\n\n';
		return {text: `${existing}${separator}${block}\n`, action: 'appended'};
	}

	const [begin] = begins;
	const [end] = ends;
	if (begins.length !== 1 || ends.length !== 1 || begin === undefined || end === undefined || end < begin) {
		const stray = (begins.length > 1 ? begins[1] : ends.length > 1 ? ends[1] : end ?? begin)!;
		const line = stray + 1;
		throw new EngiError('section_markers_malformed', `${file}:${line}: the markers ${markers.begin} … ${markers.end} do not pair up (each must appear once, in that order)`, {
			hint: 'remove the stray marker lines (or the whole section) and run the command again',
		});
	}

	const text = [...lines.slice(0, begin), block, ...lines.slice(end + 1)].join('\n');
	return {text, action: text === existing ? 'unchanged' : 'updated'};
}

/**
 * Merges the section into a file (mergeMarkedSection) and writes it only if that changes it,
 * atomically: a new file owner-only, as everything engi creates, a replaced one keeping its
 * mode, and a symlink (CLAUDE.md → AGENTS.md) written through, to its target.
 */
export function writeMarkedSection(path: string, section: string, markers: SectionMarkers): MergedSection & {readonly path: string} {
	let target = resolve(path);
	let existing: string | undefined;
	try {
		target = realpathSync(path);
		existing = readFileSync(target, 'utf8');
	} catch (error) {
		if (systemErrorCode(error) !== 'ENOENT') {
			throw writeError(path, error);
		}
	}

	const merged = mergeMarkedSection(existing, section, markers, path);
	if (merged.action !== 'unchanged') {
		const file = createAtomicFile(target);
		file.write(Buffer.from(merged.text));
		file.commit();
	}

	return {...merged, path: target};
}
