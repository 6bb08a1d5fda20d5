// Preloaded into benchmarked node processes: writes at exit, as one JSON line, the peak resident
// set size (KiB), the CPU time (µs) and the bytes the process read (/proc/self/io: `rchar`
// counts every read(2), from the page cache or not; memory-mapped pages are not counted).
import {readFileSync, writeFileSync} from 'node:fs';

function bytesRead() {
	try {
		const io = readFileSync('/proc/self/io', 'utf8');
		return {rchar: Number(/^rchar: (\d+)/m.exec(io)?.[1]), readBytes: Number(/^read_bytes: (\d+)/m.exec(io)?.[1])};
	} catch {
		return {};
	}
}

process.on('exit', () => {
	if (process.env.ENGI_BENCH_RSS_FILE) {
		try {
			const usage = process.resourceUsage();
			writeFileSync(process.env.ENGI_BENCH_RSS_FILE, JSON.stringify({maxRss: usage.maxRSS, userCpu: usage.userCPUTime, systemCpu: usage.systemCPUTime, ...bytesRead()}));
		} catch {}
	}
});
