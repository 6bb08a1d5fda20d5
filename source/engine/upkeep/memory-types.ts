/**
 * What kind of memory a node is, found by fixed rules over its kind and its text, and how that
 * kind ages: a half-life (how fast its rank fades), a time to live (when it goes stale) and a
 * weight (how much a match of it counts). The table follows Inkstone's; the knowledge base's
 * config may change any number of it (`memory.<type>.half_life_days`, `ttl_days`, `weight`).
 * Detection needs no config and no model, so the index stores each node's type when it writes
 * the node, and ranking only multiplies.
 */
import {memoryTypes, type MemoryType} from './memory-type-names.js';

export {memoryTypes, type MemoryType} from './memory-type-names.js';

export type MemoryRule = {
	/** Days for the rank to halve; null: it does not fade. */
	readonly halfLifeDays: number | null;
	/** Days after which it is stale (expired); null: it never expires. */
	readonly ttlDays: number | null;
	readonly weight: number;
};

const year = 365;

/** The defaults, as Inkstone's table; `record` (projects, tasks, sessions, sources) is what the graph is built on and does not age. */
export const defaultMemoryRules: Readonly<Record<MemoryType, MemoryRule>> = {
	correction: {halfLifeDays: 10 * year, ttlDays: 10 * year, weight: 3},
	preference: {halfLifeDays: 10 * year, ttlDays: 10 * year, weight: 2},
	milestone: {halfLifeDays: 10 * year, ttlDays: 10 * year, weight: 1.5},
	decision: {halfLifeDays: 90, ttlDays: year, weight: 1.5},
	lesson: {halfLifeDays: 90, ttlDays: year, weight: 1.5},
	procedural: {halfLifeDays: 180, ttlDays: 180, weight: 1.2},
	contact: {halfLifeDays: year, ttlDays: year, weight: 1},
	financial: {halfLifeDays: 7, ttlDays: 7, weight: 1},
	blocker: {halfLifeDays: 7, ttlDays: 7, weight: 1.2},
	event: {halfLifeDays: 14, ttlDays: 30, weight: 0.8},
	context: {halfLifeDays: 14, ttlDays: 14, weight: 0.8},
	emotion: {halfLifeDays: 3, ttlDays: 7, weight: 0.5},
	fact: {halfLifeDays: 30, ttlDays: 90, weight: 1},
	record: {halfLifeDays: null, ttlDays: null, weight: 1},
};

/** Words that give a text its type, tried in this order (the first that matches wins; `fact` is the default). */
const textRules: ReadonlyArray<readonly [MemoryType, RegExp]> = [
	['correction', /\b(?:fix|fixes|fixed|bug|bugs|root cause|correction|corrected|wrong|regression)\b|修复|根因|更正|纠正/i],
	['preference', /\b(?:prefer|prefers|preferred|preference|always|never|favou?rs?)\b|偏好|总是|从不|喜欢/i],
	['milestone', /\b(?:launch|launched|shipped|released|went live)\b|发布了|上线/i],
	['decision', /\b(?:decide|decided|decision|chose|chosen|switched to|we will)\b|决定|选择了|改用/i],
	['lesson', /\b(?:lesson|lessons|learned|learnt|takeaway)\b|教训|经验/i],
	['procedural', /\b(?:how to|steps|procedure|runbook|process)\b|步骤|流程/i],
	['contact', /\b(?:e-?mail|phone|dm|contact)\b|邮箱|电话/i],
	['financial', /\$\s?\d|\b(?:cost|costs|revenue|invoice|billing|budget)\b|费用|成本|收入/i],
	['blocker', /\b(?:blocked|blocker|can't|cannot|failed|failing|stuck)\b|阻塞|失败|卡住/i],
	['event', /\b(?:happened|occurred|incident|outage)\b|发生/i],
	['context', /\b(?:background|situation)\b|背景/i],
	['emotion', /\b(?:feel|felt|frustrated|frustrating|happy|annoyed|angry)\b|沮丧|开心|烦/i],
];

/** Kinds that name what the graph is made of rather than something remembered. */
const recordKinds: ReadonlySet<string> = new Set(['project', 'task', 'conversation', 'artifact', 'dataset', 'model', 'product', 'source', 'entity']);

const isMemoryType = (value: unknown): value is MemoryType => typeof value === 'string' && (memoryTypes as readonly string[]).includes(value.toLowerCase());

/**
 * A node's memory type: one it states (`memory_type`), else its kind (a record kind, a kind
 * named like a type, a Decision), else the first rule its label, title and body match, else fact.
 */
export function detectMemoryType(payload: Record<string, unknown>): MemoryType {
	const stated = payload['memory_type'];
	if (isMemoryType(stated)) {
		return stated.toLowerCase() as MemoryType;
	}

	for (const field of ['kind', 'type', 'page_kind']) {
		const kind = payload[field];
		if (typeof kind !== 'string') {
			continue;
		}

		const lower = kind.trim().toLowerCase();
		if (recordKinds.has(lower)) {
			return 'record';
		}

		if (isMemoryType(lower)) {
			return lower as MemoryType;
		}
	}

	const text = ['label', 'title', 'body'].map(key => payload[key]).filter((value): value is string => typeof value === 'string').join('\n');
	return textRules.find(([, words]) => words.test(text))?.[0] ?? 'fact';
}

/** What a knowledge base's config says about one type, laid over the defaults. */
export type MemoryOverrides = Partial<Record<MemoryType, {half_life_days?: number | null; ttl_days?: number | null; weight?: number}>>;

export type MemoryRules = Readonly<Record<MemoryType, MemoryRule>>;

export function memoryRules(overrides: MemoryOverrides | undefined): MemoryRules {
	const rules = {...defaultMemoryRules};
	for (const type of memoryTypes) {
		const override = overrides?.[type];
		if (override) {
			const base = rules[type];
			rules[type] = {
				halfLifeDays: override.half_life_days === undefined ? base.halfLifeDays : override.half_life_days,
				ttlDays: override.ttl_days === undefined ? base.ttlDays : override.ttl_days,
				weight: override.weight ?? base.weight,
			};
		}
	}

	return rules;
}

/** The rank a memory keeps after `ageDays`: 0.5^(age / half-life), 1 for one that does not fade. */
export function decayFactor(ageDays: number, halfLifeDays: number | null): number {
	return halfLifeDays === null ? 1 : 0.5 ** (Math.max(0, ageDays) / halfLifeDays);
}

const dayMs = 24 * 3600 * 1000;

/** Days from `from` to `to` (canonical UTC strings), never negative. */
export function daysBetween(from: string, to: string): number {
	return Math.max(0, (Date.parse(to) - Date.parse(from)) / dayMs);
}
