/**
 * A hook for the fault tests (test/faults/): with `ENGI_TEST_PAUSE_AT=<point>` set, a writer
 * stops itself (SIGSTOP) at that named point inside its lock, and the test decides what happens
 * next: resume it, kill it, or let another writer race it. Unset, it costs one lookup.
 */
export function pauseAt(env: Readonly<Record<string, string | undefined>>, point: string): void {
	if (env['ENGI_TEST_PAUSE_AT'] === point) {
		process.kill(process.pid, 'SIGSTOP');
	}
}
