import {antigravityStore} from './antigravity/store.js';
import {claudeStore} from './claude/store.js';
import {codexStore} from './codex/store.js';
import {copilotStore} from './copilot/store.js';
import {cursorStore} from './cursor/store.js';
import {geminiStore} from './gemini/store.js';
import {grokStore} from './grok/store.js';
import {opencodeStore} from './opencode/store.js';
import {qwenStore} from './qwen/store.js';
import type {SourceAdapter, SourceId, SourceStore} from './types.js';
import {vscodeStore} from './vscode/store.js';

/**
 * Every supported store, in the order sources are listed: how to find, list and retire its
 * sessions. A warm call that reads no session (a listing, a retention plan) needs nothing more;
 * the normalisers and loaders, most of the adapters' code, load with loadAdapter when a session
 * is read (a changed transcript the catalog must scan again, `engi read`).
 */
export const stores: Record<SourceId, SourceStore> = {
	claude: claudeStore,
	codex: codexStore,
	opencode: opencodeStore,
	gemini: geminiStore,
	qwen: qwenStore,
	grok: grokStore,
	copilot: copilotStore,
	cursor: cursorStore,
	vscode: vscodeStore,
	antigravity: antigravityStore,
};

export function storeFor(source: SourceId): SourceStore | undefined {
	return stores[source];
}

export function availableStores(): SourceStore[] {
	return Object.values(stores);
}

/** A source's whole adapter (its store and its reader), once loaded; undefined for a source engi does not support. */
export type AdapterLookup = (source: SourceId) => SourceAdapter | undefined;

/** Every source's whole adapter, loaded on first use: a lookup for code that reads sessions. */
export async function loadAdapters(): Promise<AdapterLookup> {
	const {adapterFor} = await import('./index.js');
	return adapterFor;
}

/** One source's whole adapter, loaded on first use. */
export async function loadAdapter(source: SourceId): Promise<SourceAdapter | undefined> {
	return (await loadAdapters())(source);
}
