// A separate process that takes a knowledge base's journal lock, says "locked" on stdout, and
// holds it until its stdin closes: writers started meanwhile do all their planning first and
// then queue on the lock, as racing writers would. argv = <kb root>.
import {withExclusiveLock} from '../../source/engine/kb/lock.js';
import {kbPaths} from '../../source/engine/kb/paths.js';

const paths = kbPaths(process.argv[2]!);
await withExclusiveLock(paths.engi, 'journal', async () => {
	process.stdout.write('locked\n');
	await new Promise<void>(resolve => {
		process.stdin.on('end', resolve).resume();
	});
});
