import {EngiError} from '../../lib/errors.js';
import {readLocalConfig, writeConfigValue} from '../kb/config.js';
import type {KbPaths} from '../kb/paths.js';

/**
 * A harvest copies facts of private transcripts (masked, but still what was asked and run) into
 * a folder that may be shared with git, so the first one into a knowledge base needs the owner's
 * `--consent`. It is recorded in the knowledge base's machine-local config (`.engi/config.json`,
 * never committed), not in the journal: it is this machine's permission, not knowledge.
 */
export function consentGiven(paths: KbPaths): string | undefined {
	return readLocalConfig(paths.localConfig)?.candidates_consent;
}

/** The time consent was given: recorded now when `consent` is passed, else an error unless given before. */
export function requireConsent(paths: KbPaths, consent: boolean, now: Date): {at: string; granted_now: boolean} {
	const given = consentGiven(paths);
	if (given !== undefined) {
		return {at: given, granted_now: false};
	}

	if (!consent) {
		throw new EngiError('consent_required', `the first harvest into ${paths.root} needs --consent: it copies facts of private transcripts (masked) into ${paths.candidates}, which may be shared with git`, {
			hint: 'run it again with --consent once; nothing was written',
		});
	}

	const at = now.toISOString();
	writeConfigValue(paths.localConfig, 'candidates_consent', at);
	return {at, granted_now: true};
}
