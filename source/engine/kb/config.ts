import {mkdirSync, readFileSync} from 'node:fs';
import {dirname} from 'node:path';
import type {Deps} from '../deps.js';
import {EngiError, systemErrorCode, writeError} from '../../lib/errors.js';
import {writeFileAtomic} from '../../lib/atomic.js';
import {parseBoundedJson} from '../../lib/json-depth.js';
import {globalConfigSchema, localConfigSchema, type GlobalConfig, type LocalConfig} from './config-schema.js';
import {globalConfigPath} from './paths.js';

/**
 * Reads a JSON config file. Missing is normal (undefined); unreadable and malformed are distinct
 * errors that name the file, so a broken config is never mistaken for "not configured".
 */
function readJsonObject(path: string): Record<string, unknown> | undefined {
	let text: string;
	try {
		text = readFileSync(path, 'utf8');
	} catch (error) {
		if (systemErrorCode(error) === 'ENOENT') {
			return undefined;
		}

		throw new EngiError('config_unreadable', `cannot read config file ${path} (${systemErrorCode(error) ?? 'error'})`, {
			hint: 'check the file\'s permissions, or remove it and register the root again with engi config set --global root <path>',
			cause: error,
		});
	}

	if (text.charCodeAt(0) === 0xfe_ff) {
		text = text.slice(1); // Editors on some systems write a UTF-8 byte-order mark.
	}

	let parsed: unknown;
	try {
		parsed = parseBoundedJson(text);
	} catch {
		throw new EngiError('config_malformed', `config file ${path} is not valid JSON`, {
			hint: 'fix or remove the file; engi config set --global root <path> rewrites it',
		});
	}

	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new EngiError('config_malformed', `config file ${path} must hold a JSON object`, {
			hint: 'fix or remove the file; engi config set --global root <path> rewrites it',
		});
	}

	return parsed as Record<string, unknown>;
}

function validated<T>(path: string, value: Record<string, unknown>, schema: {safeParse(input: unknown): {success: boolean; data?: T; error?: {issues: Array<{path: PropertyKey[]; message: string}>}}}): T {
	const result = schema.safeParse(value);
	if (!result.success) {
		const issue = result.error?.issues[0];
		const where = issue?.path.map(String).join('.') || 'value';
		throw new EngiError('config_malformed', `config file ${path}: ${where}: ${issue?.message ?? 'invalid'}`, {
			hint: 'fix the key with engi config set, or edit the file',
		});
	}

	return result.data as T;
}

export function readGlobalConfig(deps: Deps): {path: string; config: GlobalConfig | undefined} {
	const path = globalConfigPath(deps);
	const raw = readJsonObject(path);
	return {path, config: raw === undefined ? undefined : validated<GlobalConfig>(path, raw, globalConfigSchema)};
}

export function readLocalConfig(path: string): LocalConfig | undefined {
	const raw = readJsonObject(path);
	return raw === undefined ? undefined : validated<LocalConfig>(path, raw, localConfigSchema);
}

/** Rewrites a config file with sorted keys, keeping keys engi does not know about; a dotted key (`memory.fact.weight`) sets a value inside nested objects. */
export function writeConfigValue(path: string, key: string, value: unknown): Record<string, unknown> {
	const current = readJsonObject(path) ?? {};
	const sorted = withValueAt(current, key.split('.'), value);
	try {
		mkdirSync(dirname(path), {recursive: true, mode: 0o700});
	} catch (error) {
		throw writeError(dirname(path), error);
	}

	writeFileAtomic(path, JSON.stringify(sorted, null, 2) + '\n');
	return sorted;
}

/** `object` with `value` at the key path, every object on the way keeping its other keys, sorted. */
function withValueAt(object: Record<string, unknown>, keys: readonly string[], value: unknown): Record<string, unknown> {
	const [head, ...rest] = keys as [string, ...string[]];
	const inner = object[head];
	const next: Record<string, unknown> = {...object, [head]: rest.length === 0 ? value : withValueAt(inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {}, rest, value)};
	return Object.fromEntries(Object.keys(next).sort().map(name => [name, next[name]]));
}
