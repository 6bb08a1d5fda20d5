// A separate process that appends many events through the real journal writer, for the
// concurrency test: argv = <kb root> <worker number> <count>.
import {processDeps} from '../../source/engine/deps.js';
import {appendEvents} from '../../source/engine/journal/append.js';
import {kbPaths} from '../../source/engine/kb/paths.js';

const [root, worker, count] = process.argv.slice(2);
const paths = kbPaths(root!);
for (let index = 0; index < Number(count); index++) {
	await appendEvents(paths, [{op: 'node.upsert', payload: {id: `w${worker}-${index}`, kind: 'Task', label: `worker ${worker} item ${index} ${'x'.repeat(index % 7 === 0 ? 5000 : 10)}`}}], processDeps());
}
