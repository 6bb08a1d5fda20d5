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
import {vscodeAdapterReading} from './vscode/index.js';

/**
 * Every supported store with its reader. Each adapter lives in its own folder (paths, schema,
 * discovery and store, normaliser or loader) and is reached only through this table or, for
 * what lists sessions without reading them, through stores.ts. Imported with import() only
 * (loadAdapter), so a call that reads no session never compiles the readers.
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
	vscode: vscodeAdapterReading(copilotAdapter),
	antigravity: antigravityAdapter,
};

export function adapterFor(source: SourceId): SourceAdapter | undefined {
	return adapters[source];
}
