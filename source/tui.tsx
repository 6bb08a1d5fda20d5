/**
 * The dashboard's entry, and the only module that imports ink and react. The CLI reaches it
 * through a dynamic import, so JSON-mode calls never pay for the UI stack.
 */
import {render} from 'ink';
import type {Deps} from './engine/deps.js';
import {App, type TuiResult} from './screens/app.js';
import {createEngineClient, type Scope} from './screens/engine-client.js';
import type {PickupTarget} from './screens/pickup/index.js';
import type {ScreenId} from './screens/navigation.js';

export type TuiRequest = {
	readonly screen: ScreenId;
	readonly deps: Deps;
	readonly scope: Scope;
	readonly rootFlag: string | undefined;
	readonly query?: string;
	readonly target?: PickupTarget;
};

// The dashboard draws on the terminal's alternate screen, as full-screen tools do: leaving it
// gives back the shell's scrollback untouched, with only what engi prints afterwards below it.
const enterAlternateScreen = '\u001B[?1049h';
const leaveAlternateScreen = '\u001B[?1049l';

export async function runTui(request: TuiRequest): Promise<TuiResult> {
	const client = await createEngineClient(request.deps, request.scope, request.rootFlag);
	let restored = false;
	const restore = () => {
		if (!restored) {
			restored = true;
			process.stdout.write(leaveAlternateScreen);
		}
	};

	process.stdout.write(enterAlternateScreen);
	process.once('exit', restore); // Even when something ends the process without unmounting.
	try {
		const instance = render(<App client={client} initialScreen={request.screen} initialQuery={request.query} initialTarget={request.target} />, {exitOnCtrlC: true, patchConsole: false});
		const result = (await instance.waitUntilExit()) as TuiResult | undefined;
		return result ?? {kind: 'quit'};
	} finally {
		restore();
		process.off('exit', restore);
	}
}

export type {TuiResult};
