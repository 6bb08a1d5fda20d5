import * as z from 'zod/mini';

/** A staged note's frontmatter: one record kind, validated before anything is written. */
const linkObject = z.object({type: z.string().check(z.minLength(1)), to: z.string().check(z.minLength(1))});

export const harvestFrontmatterSchema = z.looseObject({
	id: z.string().check(z.trim(), z.minLength(1)),
	kind: z.string().check(z.trim(), z.minLength(1)),
	label: z.string().check(z.trim(), z.minLength(1)),
	project: z.optional(z.nullable(z.string())),
	status: z.optional(z.nullable(z.string())),
	next_action: z.optional(z.nullable(z.string())),
	blockers: z.optional(z.nullable(z.union([z.string(), z.array(z.string())]))),
	/** `- SUPPORTS decision:x` or `- {type: SUPPORTS, to: decision:x}`. */
	links: z.optional(z.nullable(z.array(z.union([z.string(), linkObject])))),
});

export type HarvestFrontmatter = z.infer<typeof harvestFrontmatterSchema>;

export type SplitNote = {
	/** The YAML between the opening and closing `---` lines. */
	readonly yaml: string;
	/** 1-based line of the first YAML line. */
	readonly yamlLine: number;
	readonly body: string;
	readonly lines: string[];
};

/** Splits a Markdown note into frontmatter and body; undefined when it has no frontmatter. */
export function splitFrontmatter(text: string): SplitNote | undefined {
	const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
	if (lines[0]?.trim() !== '---') {
		return undefined;
	}

	const end = lines.findIndex((line, index) => index > 0 && (line.trim() === '---' || line.trim() === '...'));
	if (end === -1) {
		return undefined;
	}

	return {yaml: lines.slice(1, end).join('\n'), yamlLine: 2, body: lines.slice(end + 1).join('\n').trim(), lines};
}

/** The 1-based line where a top-level frontmatter key is written (for provenance `file:line`). */
export function keyLine(note: SplitNote, key: string): number {
	// The key is matched as text: a pattern built from it would read `.` or `(` in a key as syntax.
	const index = note.lines.findIndex((line, position) => position > 0 && line.startsWith(key) && /^\s*:/.test(line.slice(key.length)));
	return index === -1 ? 1 : index + 1;
}
