import type {Row} from './measure.js';

export type CheckStatus = 'pass' | 'fail' | 'unchecked';
export type Check = {readonly clause: string; readonly status: CheckStatus};

/**
 * The target's clauses checked against the row's figures. Clauses of the forms the runner can
 * judge alone (`≤ N× node -e 0`, `≤ N ms`, `≤ N s`, `RSS ≤ N MB`, and `≤ N% of …` or `reads ≤ N MB`
 * on a row that carries its share or its bytes read) pass or fail; others (a comparison with another row) stay unchecked and
 * are read by a person.
 */
export function checkTarget(row: Row): Check[] {
	if (!row.target) {
		return [];
	}

	return row.target
		.split(/[,;]\s*/)
		.map(clause => clause.trim())
		.filter(Boolean)
		.map(clause => ({clause, status: judge(row, clause)}));
}

function judge(row: Row, clause: string): CheckStatus {
	const ratio = /^≤ ([\d.]+)× node -e 0$/.exec(clause);
	if (ratio) {
		return Number.isNaN(row.baselineMs) ? 'unchecked' : verdict(row.medianMs / row.baselineMs <= Number(ratio[1]));
	}

	const time = /^≤ ([\d.]+) (ms|s)$/.exec(clause);
	if (time) {
		return verdict(row.medianMs <= Number(time[1]) * (time[2] === 's' ? 1000 : 1));
	}

	const rss = /^RSS ≤ ([\d.]+) MB$/.exec(clause);
	if (rss) {
		return row.rssMb > 0 ? verdict(row.rssMb <= Number(rss[1])) : 'unchecked';
	}

	const read = /^reads ≤ ([\d.]+) MB$/.exec(clause);
	if (read && row.readMb !== undefined) {
		return verdict(row.readMb <= Number(read[1]));
	}

	const share = /^≤ ([\d.]+)% of /.exec(clause);
	if (share && row.sharePercent !== undefined) {
		return verdict(row.sharePercent <= Number(share[1]));
	}

	return 'unchecked';
}

const verdict = (passed: boolean): CheckStatus => (passed ? 'pass' : 'fail');

/** One mark for a row: ✗ if any clause failed, ✓ if all were checked and passed, ? otherwise. */
export function markOf(checks: readonly Check[]): string {
	if (checks.length === 0) {
		return '';
	}

	if (checks.some(check => check.status === 'fail')) {
		return '✗';
	}

	return checks.every(check => check.status === 'pass') ? '✓' : '?';
}
