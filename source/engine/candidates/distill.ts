import * as z from 'zod/mini';
import type {Deps} from '../deps.js';
import {EngiError} from '../../lib/errors.js';
import {requireKnowledgeBase, type KbPaths} from '../kb/paths.js';
import {clipMasked} from '../search/secrets.js';
import {lazySchema} from '../../lib/lazy-schema.js';
import {runCommand} from '../../lib/subprocess.js';
import {acceptDistillation, acceptOutputSchema} from './accept.js';
import {parseDistillation} from './distillation.js';
import {defaultMaxTurns, evidenceOutput, readEvidence, renderEvidenceText} from './evidence.js';
import {findEntry, pendingNote} from './queue.js';

export const distillOutputSchema = lazySchema(() => z.object({
	...acceptOutputSchema.shape,
	distiller: z.object({command: z.string(), exit_code: z.number(), stdout_bytes: z.number()}),
}));

export type DistillOutput = z.infer<typeof distillOutputSchema>;

export const defaultTimeoutSeconds = 120;
/** More than any honest distillation of 120 turns; a distiller that prints more is stopped. */
export const maxDistillerOutput = 1024 * 1024;

/**
 * `engi candidates distill --with "<command>"`: runs a distiller the user named (a local model's
 * CLI, `claude -p`, …) on a pending candidate's evidence, given on stdin with the reply's schema,
 * and takes its reply through the same citation filter as `accept`. engi never calls a model
 * itself. A distiller that cannot start, fails, runs past the timeout, prints too much or prints
 * something that is not a distillation is a typed error, and nothing is changed.
 */
export async function distillCandidate(paths: KbPaths, input: {ref: string; maxTurns?: number; command: string; timeoutSeconds?: number}, deps: Deps): Promise<DistillOutput> {
	const maxTurns = input.maxTurns ?? defaultMaxTurns;
	const timeoutSeconds = input.timeoutSeconds ?? defaultTimeoutSeconds;
	requireKnowledgeBase(paths);
	const entry = await findEntry(paths.candidates, input.ref);
	pendingNote(entry);
	const evidence = evidenceOutput(paths, await readEvidence(entry, {maxTurns}, deps), maxTurns);
	const shown = clipMasked(input.command, 200, {oneLine: true}).text;
	const nothing = 'nothing was changed';
	let run;
	try {
		run = await runCommand(input.command, {input: renderEvidenceText(evidence), timeoutMs: timeoutSeconds * 1000, maxStdoutBytes: maxDistillerOutput, env: deps.env, cwd: deps.cwd});
	} catch (error) {
		throw new EngiError('distiller_failed', `the distiller ${shown} could not be started (${(error as {code?: string}).code ?? 'error'})`, {hint: nothing});
	}

	const stderr = clipMasked(run.stderrTail.trim(), 500).text;
	if (run.timedOut) {
		throw new EngiError('distiller_timeout', `the distiller ${shown} did not finish within ${timeoutSeconds} s and was stopped`, {hint: `${nothing}; a slower distiller needs --timeout <seconds>`});
	}

	if (run.overflowed) {
		throw new EngiError('distiller_output_too_large', `the distiller ${shown} printed more than ${maxDistillerOutput / 1024} KiB and was stopped`, {hint: `${nothing}; a distillation is one small JSON document`});
	}

	if (run.exitCode !== 0) {
		throw new EngiError('distiller_failed', `the distiller ${shown} ${run.exitCode === null ? `was killed by ${run.signal}` : `exited ${run.exitCode}`}`, {hint: nothing, details: {stderr_tail: stderr}});
	}

	let distillation;
	try {
		distillation = parseDistillation(run.stdout.toString('utf8'), 'the distiller\'s output', {model: shown});
	} catch (error) {
		if (error instanceof EngiError && error.code === 'invalid_json') {
			throw new EngiError('distiller_invalid_json', error.message, {hint: error.hint});
		}

		throw error;
	}

	const accepted = await acceptDistillation(paths, {ref: entry.ref, maxTurns, distillation}, deps);
	return {...accepted, distiller: {command: shown, exit_code: 0, stdout_bytes: run.stdout.length}};
}
