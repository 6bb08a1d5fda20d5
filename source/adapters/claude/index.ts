import type {JsonlAdapter} from '../types.js';
import {claudeAtEnd, normalizeClaudeLine} from './normalize.js';
import {claudeResumeCommand, coworkResumeUnavailable} from './resume.js';
import {claudeStore} from './store.js';

export const claudeAdapter: JsonlAdapter = {
	...claudeStore,
	format: 'jsonl',
	normalizeLine: normalizeClaudeLine,
	atEnd: claudeAtEnd,
	nativeResumeCommand: claudeResumeCommand,
	nativeResumeUnavailable: coworkResumeUnavailable,
};
