import fs from 'node:fs';
import path from 'node:path';
import { generatedFiles, missingLocaleStubs, missingMigrations, writeAll } from './lib/generate';
import { projectPaths } from './lib/paths';

/**
 * `npm run gen [-- --root DIR] [--check]`: schema → types, registry, locale index; scaffolds
 * missing label files and migrations. With --check nothing is written: it exits 1 naming every stale file.
 */
async function main() {
  const i = process.argv.indexOf('--root');
  const paths = projectPaths(path.resolve(i > 0 ? process.argv[i + 1] : path.join(__dirname, '..')));
  if (process.argv.includes('--check')) {
    const stubs = missingLocaleStubs(paths);
    const migrations = missingMigrations(paths);
    const generated = await generatedFiles(paths);
    const stale = [...generated].filter(([f, c]) => !fs.existsSync(f) || fs.readFileSync(f, 'utf8') !== c).map(([f]) => f);
    const missing = [...migrations.keys(), ...stubs.keys()];
    for (const f of stale) console.error('stale:', path.relative(paths.root, f));
    for (const f of missing) console.error('missing:', path.relative(paths.root, f).replace(/\d{16}/, '<timestamp>'));
    if (stale.length || missing.length) {
      console.error('run `npm run gen` and commit the result');
      process.exit(1);
    }
    console.log('generated files are up to date');
    return;
  }
  const written = await writeAll(paths);
  for (const f of written) console.log('wrote', path.relative(paths.root, f));
  if (!written.length) console.log('generated files are up to date');
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
