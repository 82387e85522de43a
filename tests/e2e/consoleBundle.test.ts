import path from 'node:path';
import { buildConsole } from './helpers/console';
import {
  allScripts,
  CATALOGUE_MARK,
  ENTRY_GZIP_BUDGET,
  entryScript,
  filesHolding,
  gzipBytes,
  htmlScripts,
  LATER_CODE,
} from './helpers/bundle';

/**
 * The console's first load, over the build the browser tests share (issue 31, DESIGN.md's budget):
 * the entry script within 150 KB gzipped, and what only later pages need in chunks of their own.
 */
jest.setTimeout(900_000);

let consoleDir: string;
beforeAll(async () => {
  consoleDir = await buildConsole();
});

it('keeps the entry script within 150 KB gzipped', () => {
  const entry = entryScript(consoleDir);
  expect(entry).toBeDefined();
  expect(gzipBytes(path.join(consoleDir, entry!))).toBeLessThanOrEqual(ENTRY_GZIP_BUDGET);
});

it.each(Object.entries(LATER_CODE))('loads %s only with the pages that use it', (_, mark) => {
  // The mark is live: the build holds the library, in a chunk index.html does not load.
  expect(filesHolding(consoleDir, allScripts(consoleDir), mark).length).toBeGreaterThan(0);
  expect(filesHolding(consoleDir, htmlScripts(consoleDir), mark)).toEqual([]);
});

it('keeps each language in a chunk of its own, none in the first scripts', () => {
  expect(filesHolding(consoleDir, allScripts(consoleDir), CATALOGUE_MARK)).toHaveLength(4);
  expect(filesHolding(consoleDir, htmlScripts(consoleDir), CATALOGUE_MARK)).toEqual([]);
});
