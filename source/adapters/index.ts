import {antigravityAdapter} from './antigravity/index.js';
import {claudeAdapter} from './claude/index.js';
import {codexAdapter} from './codex/index.js';
import {copilotAdapter} from './copilot/index.js';
import {cursorAdapter} from './cursor/index.js';
import {geminiAdapter} from './gemini/index.js';
import {grokAdapter} from './grok/index.js';
import {opencodeAdapter} from './opencode/index.js';
import {qwenAdapter} from './qwen/index.js';
import type {SourceAdapter, SourceId} from './types.js';
import {vscodeAdapter} from './vscode/index.js';

/**
 * Every supported store, in the order sources are listed. Each adapter lives in its own folder
 * (paths, schema, discovery, normaliser or loader) and is reached only through this table.
 */
export const adapters: Record<SourceId, SourceAdapter> = {
	claude: claudeAdapter,
	codex: codexAdapter,
	opencode: opencodeAdapter,
	gemini: geminiAdapter,
	qwen: qwenAdapter,
	grok: grokAdapter,
	copilot: copilotAdapter,
	cursor: cursorAdapter,
	vscode: vscodeAdapter,
	antigravity: antigravityAdapter,
};

export function adapterFor(source: SourceId): SourceAdapter | undefined {
	return adapters[source];
}

export function availableAdapters(): SourceAdapter[] {
	return Object.values(adapters);
}
