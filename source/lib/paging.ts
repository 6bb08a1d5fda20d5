/**
 * Where the next page of a paged listing starts (`next_offset`): after the `shown` rows of a page
 * that began at `offset`, or null when they were the last of `total`.
 */
export function nextOffset(offset: number, shown: number, total: number): number | null {
	return offset + shown < total ? offset + shown : null;
}
