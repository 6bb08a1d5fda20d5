import * as z from 'zod/mini';
import {EngiError} from '../../lib/errors.js';
import {canonicalJson} from '../journal/canonical.js';
import {sha256Hex} from '../../lib/hash.js';
import {isCanonicalUtc} from '../../lib/time.js';
import {readJsonInput} from './json-file.js';

/**
 * The evidence contract (an agent's question with the evidence it would accept): what may be
 * looked at (`scope_nodes`, a receipt saying how that scope was chosen), the moment and window
 * of observation, a pinned hash for every source, and per fact the alternatives that would
 * answer it (alternatives are ORs; the ids inside one are ANDed). Unknown fields are refused.
 */
export const contractLimits = {scopeNodes: 2000, sources: 2000, facts: 16, alternatives: 16, idsPerAlternative: 64, maxHops: 16, searchLimit: 100_000, proposalSources: 64} as const;

const nonBlank = (what: string) => z.string().check(z.refine(value => value.trim() !== '', `${what} must not be blank`));

/** A UTC moment as the journal writes it: YYYY-MM-DDTHH:MM:SSZ, a real calendar date, 1970 or later. */
const contractUtc = z.string().check(
	z.refine(value => isCanonicalUtc(value), 'must be a UTC time YYYY-MM-DDTHH:MM:SSZ with a real calendar date'),
	z.refine(value => value >= '1970', 'must be in 1970 or later'),
);

const pin = z.strictObject({node_sha256: z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hex characters'))});

const positiveInt = (min: number, max: number) => z.number().check(z.refine(value => Number.isInteger(value) && value >= min && value <= max, `must be an integer from ${min} to ${max}`));

const factSchema = z.strictObject({
	id: nonBlank('a fact id'),
	description: z.optional(z.string()),
	alternatives: z.array(z.array(nonBlank('an id')).check(z.minLength(1, 'an alternative needs at least 1 id'), z.maxLength(contractLimits.idsPerAlternative, `an alternative allows at most ${contractLimits.idsPerAlternative} ids`))).check(
		z.minLength(1, 'a fact needs at least 1 alternative'),
		z.maxLength(contractLimits.alternatives, `a fact allows at most ${contractLimits.alternatives} alternatives`),
	),
});

export const contractSchema = z
	.strictObject({
		version: z.literal(1, 'must be 1'),
		question: nonBlank('question'),
		scope_receipt: nonBlank('scope_receipt'),
		scope_nodes: z.array(nonBlank('a scope node id')).check(z.minLength(1, 'needs at least 1 node'), z.maxLength(contractLimits.scopeNodes, `allows at most ${contractLimits.scopeNodes} nodes`)),
		as_of: contractUtc,
		min_observed_utc: contractUtc,
		sources: z.record(z.string(), pin).check(
			z.refine(sources => Object.keys(sources).length <= contractLimits.sources, `allows at most ${contractLimits.sources} sources`),
			z.refine(sources => Object.keys(sources).every(id => id.trim() !== ''), 'a source id must not be blank'),
		),
		facts: z.array(factSchema).check(
			z.maxLength(contractLimits.facts, `allows at most ${contractLimits.facts} facts`),
			z.superRefine((facts, context) => {
				const seen = new Set<string>();
				for (const [index, fact] of facts.entries()) {
					if (seen.has(fact.id)) {
						context.addIssue({code: 'custom', message: `fact ids must be unique; "${fact.id}" repeats`, input: fact.id, path: [index, 'id']});
					}

					seen.add(fact.id);
				}
			}),
		),
		budget_tokens: z.number().check(z.refine(value => Number.isSafeInteger(value) && value > 0, 'must be a whole number of tokens above 0')),
		max_hops: positiveInt(1, contractLimits.maxHops),
		search_limit: positiveInt(1, contractLimits.searchLimit),
	})
	.check(
		z.superRefine((contract, context) => {
			if (isCanonicalUtc(contract.min_observed_utc) && isCanonicalUtc(contract.as_of) && contract.min_observed_utc > contract.as_of) {
				context.addIssue({code: 'custom', message: 'must not be later than as_of', input: contract.min_observed_utc, path: ['min_observed_utc']});
			}
		}),
	);

export type Contract = z.infer<typeof contractSchema>;

/** An evaluation answers facts; a proposal context is prepared from sources alone (`facts: []`). */
export type ContractMode = 'evaluate' | 'prepare_proposal';

export type LoadedContract = {readonly contract: Contract; readonly sha256: string};

/**
 * Reads and validates a contract for `--q question`. Its hash is over the canonical JSON of
 * the validated document (sorted keys, compact), so reformatting the file does not change it.
 */
export function loadContract(file: string, cwd: string, question: string, mode: ContractMode): LoadedContract {
	const contract = readJsonInput(file, cwd, contractSchema, 'invalid_contract');
	const fail = (field: string, message: string) => {
		throw new EngiError('invalid_contract', `${file}: ${field}: ${message}`, {hint: 'nothing was evaluated', details: {field}});
	};

	if (contract.question !== question) {
		fail('question', 'must equal --q exactly');
	}

	if (mode === 'evaluate' && contract.facts.length === 0) {
		fail('facts', `needs at least 1 fact (1 to ${contractLimits.facts}); facts: [] is for --prepare-proposal`);
	}

	if (mode === 'prepare_proposal') {
		if (contract.facts.length > 0) {
			fail('facts', '--prepare-proposal needs facts: []');
		}

		const sources = Object.keys(contract.sources).length;
		if (sources < 1 || sources > contractLimits.proposalSources) {
			fail('sources', `--prepare-proposal needs 1 to ${contractLimits.proposalSources} sources, got ${sources}`);
		}
	}

	return {contract, sha256: sha256Hex(canonicalJson(contract))};
}
