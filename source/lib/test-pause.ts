/** How often each point has been reached in this process, for `<point>#<n>`. */
const reached = new Map<string, number>();

/**
 * A hook for the fault tests (test/faults/): with `ENGI_TEST_PAUSE_AT=<point>` set, a writer
 * stops itself (SIGSTOP) at that named point inside its lock, and the test decides what happens
 * next: resume it, kill it, or let another writer race it. `<point>#<n>` stops the n-th time the
 * point is reached (a loop's n-th step). Unset, it costs one lookup.
 */
export function pauseAt(env: Readonly<Record<string, string | undefined>>, point: string): void {
	const wanted = env['ENGI_TEST_PAUSE_AT'];
	if (wanted === undefined) {
		return;
	}

	if (wanted === point) {
		process.kill(process.pid, 'SIGSTOP');
	} else if (wanted.startsWith(`${point}#`)) {
		const count = (reached.get(point) ?? 0) + 1;
		reached.set(point, count);
		if (String(count) === wanted.slice(point.length + 1)) {
			process.kill(process.pid, 'SIGSTOP');
		}
	}
}
