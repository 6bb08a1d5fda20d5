import type {Deps} from '../engine/deps.js';

/**
 * Opens a screen of the dashboard with a command's flags, then acts on what the person chose.
 * The UI stack is imported here, on demand, and never on the JSON path.
 */
export async function openScreen(screen: string, flags: Record<string, unknown>, rootFlag: string | undefined, deps: Deps, stdout: NodeJS.WritableStream & {isTTY?: boolean}): Promise<number> {
	// NO_COLOR (https://no-color.org) must hold in the dashboard too; Ink's colour library only
	// listens to FORCE_COLOR, and decides once, when it is first imported just below.
	if (deps.env['NO_COLOR'] && process.env['FORCE_COLOR'] === undefined) {
		process.env['FORCE_COLOR'] = '0';
	}

	const {runTui} = await import('../tui.js');
	const text = (key: string) => (typeof flags[key] === 'string' ? (flags[key] as string) : undefined);
	// --source may be repeated: a list of stores (or one name, from a flag that takes one).
	const sources = Array.isArray(flags['source']) ? (flags['source'] as string[]) : text('source') === undefined ? undefined : [text('source')!];
	const result = await runTui({
		screen: screen as Parameters<typeof runTui>[0]['screen'],
		deps,
		rootFlag,
		scope: {since: text('since'), allProjects: Boolean(flags['all-projects']), project: text('project'), source: sources},
		query: text('q'),
		contract: text('evidence-contract'),
		target: screen === 'pickup' && text('id') ? {id: text('id')!, source: sources?.length === 1 ? sources[0]! : 'auto'} : undefined,
	});
	if (result.kind === 'pickup') {
		const {printPickupChoice} = await import('../output/pickup-choice.js');
		printPickupChoice(stdout, result.pickup, deps);
	}

	return 0;
}
