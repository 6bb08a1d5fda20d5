import {processDeps} from '/work/retention/source/engine/deps.ts';
import {openCatalogView} from '/work/retention/source/engine/catalog/sessions.ts';
import {withIndex} from '/work/retention/source/engine/index/open.ts';
import {kbPaths} from '/work/retention/source/engine/kb/paths.ts';
import {loadCandidates, retirementOrder} from '/work/retention/source/engine/retention/candidates.ts';
import {createAssessor} from '/work/retention/source/engine/retention/assess.ts';
import {receiptsBySession} from '/work/retention/source/engine/retention/journal.ts';
import {retentionWindow} from '/work/retention/source/engine/retention/window.ts';
const deps = processDeps();
const t = () => performance.now();
for (let i = 0; i < 3; i++) {
let s = t();
await withIndex(kbPaths('/tmp/rtM/kb'), deps, index => {
	const view = openCatalogView({allProjects: true, includeSubagents: true}, deps);
	const v = t() - s; s = t();
	const c = loadCandidates(view);
	const l = t() - s; s = t();
	c.sort(retirementOrder);
	const so = t() - s; s = t();
	const a = createAssessor({catalog: view.db, index: index.db, deps, window: retentionWindow(0, deps), receipts: receiptsBySession(index.db), examineAll: false}, c);
	const r = c.map(x => a.assess(x, ch => ch.status !== 'blocked'));
	console.log('view', v.toFixed(0), 'load', l.toFixed(0), 'sort', so.toFixed(0), 'assess', (t() - s).toFixed(0));
	view.close();
});
}
