import type {Evaluation} from '../engine/evidence/evaluation-schema.js';
import type {ProposalApplyOutput, ProposalCheckOutput, ProposalContextOutput, ProposalProblem, ReviewCheckOutput} from '../engine/evidence/proposal-output-schema.js';
import {clip} from '../output/text.js';

export type ContractAnswer = Evaluation | ProposalContextOutput | ProposalCheckOutput | ReviewCheckOutput;

const problemLine = (problem: ProposalProblem) =>
	`  problem: ${problem.reason}${[problem.task && ` task ${problem.task}`, problem.premise && ` premise ${problem.premise}`, problem.alternative !== null && ` alternative ${problem.alternative}`, problem.citation !== null && ` citation ${problem.citation}`, problem.source && ` source ${problem.source}`].filter(Boolean).join('')}`;

function sharedTail(answer: ContractAnswer): string[] {
	return [
		...answer.source_requests.map(request => `  pin request: ${request.node}: ${request.action}`),
		`as of ${answer.freshness.as_of} (${answer.freshness.events_considered} events; ${answer.freshness.events_after_as_of} observed later, left out); journal ${answer.journal_sha256.slice(0, 12)}, contract ${answer.contract_sha256.slice(0, 12)}`,
		answer.claim_boundary,
	];
}

function evaluationText(answer: Evaluation): string[] {
	const lines = [`${answer.resolution}: ${JSON.stringify(answer.question)}${answer.packet_tokens === null ? '' : ` in ${answer.packet_tokens} of ${answer.budget_tokens} tokens`} (${answer.search.states} search states of ${answer.search.limit})`];
	for (const chosen of answer.chosen_alternatives) {
		const fact = answer.packet!.facts.find(entry => entry.fact === chosen.fact)!;
		lines.push(`  fact ${chosen.fact}: alternative ${chosen.alternative} (${fact.roots.join(', ')})`);
	}

	if (answer.missing_facts.length > 0) {
		lines.push(`  missing facts: ${answer.missing_facts.join(', ')}`);
	}

	for (const rejected of answer.rejected_alternatives) {
		lines.push(`  rejected: fact ${rejected.fact} alternative ${rejected.alternative}: ${rejected.reason}${rejected.source === null ? '' : ` (${rejected.source})`}`);
	}

	if (answer.packet) {
		lines.push(`  packet: ${answer.packet.evidence.length} node(s), ${answer.packet.dependency_paths.length} dependency edge(s)`, ...answer.packet.evidence.map(entry => `    ${entry.id}\tsha256 ${entry.node_sha256}\t${clip(String(entry.node['label'] ?? ''), 60)}`));
	}

	return lines;
}

export function contractText(answer: ContractAnswer): string {
	const lines: string[] = [];
	if (answer.scope === 'contract_evidence_closure') {
		lines.push(...evaluationText(answer));
	} else {
		lines.push(`${answer.resolution}: ${JSON.stringify(answer.question)}`);
		lines.push(...answer.rejected_sources.map(rejected => `  source rejected: ${rejected.source ?? '(outside the scope)'}: ${rejected.reason}`));
		if (answer.scope === 'contract_proposal_context') {
			if (answer.context) {
				lines.push(`  context ${answer.context_sha256}: ${answer.context.sources.map(source => source.id).join(', ')}`);
			}

			lines.push(...(answer.model_context?.evidence ?? []).map(unit => `    ${unit.evidence_id}\t${unit.source}.${unit.field}\t${clip(unit.text, 60)}`));
		} else {
			lines.push(...answer.problems.map(problem => problemLine(problem)));
			if (answer.scope === 'contract_task_proposal') {
				lines.push(...answer.premises.map(premise => `  premise ${premise.task}/${premise.premise}: ${clip(premise.claim, 60)} (${premise.alternatives.length} alternative(s))`));
				if (answer.review_template) {
					lines.push(`  proposal ${answer.proposal_sha256}: fill in review_template (printed with --format json: a verdict per premise, a reviewer) and pass it with --proposal-review`);
				}
			} else {
				lines.push(...answer.premises.map(premise => `  ${premise.verdict}: ${premise.task}/${premise.premise}: ${clip(premise.claim, 60)}`));
				if (answer.apply) {
					lines.push(`next: ${answer.apply.join(' ')}`);
				}
			}
		}
	}

	lines.push(...sharedTail(answer));
	return lines.join('\n');
}

export function applyText(result: ProposalApplyOutput): string {
	return [
		`${result.resolution}: proposal ${result.proposal_sha256.slice(0, 12)} (review ${result.review_sha256.slice(0, 12)}, pins checked at ${result.checked_at})`,
		...result.problems.map(problem => problemLine(problem)),
		...result.appended.map(event => `  appended ${event.op} ${event.id}`),
		result.unchanged > 0 ? `  ${result.unchanged} event(s) already in the journal` : '',
		...result.quarantined.map(line => `  quarantined line ${line.line}: ${line.reason}`),
	]
		.filter(Boolean)
		.join('\n');
}
