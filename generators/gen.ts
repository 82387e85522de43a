import path from 'node:path';
import { generatedFiles, missingMigrations, writeFiles } from './lib/generate';
import { projectPaths } from './lib/paths';

/** `npm run gen [-- --root DIR]`: schema → types, registry, locale index; scaffold missing migrations. */
async function main() {
  const i = process.argv.indexOf('--root');
  const paths = projectPaths(path.resolve(i > 0 ? process.argv[i + 1] : path.join(__dirname, '..')));
  const written = [...writeFiles(await generatedFiles(paths)), ...writeFiles(missingMigrations(paths))];
  for (const f of written) console.log('wrote', path.relative(paths.root, f));
  if (!written.length) console.log('generated files are up to date');
}

main().catch((e: Error) => {
  console.error(e.message);
  process.exit(1);
});
