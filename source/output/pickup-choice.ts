import type {Deps} from '../engine/deps.js';
import type {PickupOutput} from '../engine/continuity/pickup.js';
import {visible} from './text.js';

/**
 * After the dashboard closes on a pickup: print the commands (engi never runs them) and offer
 * the first to the clipboard with OSC 52, which terminals that support it copy silently.
 */
export function printPickupChoice(stream: NodeJS.WritableStream & {isTTY?: boolean}, pickup: Extract<PickupOutput, {status: 'ok'}>, deps: Deps): void {
	// The dashboard's last frame stays on screen; start below it.
	const lines = ['', `Pick up ${pickup.target.source} ${pickup.target.id}${pickup.target.title ? ` — ${pickup.target.title}` : ''}`];
	if (pickup.native_resume_command) {
		lines.push(`  resume in ${pickup.target.source}:  ${pickup.native_resume_command}`);
	}

	lines.push(`  brief for a new session:  ${pickup.resume_command}`);
	stream.write(visible(lines.join('\n') + '\n'));
	const copy = pickup.native_resume_command ?? pickup.resume_command;
	if (stream.isTTY && deps.env['TERM'] !== 'dumb' && !deps.env['ENGI_NO_OSC52']) {
		stream.write(`\u001B]52;c;${Buffer.from(copy).toString('base64')}\u0007`);
		stream.write(`  (copied to the clipboard where the terminal allows: ${copy})\n`);
	}
}
