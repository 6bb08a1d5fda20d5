/**
 * A growable list of 32-bit integers in one typed array: 4 bytes an item where an array of
 * numbers or of small objects costs 8 to 40, for per-record bookkeeping a scan of a huge
 * transcript keeps to its end.
 */
export class IntList {
	// 16 items: 64 bytes, which V8 keeps on its heap; a larger typed array takes memory of its own,
	// fifteen times as long to make, and a cold scan makes a dozen lists for every session.
	private items = new Int32Array(16);
	length = 0;

	push(value: number): number {
		if (this.length === this.items.length) {
			const grown = new Int32Array(this.items.length * 2);
			grown.set(this.items);
			this.items = grown;
		}

		this.items[this.length] = value;
		return this.length++;
	}

	get(index: number): number {
		return this.items[index]!;
	}

	set(index: number, value: number): void {
		this.items[index] = value;
	}
}
