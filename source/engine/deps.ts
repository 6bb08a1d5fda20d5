/**
 * What the engine needs from the outside world, injected so tests are deterministic: the
 * environment, the working directory and the clock. Nothing in the engine reads `process.env`,
 * `process.cwd()` or `Date.now()` directly.
 */
export type Deps = {
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly cwd: string;
	readonly now: () => Date;
	readonly platform: NodeJS.Platform;
};

export function processDeps(): Deps {
	return {
		env: process.env,
		cwd: process.cwd(),
		now: () => new Date(),
		platform: process.platform,
	};
}

/**
 * The home directory the environment names, as given (blank as undefined): HOME, or on Windows,
 * where HOME is rarely set, USERPROFILE, which is what node's own `os.homedir()` reads there.
 */
export function homeOf(deps: Pick<Deps, 'env' | 'platform'>): string | undefined {
	const home = deps.env['HOME']?.trim() || (deps.platform === 'win32' ? deps.env['USERPROFILE']?.trim() : undefined);
	return home || undefined;
}
