// Preloaded into benchmarked node processes: writes the peak resident set size (KiB) at exit.
import {writeFileSync} from 'node:fs';

process.on('exit', () => {
	if (process.env.ENGI_BENCH_RSS_FILE) {
		try {
			writeFileSync(process.env.ENGI_BENCH_RSS_FILE, String(process.resourceUsage().maxRSS));
		} catch {}
	}
});
