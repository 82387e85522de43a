/**
 * Summarises a .cpuprofile (V8's format, from --cpu-prof or cpuProfile.cjs): self time by
 * function and by file, as shares of the sampled time, the largest first.
 *
 *   npx tsx bench/telematics/profileSummary.ts <file.cpuprofile> [top, default 40]
 */

import fs from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profileSummary.ts <file.cpuprofile> [top]');
const top = Number(topArg || 40);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const shortUrl = (url: string) =>
  url
    .replace(/^.*\/(node_modules\/)/, '$1')
    .replace(/^.*\/wt\/[^/]+\//, '')
    .replace(/^file:\/\//, '');
const fn = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const name = `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;
  fn.set(name, (fn.get(name) ?? 0) + us);
  const f = shortUrl(n.callFrame.url) || n.callFrame.functionName;
  files.set(f, (files.get(f) ?? 0) + us);
}
const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title} (of ${(total / 1000).toFixed(0)} ms sampled)`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, top))
    console.log(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
};
print('self time by function', fn);
print('self time by file', files);
