/** The frame after the next input has been processed and rendered (React 19 batches renders). */
export async function settle(): Promise<void> {
	await new Promise(resolve => setImmediate(resolve));
	await new Promise(resolve => setTimeout(resolve, 0));
}

/**
 * Waits until the latest frame satisfies `predicate`, yielding to React between checks, never
 * with a fixed sleep; fails with the last frame when it does not happen in time.
 */
export async function waitForFrame(lastFrame: () => string | undefined, predicate: (frame: string) => boolean, timeoutMs = 10_000): Promise<string> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const frame = lastFrame() ?? '';
		if (predicate(frame)) {
			return frame;
		}

		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for the frame; last frame:\n${frame}`);
		}

		await settle();
	}
}

/** Writes keys, then waits for the frame to change (or satisfy `until`). */
export async function press(stdin: {write(data: string): void}, lastFrame: () => string | undefined, keys: string, until?: (frame: string) => boolean): Promise<string> {
	const before = lastFrame() ?? '';
	stdin.write(keys);
	return waitForFrame(lastFrame, until ?? (frame => frame !== before));
}

export const keys = {down: '\u001B[B', up: '\u001B[A', enter: '\r', escape: '\u001B', tab: '\t', backspace: '\u007F'};
