import {setFlagsFromString} from 'node:v8';

/**
 * V8's cumulative inlining budget (bytecode bytes an optimised function may inline) while a
 * refresh reads sessions. A cold build compiles hundreds of hot functions with TurboFan, on V8's
 * background threads, and compiles many again as each new source's records reach them: at 1,500
 * sessions ~1.4 s of CPU, on two cores the reading and the writing thread already fill. A quarter
 * of V8's budget halved the compiling (traced: 3.0 → 1.6 s of compile jobs) and took a cold build
 * from 4.69 to 4.43 s (8 runs each, interleaved), its reading no slower; at 15,000 sessions,
 * 37.9 → 36.7 s.
 */
const scanBudget = 230;

/**
 * V8's own budget, by V8 major version: what the flag is put back to. The code cache
 * (start/cached-main.ts) is only accepted under the flags it was made with, so the budget is
 * changed only where its default is known; elsewhere it is left alone.
 */
const defaultBudgets: Readonly<Record<string, number>> = {'11': 920};

let holders = 0;

/**
 * Lowers the inlining budget until the returned function is called (each holder calls it once;
 * the budget returns to V8's own when the last has).
 */
export function holdScanInlining(v8Version = process.versions.v8): () => void {
	const restored = defaultBudgets[v8Version.split('.')[0]!];
	if (restored === undefined) {
		return () => undefined;
	}

	if (holders++ === 0) {
		setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${scanBudget}`);
	}

	let released = false;
	return () => {
		if (!released) {
			released = true;
			if (--holders === 0) {
				setFlagsFromString(`--max-inlined-bytecode-size-cumulative=${restored}`);
			}
		}
	};
}
