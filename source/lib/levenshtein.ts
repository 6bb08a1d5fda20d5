/** Edit distance, for "did you mean" suggestions on unknown commands and flags. */
export function editDistance(a: string, b: string): number {
	const previous = Array.from({length: b.length + 1}, (_, index) => index);
	for (let i = 1; i <= a.length; i++) {
		let diagonal = previous[0]!;
		previous[0] = i;
		for (let j = 1; j <= b.length; j++) {
			const above = previous[j]!;
			previous[j] = Math.min(above + 1, previous[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
			diagonal = above;
		}
	}

	return previous[b.length]!;
}

/** The closest candidate within a distance that still reads as a typo, if any. */
export function nearest(input: string, candidates: readonly string[]): string | undefined {
	let best: string | undefined;
	let bestDistance = Math.max(2, Math.floor(input.length / 3)) + 1;
	for (const candidate of candidates) {
		const distance = candidate.startsWith(input) || input.startsWith(candidate) ? 1 : editDistance(input, candidate);
		if (distance < bestDistance) {
			best = candidate;
			bestDistance = distance;
		}
	}

	return best;
}
