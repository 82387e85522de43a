/**
 * `npm run accuracy`: the accuracy suite on an embedded database of its own (PGlite in memory,
 * migrated and demo-seeded as `npm start` makes it). Prints the results table (docs/accuracy.md)
 * and every day that broke a tolerance; exits 1 when any tolerance is broken.
 *   npm run accuracy -- [--vehicles 18] [--days 6] [--json results.json]
 */

import fs from 'node:fs';
import { openDatabase } from '../../platform/db/database';
import { migrate } from '../../platform/db/migrate';
import { seed } from '../../seed/seed';
import { runAccuracySuite } from './suite';
import { dayFailures, eventsWithinTolerance, resultsTable, summarise } from './score';

function argOf(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(value) || value < 1) throw new Error(`--${name} takes a whole number of at least 1`);
  return value;
}

async function main(): Promise<void> {
  const vehicles = argOf('vehicles', 18);
  const days = argOf('days', 6);
  const json = process.argv.includes('--json') ? process.argv[process.argv.indexOf('--json') + 1] : null;
  const database = await openDatabase({ dataDir: 'memory://' });
  const started = Date.now();
  try {
    await migrate(database);
    await seed(database.db, { demo: true });
    const verdicts = await runAccuracySuite(database.db, {
      vehicles,
      days,
      each: (done, total) => process.stderr.write(`sent ${done}/${total} vehicles\n`),
    });
    const summaries = summarise(verdicts);
    console.log(`${verdicts.length} vehicle-days in ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
    console.log(resultsTable(summaries));
    const failed = verdicts.flatMap((v) => {
      const f = dayFailures(v);
      return f.length ? [`- vehicle ${v.vehicle}, ${v.day} (${v.profile}): ${f.join('; ')}`] : [];
    });
    const all = summaries[summaries.length - 1];
    if (!eventsWithinTolerance(all)) failed.push('- refuel and drain precision or recall under 95 %');
    console.log(failed.length ? `\nOut of tolerance:\n${failed.join('\n')}` : '\nEvery tolerance met.');
    if (json) fs.writeFileSync(json, JSON.stringify({ verdicts, summaries }, null, 2));
    process.exitCode = failed.length ? 1 : 0;
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 2;
});
