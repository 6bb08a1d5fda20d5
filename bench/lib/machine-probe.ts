import {spawnSync} from 'node:child_process';
import {median} from './measure.js';

/**
 * A fixed piece of work shaped like a cold scan (JSON lines parsed, strings cut and joined,
 * objects made and dropped), run in a fresh process: its time says how fast this machine is right
 * now. The CPU of the VMs engi is measured on changes speed from hour to hour (the same cold
 * build took 9.7 s of CPU at one time and 6.5 s five minutes later), so two runs' figures are
 * comparable only beside their probes.
 */
const workload = `
const line = JSON.stringify({type: 'assistant', message: {role: 'assistant', content: [{type: 'text', text: 'x'.repeat(400)}, {type: 'tool_use', name: 'Bash', input: {command: 'ls -la /tmp'}}]}, uuid: '0f8fad5b-d9cb-469f-a165-70867728950e', timestamp: '2026-12-01T10:00:00.000Z'});
let kept = 0;
for (let i = 0; i < 60000; i++) {
	const record = JSON.parse(line);
	const text = record.message.content.map(part => part.text ?? part.name).join('\\n');
	kept += text.slice(0, 200).toLowerCase().split(' ').length + (i % 7);
}
if (kept < 0) console.log(kept);
`;

/** The probe's median wall time over `runs` fresh processes, in ms. */
export function probeMachine(runs = 5): number {
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const started = process.hrtime.bigint();
		spawnSync(process.execPath, ['-e', workload], {stdio: 'ignore'});
		times.push(Number(process.hrtime.bigint() - started) / 1e6);
	}

	return median(times);
}
