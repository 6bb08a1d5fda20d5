import {existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs';
import {join} from 'node:path';
import {listSessions} from '../../source/engine/catalog/sessions.js';
import {encodePage} from '../../source/engine/conversation/codec/encode.js';
import {readConversation, type ReadOutput} from '../../source/engine/conversation/read.js';
import type {View} from '../../source/engine/conversation/views.js';
import type {Deps} from '../../source/engine/deps.js';
import {exactTokenCounter} from '../../source/engine/tokens.js';
import {buildFixtureHome} from '../../test/fixtures/home.js';
import {claudeSessionPath, claudeToolLines, codexSessionPath, codexToolLines, innenShapedSteps, sourceFile, toolHeavySteps, writeLines, type ToolStep} from '../../test/fixtures/tool-sessions.js';
import {median, type Row} from '../lib/measure.js';
import {ceilingPage, composition, parts, sessionEvents, type Part} from '../lib/prune-anatomy.js';
import {homeEnv, tierHome} from './sessions.js';

type Variant = 'plain' | 'compact' | 'compact+deltas' | 'pruned' | 'pruned+compact+deltas';
const variants: readonly Variant[] = ['plain', 'compact', 'compact+deltas', 'pruned', 'pruned+compact+deltas'];

/** An agent's debugging loop: the same files read again and again between test runs, one edit, a last look. */
function rereadLoop(root: string): ToolStep[] {
	const files = [0, 1, 2].map(index => ({path: `${root}/src/module${index}.ts`, content: sourceFile(`${root}/src/module${index}.ts`, 120, index)}));
	const steps: ToolStep[] = [{user: 'The retry test is flaky; find out why and fix it.'}];
	for (let round = 0; round < 5; round++) {
		for (const file of files) {
			steps.push({read: file.path, content: file.content});
		}

		steps.push({search: `retryLegacy${round}`, output: ''}, {shell: 'git status --short', output: ''}, {shell: 'npm test -- retry', output: `retry > backs off twice\n  expected 250, got 100 (round ${round})\n`, exit: 1}, {assistant: `Round ${round}: the backoff is still too short.`});
	}

	const [first] = files;
	steps.push({edit: first!.path, old: 'const timeout = 100;', new: 'const timeout = 250;'}, {shell: 'npm test -- retry', output: 'Tests: 12 passed\n'}, {assistant: 'Fixed: the first handler used a 100 ms timeout.'}, {user: 'Thanks.'});
	return steps;
}

/** The representative tool-heavy shapes, by the digit that ends their session ids. */
const toolHeavyShapes: ReadonlyArray<readonly [string, ToolStep[]]> = [['1', toolHeavySteps('/work/app', 2)], ['2', rereadLoop('/work/app')]];
/** The transcript innen's prune figure describes (§9), apart from the representative ones. */
const innenShapes: ReadonlyArray<readonly [string, ToolStep[]]> = [['3', innenShapedSteps('/work/app')]];
const shapeNames: Readonly<Record<string, string>> = {1: 'edit loop', 2: 're-read loop', 3: 'innen-shaped'};

/**
 * Bumped when the transcripts change (2: Claude's Edit results keep the file before the edit and
 * a hunk with context, as Claude Code writes them; 3: Codex rollouts also as its default
 * persistence writes them).
 */
const toolHeavyVersion = 3;

/**
 * Tool-heavy Claude and Codex transcripts of the given shapes (the two representative ones unless
 * told), written once under the corpus in the home `name`. Codex's
 * "extended" persistence keeps each command's `exec_command_end` (stdout, aggregated and
 * formatted output beside the text the model saw); its default policy (2026) does not, so the
 * `codex-default` home holds the same rollouts without those events.
 */
function toolHeavyHome(corpus: string, variant: 'extended' | 'codex-default' = 'extended', name = 'tool-heavy', shapes: ReadonlyArray<readonly [string, ToolStep[]]> = toolHeavyShapes): string {
	const home = join(corpus, variant === 'extended' ? name : `${name}-codex-default`);
	const marker = join(home, '.generated');
	if (existsSync(marker) && readFileSync(marker, 'utf8').includes(`version ${toolHeavyVersion}`)) {
		return home;
	}

	rmSync(home, {recursive: true, force: true});
	for (const [n, steps] of shapes) {
		const claudeId = `7001c0de-0000-4000-8000-00000000000${n}`;
		const codexId = `0195a1c2-7001-7000-8000-00000000000${n}`;
		const codex = codexToolLines(codexId, '/work/app', steps);
		if (variant === 'extended') {
			writeLines(claudeSessionPath(join(home, '.claude', 'projects'), claudeId, '/work/app'), claudeToolLines(claudeId, '/work/app', steps));
		}

		writeLines(codexSessionPath(join(home, '.codex', 'sessions'), codexId), variant === 'extended' ? codex : codex.filter(line => !line.includes('"type":"exec_command_end"')));
	}

	writeFileSync(marker, `version ${toolHeavyVersion} ${new Date().toISOString()}`);
	return home;
}

function percentile(values: readonly number[], share: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? Number.NaN;
}

type Sample = {source: string; session: string; view: View; tokens: Record<Variant, number>; records: number; page: ReadOutput; pruned: ReadOutput; printedPruned: string; ceiling: number};

/**
 * Every page (up to `pagesPerView` per view) of up to `perSource` sessions of each source, in
 * every variant; `previewChars` as `--preview-chars` gives them (context view only).
 */
async function samplePages(deps: Deps, views: readonly View[], options: {perSource: number; pagesPerView: number; limit: number; previewChars?: string}): Promise<Sample[]> {
	const count = await exactTokenCounter();
	const text = (document: unknown) => JSON.stringify({schema: 'engi.read.v1', ...(document as object)});
	const printed = (document: unknown) => count(text(document));
	const sessions = (await listSessions({allProjects: true, includeSubagents: false, limit: 100_000, offset: 0}, deps)).sessions;
	const taken = new Map<string, number>();
	const samples: Sample[] = [];
	for (const session of sessions) {
		if ((taken.get(session.source) ?? 0) >= options.perSource) {
			continue;
		}

		taken.set(session.source, (taken.get(session.source) ?? 0) + 1);
		for (const view of views) {
			let offset: number | null = 0;
			for (let page = 0; page < options.pagesPerView && offset !== null; page++) {
				let plain: ReadOutput;
				let pruned: ReadOutput;
				try {
					const input = {id: session.id, source: [session.source], view, offset, limit: options.limit, previewChars: options.previewChars};
					plain = await readConversation(input, deps);
					pruned = await readConversation({...input, prune: true}, deps);
				} catch {
					break; // Damaged fixtures are there on purpose; they have no pages.
				}

				if (plain.records.length > 0) {
					const compact = {compact: true, deltas: false, attachmentRefs: false};
					const deltas = {compact: true, deltas: true, attachmentRefs: false};
					samples.push({
						source: session.source,
						session: session.id,
						view,
						records: plain.records.length,
						page: plain,
						pruned,
						printedPruned: text(pruned),
						ceiling: printed(ceilingPage(pruned as never)),
						tokens: {
							plain: printed(plain),
							compact: printed(encodePage(plain as never, compact).document),
							'compact+deltas': printed(encodePage(plain as never, deltas).document),
							pruned: printed(pruned),
							'pruned+compact+deltas': printed(encodePage(pruned as never, deltas).document),
						},
					});
				}

				offset = plain.next_offset;
			}
		}
	}

	return samples;
}

/** A reduction as a change in size: −40% smaller, +5% larger (a receipt on a page with nothing to prune). */
const change = (reduction: number) => `${reduction >= 0 ? '−' : '+'}${Math.abs(reduction * 100).toFixed(0)}%`;

function reductionRows(label: string, samples: readonly Sample[], targets: Partial<Record<Variant, string>> = {}): Row[] {
	const rows: Row[] = [];
	const groups = new Map<string, Sample[]>();
	for (const sample of samples) {
		const key = `${sample.source} ${sample.view}`;
		groups.set(key, [...(groups.get(key) ?? []), sample]);
	}

	for (const [key, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
		const plain = group.reduce((sum, sample) => sum + sample.tokens.plain, 0);
		const parts = variants.slice(1).map(variant => {
			const reductions = group.map(sample => 1 - sample.tokens[variant] / sample.tokens.plain);
			const total = group.reduce((sum, sample) => sum + sample.tokens[variant], 0);
			return `${variant} ${total} (median ${change(median(reductions))}, p90 ${change(percentile(reductions, 0.9))})`;
		});
		const target = variants.map(variant => targets[variant]).filter(Boolean).join('; ') || undefined;
		rows.push({suite: 'tokens', name: `${label}: ${key}, ${group.length} page${group.length === 1 ? '' : 's'}`, runs: group.length, medianMs: 0, baselineMs: Number.NaN, rssMb: 0, target, note: `plain ${plain} o200k; ${parts.join('; ')}`});
	}

	return rows;
}

/**
 * Per source, whole sessions: the events view as printed (plain) against the context view with
 * whole texts, pruned, and pruned + compact + deltas: what an agent that needs every tool output
 * in full pays either way. Only sessions both views covered to their end are counted.
 */
function crossViewRows(label: string, events: readonly Sample[], whole: readonly Sample[]): Row[] {
	const bySession = (samples: readonly Sample[]) => {
		const sessions = new Map<string, Sample[]>();
		for (const sample of samples) {
			sessions.set(`${sample.source} ${sample.session}`, [...(sessions.get(`${sample.source} ${sample.session}`) ?? []), sample]);
		}

		return new Map([...sessions].filter(([, pages]) => pages.at(-1)!.page.next_offset === null));
	};

	const plain = bySession(events.filter(sample => sample.view === 'events'));
	const lean = bySession(whole);
	const sources = new Map<string, Array<{plain: number; pruned: number; packed: number}>>();
	for (const [key, pages] of plain) {
		const other = lean.get(key);
		if (other) {
			const sum = (samples: readonly Sample[], variant: Variant) => samples.reduce((total, sample) => total + sample.tokens[variant], 0);
			const source = key.split(' ')[0]!;
			sources.set(source, [...(sources.get(source) ?? []), {plain: sum(pages, 'plain'), pruned: sum(other, 'pruned'), packed: sum(other, 'pruned+compact+deltas')}]);
		}
	}

	return [...sources].sort(([a], [b]) => (a < b ? -1 : 1)).map(([source, sessions]) => {
		const figure = (tokens: (session: {plain: number; pruned: number; packed: number}) => number) => {
			const reductions = sessions.map(session => 1 - tokens(session) / session.plain);
			return `${sessions.reduce((total, session) => total + tokens(session), 0)} (median ${change(median(reductions))}, p90 ${change(percentile(reductions, 0.9))})`;
		};

		const note = `events plain ${sessions.reduce((total, session) => total + session.plain, 0)} o200k; context whole texts pruned ${figure(session => session.pruned)}; pruned+compact+deltas ${figure(session => session.packed)}`;
		return {suite: 'tokens', name: `${label}, whole sessions, events view plain → context view with whole texts pruned: ${source}, ${sessions.length} session${sessions.length === 1 ? '' : 's'}`, runs: sessions.length, medianMs: 0, baselineMs: Number.NaN, rssMb: 0, note};
	});
}

const share = (part: number, whole: number) => `${((part / whole) * 100).toFixed(0)}%`;

/**
 * Per shape and source: the ceiling (every output the rules call obsolete removed outright, no
 * note, no receipt, the records kept otherwise: what no note-based rewrite can beat) beside the
 * pruned figure, and, in the events view, what the pruned pages' tokens are spent on.
 */
async function anatomyRows(label: string, samples: readonly Sample[], deps: Deps): Promise<Row[]> {
	const count = await exactTokenCounter();
	const groups = new Map<string, Sample[]>();
	for (const sample of samples) {
		const key = `${sample.source} ${sample.view}, ${shapeNames[sample.session.at(-1)!] ?? sample.session}`;
		groups.set(key, [...(groups.get(key) ?? []), sample]);
	}

	const rows: Row[] = [];
	for (const [key, group] of [...groups].sort(([a], [b]) => (a < b ? -1 : 1))) {
		const plain = group.reduce((sum, sample) => sum + sample.tokens.plain, 0);
		const pruned = group.reduce((sum, sample) => sum + sample.tokens.pruned, 0);
		const ceiling = group.reduce((sum, sample) => sum + sample.ceiling, 0);
		const reductions = (tokens: (sample: Sample) => number) => group.map(sample => 1 - tokens(sample) / sample.tokens.plain);
		const notes = [
			`plain ${plain} o200k; pruned ${pruned} (median ${change(median(reductions(sample => sample.tokens.pruned)))})`,
			`ceiling, obsolete outputs removed outright ${ceiling} (median ${change(median(reductions(sample => sample.ceiling)))}, p90 ${change(percentile(reductions(sample => sample.ceiling), 0.9))})`,
		];
		if (group[0]!.view === 'events') {
			const total = Object.fromEntries(parts.map(part => [part, 0])) as Record<Part, number>;
			let whole = 0;
			for (const sample of group) {
				const events = await sessionEvents(deps, sample.source, sample.session);
				const shares = composition(sample.pruned as never, sample.printedPruned, count, line => events.get(line) ?? []);
				for (const part of parts) {
					total[part] += shares[part];
				}

				whole += sample.tokens.pruned;
			}

			notes.push(`pruned page: ${parts.map(part => `${part} ${share(total[part], whole)}`).join(', ')}`);
			// What stays however much output goes: the records' own fields and the keys and punctuation around everything.
			const floor = total['native field values'] + total['keys and punctuation'];
			notes.push(`records' own fields and keys alone are ${share(floor, plain)} of plain: no rewrite that keeps them passes ${change(1 - floor / plain)}`);
		}

		rows.push({suite: 'tokens', name: `${label}, where the tokens are: ${key}, ${group.length} page${group.length === 1 ? '' : 's'}`, runs: group.length, medianMs: 0, baselineMs: Number.NaN, rssMb: 0, note: notes.join('; ')});
	}

	return rows;
}

/**
 * Encoding time of the largest pages, in this process, after a warm-up: the median of many runs,
 * in CPU time (user + system, which other processes on a busy machine inflate far less than wall
 * time) beside wall time.
 */
function encodingRows(samples: readonly Sample[]): Row[] {
	const large = samples.filter(sample => sample.records >= 100).sort((a, b) => b.tokens.plain - a.tokens.plain).slice(0, 4);
	return large.map(sample => {
		const options = {compact: true, deltas: true, attachmentRefs: true};
		for (let warm = 0; warm < 10; warm++) {
			encodePage(sample.page as never, options);
		}

		const wall: number[] = [];
		const cpu: number[] = [];
		for (let run = 0; run < 101; run++) {
			const started = process.hrtime.bigint();
			const used = process.cpuUsage();
			encodePage(sample.page as never, options);
			const spent = process.cpuUsage(used);
			wall.push(Number(process.hrtime.bigint() - started) / 1e6);
			cpu.push((spent.user + spent.system) / 1000);
		}

		const bytes = Buffer.byteLength(JSON.stringify(sample.page));
		return {
			suite: 'tokens',
			name: `encode a ${sample.records}-record ${sample.source} ${sample.view} page (${(bytes / 1024).toFixed(0)} KiB), in process (median CPU ms)`,
			runs: cpu.length,
			medianMs: median(cpu),
			baselineMs: Number.NaN,
			rssMb: 0,
			target: '≤ 20 ms',
			note: `CPU p90 ${percentile(cpu, 0.9).toFixed(1)} ms; wall median ${median(wall).toFixed(1)} ms, p90 ${percentile(wall, 0.9).toFixed(1)} ms`,
		};
	});
}

/**
 * Issue 15's figures: o200k tokens of pages as printed, plain against compact, compact+deltas,
 * pruned and both, per source and view (median and p90 of the per-page reduction), over the
 * fixture stores, the S tier and tool-heavy transcripts (Codex's in both persistence modes); per
 * tool-heavy shape, the ceiling of pruning and what a pruned page's tokens are; the tool-heavy
 * and innen-shaped transcripts again in the context view with whole texts; innen's transcript
 * shape as a labelled extra; and the encoding time of large pages.
 */
export async function tokensSuite(corpus: string, env: NodeJS.ProcessEnv): Promise<Row[]> {
	const deps = (home: string): Deps => ({env: homeEnv(env, home), cwd: home, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform});
	const fixtures = join(corpus, 'fixture-home');
	rmSync(fixtures, {recursive: true, force: true});
	mkdirSync(join(fixtures, 'home'), {recursive: true});
	const fixtureEnv = {HOME: join(fixtures, 'home'), XDG_CONFIG_HOME: join(fixtures, 'config'), XDG_DATA_HOME: join(fixtures, 'data'), XDG_CACHE_HOME: join(fixtures, 'cache')};
	buildFixtureHome(fixtureEnv);
	const fixtureDeps: Deps = {env: fixtureEnv, cwd: fixtures, now: () => new Date('2026-11-27T00:00:00Z'), platform: process.platform};
	const views: readonly View[] = ['events', 'context', 'dialogue'];
	const rows: Row[] = [];
	rows.push(...reductionRows('fixtures', await samplePages(fixtureDeps, views, {perSource: 100, pagesPerView: 5, limit: 20})));
	rows.push(...reductionRows('S tier', await samplePages(deps(tierHome(corpus, 'S')), views, {perSource: 5, pagesPerView: 1, limit: 100})));
	const heavyOptions = {perSource: 10, pagesPerView: 3, limit: 100};
	// The context view with whole texts (--preview-chars all): tool outputs in full, without the store's per-record fields.
	const wholeOptions = {...heavyOptions, previewChars: 'all'};
	const whole = (label: string) => `${label}, context view with whole texts (--preview-chars all)`;
	const heavy = await samplePages(deps(toolHeavyHome(corpus)), ['events', 'context'], heavyOptions);
	const targets = {'compact+deltas': 'compact+deltas ≥ 35% fewer (events)', pruned: 'pruned ≥ 85% fewer'} as const;
	const heavyWhole = await samplePages(deps(toolHeavyHome(corpus)), ['context'], wholeOptions);
	rows.push(...reductionRows('tool-heavy', heavy, targets), ...reductionRows(whole('tool-heavy'), heavyWhole, {pruned: 'pruned ≥ 85% fewer'}));
	const codexDefault = 'tool-heavy, Codex default persistence (no exec_command_end)';
	const heavyDefault = await samplePages(deps(toolHeavyHome(corpus, 'codex-default')), ['events', 'context'], heavyOptions);
	const heavyDefaultWhole = await samplePages(deps(toolHeavyHome(corpus, 'codex-default')), ['context'], wholeOptions);
	rows.push(...reductionRows(codexDefault, heavyDefault, targets), ...reductionRows(whole(codexDefault), heavyDefaultWhole, {pruned: 'pruned ≥ 85% fewer'}));
	rows.push(...await anatomyRows('tool-heavy', heavy, deps(toolHeavyHome(corpus))), ...await anatomyRows(codexDefault, heavyDefault, deps(toolHeavyHome(corpus, 'codex-default'))));
	rows.push(...await anatomyRows(whole('tool-heavy'), heavyWhole, deps(toolHeavyHome(corpus))), ...await anatomyRows(whole(codexDefault), heavyDefaultWhole, deps(toolHeavyHome(corpus, 'codex-default'))));
	rows.push(...crossViewRows('tool-heavy', heavy, heavyWhole), ...crossViewRows(codexDefault, heavyDefault, heavyDefaultWhole));
	// innen's own transcript shape (§9), a labelled extra: the representative rows above stay the headline.
	for (const variant of ['extended', 'codex-default'] as const) {
		const home = toolHeavyHome(corpus, variant, 'innen-shaped', innenShapes);
		const label = variant === 'extended' ? 'innen-shaped: reads superseded by writes, empty searches repeated, one failure, the last 4 turns' : 'innen-shaped, Codex default persistence (no exec_command_end)';
		const innen = await samplePages(deps(home), ['events', 'context'], heavyOptions);
		const innenWhole = await samplePages(deps(home), ['context'], wholeOptions);
		rows.push(...reductionRows(label, innen), ...reductionRows(whole(label), innenWhole), ...await anatomyRows(label, innen, deps(home)), ...await anatomyRows(whole(label), innenWhole, deps(home)), ...crossViewRows(label, innen, innenWhole));
	}

	rows.push(...encodingRows(heavy));
	return rows;
}
