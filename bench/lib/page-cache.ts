import {closeSync, openSync, readSync} from 'node:fs';

const chunk = Buffer.alloc(8 * 1024 * 1024);

/**
 * Reads every byte of the files once, so a "cold" figure measures what engi does with an empty
 * catalog and not how much of the corpus the kernel kept: this machine's proactive reclaim drops
 * the multi-GB tiers between runs, which made the same cold L build 59 s or 102 s by the disk
 * alone. The grep baseline reads them from the page cache too.
 */
export function readIntoPageCache(files: readonly string[]): void {
	for (const file of files) {
		const fd = openSync(file, 'r');
		try {
			while (readSync(fd, chunk, 0, chunk.length, null) > 0) {
				// Only the reading matters.
			}
		} finally {
			closeSync(fd);
		}
	}
}
