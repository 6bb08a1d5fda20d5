import {readdirSync, readFileSync} from 'node:fs';
import {parseNote, candidateNoteSchema} from './source/engine/candidates/note.ts';
import {splitFrontmatter} from './source/engine/knowledge/frontmatter.ts';
const dir = '/tmp/engi-s/kb/00-inbox/candidates';
const texts = readdirSync(dir).map(n => readFileSync(`${dir}/${n}`, 'utf8'));
console.log('notes', texts.length, 'avg bytes', Math.round(texts.reduce((a, t) => a + t.length, 0) / texts.length));
for (let round = 0; round < 3; round++) {
let t = performance.now(); for (const x of texts) splitFrontmatter(x); const split = performance.now() - t;
t = performance.now(); const objs = texts.map(x => { const s = splitFrontmatter(x)!; const d: any = {}; for (const l of s.yaml.split('\n')) { const i = l.indexOf(': '); d[l.slice(0, i)] = JSON.parse(l.slice(i + 2)); } return d; }); const json = performance.now() - t;
t = performance.now(); for (const o of objs) candidateNoteSchema.safeParse(o); const zod = performance.now() - t;
t = performance.now(); for (const x of texts) parseNote(x); const full = performance.now() - t;
console.log({split: split.toFixed(1), json: json.toFixed(1), zod: zod.toFixed(1), full: full.toFixed(1)});
}
