/** A count with its noun in the right number: `1 project`, `2 projects`, `plural(1, 'match', 'matches')`. */
export function plural(count: number, word: string, many = `${word}s`): string {
	return `${count} ${count === 1 ? word : many}`;
}
