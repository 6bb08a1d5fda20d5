/**
 * The names of the memory types (memory-types.ts has their rules): a file of its own because
 * every config read validates against them, and the rules are needed only by the index and ranking.
 */
export const memoryTypes = [
	'correction',
	'preference',
	'milestone',
	'decision',
	'lesson',
	'procedural',
	'contact',
	'financial',
	'blocker',
	'event',
	'context',
	'emotion',
	'fact',
	'record',
] as const;
export type MemoryType = (typeof memoryTypes)[number];
