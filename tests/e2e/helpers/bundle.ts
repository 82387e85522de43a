import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

/** DESIGN.md's budget for the console's entry script. */
export const ENTRY_GZIP_BUDGET = 150 * 1024;

/**
 * Code the login page does not need, each by a string only its library's code holds (after
 * minification): it must come with the pages that use it, never with the first load.
 */
export const LATER_CODE: Readonly<Record<string, string>> = {
  echarts: '_echarts_instance_',
  leaflet: 'leaflet-container',
  'ajv validators': 'must have required property',
  'pro-components': 'ProTable',
};

/** A catalogue key only the locale files hold (as JSON in a chunk): one per loaded language. */
export const CATALOGUE_MARK = '"loginNameRequired":';

/** The scripts index.html loads before the console runs (framework, helpers, the entry). */
export function htmlScripts(consoleDir: string): string[] {
  const html = fs.readFileSync(path.join(consoleDir, 'index.html'), 'utf8');
  return [...html.matchAll(/<script src="\/([^"]+\.js)"/g)].map((m) => m[1]);
}

export const entryScript = (consoleDir: string): string | undefined => htmlScripts(consoleDir).find((s) => /^umi\.[0-9a-f]+\.js$/.test(s));

export const gzipBytes = (file: string): number => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length;

/** Which of the given build files (paths relative to the build) hold `text`. */
export const filesHolding = (consoleDir: string, files: readonly string[], text: string): string[] =>
  files.filter((f) => fs.readFileSync(path.join(consoleDir, f), 'utf8').includes(text));

/** Every script of the build. */
export const allScripts = (consoleDir: string): string[] => fs.readdirSync(consoleDir).filter((f) => f.endsWith('.js'));
