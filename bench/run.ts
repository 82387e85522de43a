import fs from 'node:fs';
import path from 'node:path';
import type { BenchResult } from './lib';

/**
 * `npm run bench [-- name-filter]`: runs every bench/*.bench.ts (each exports `run()`), prints one
 * JSON line per result and keeps them in bench/results/ (git-ignored) for the README figures.
 */
async function main() {
  const filter = process.argv[2];
  const files = fs
    .readdirSync(__dirname)
    .filter((f) => f.endsWith('.bench.ts') && (!filter || f.includes(filter)))
    .sort();
  const all: BenchResult[] = [];
  for (const f of files) {
    const mod = (await import(path.join(__dirname, f))) as { run: () => Promise<BenchResult | BenchResult[]> };
    const r = await mod.run();
    for (const x of Array.isArray(r) ? r : [r]) {
      console.log(JSON.stringify(x));
      all.push(x);
    }
  }
  fs.mkdirSync(path.join(__dirname, 'results'), { recursive: true });
  fs.writeFileSync(path.join(__dirname, 'results', `${new Date().toISOString().replace(/[:.]/g, '-')}.json`), JSON.stringify(all, null, 2));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
