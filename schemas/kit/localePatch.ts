import { LANGUAGES, type Language } from './i18n';

/**
 * Overrides → a patch of `schemas/locales` (issue 17 §4): the files as they would read with the
 * published overrides written into them, as a unified diff `git apply` (or `patch -p1`) takes from
 * the repository's root. Each file is written as the locale files are kept: two-space JSON and a
 * final newline. Pure, so the console makes the download and a test applies it.
 */

type Json = { [k: string]: unknown };
/** The locale files of one language, as `schemas/generated/locales.ts` imports them. */
export interface LocaleFiles {
  messages: Json;
  entities: Record<string, Json>;
}
export type LocaleSources = Record<Language, LocaleFiles>;

export interface PublishedText {
  locale: Language;
  key: string;
  value: string;
}

/** Where a catalogue key lives: the entity file for `entity.<name>.…`, else messages.json. */
export function fileOfKey(files: LocaleFiles, key: string): { file: string; path: string } {
  const m = /^entity\.([^.]+)\.(.+)$/.exec(key);
  if (m && m[1] in files.entities) return { file: `entities/${m[1]}.json`, path: m[2] };
  return { file: 'messages.json', path: key };
}

/**
 * Sets a dotted key in nested objects, following existing properties first (longest match, so a
 * property whose own name holds a dot is still found) and creating objects only where none exist.
 */
function setDotted(obj: Json, dotted: string, value: string): void {
  const names = Object.keys(obj)
    .filter((k) => dotted === k || dotted.startsWith(k + '.'))
    .sort((a, b) => b.length - a.length);
  const hit = names[0];
  if (hit === dotted) {
    obj[hit] = value;
    return;
  }
  if (hit !== undefined && obj[hit] && typeof obj[hit] === 'object') {
    setDotted(obj[hit] as Json, dotted.slice(hit.length + 1), value);
    return;
  }
  const dot = dotted.indexOf('.');
  if (dot < 0) {
    obj[dotted] = value;
    return;
  }
  const head = dotted.slice(0, dot);
  const child: Json = {};
  obj[head] = child;
  setDotted(child, dotted.slice(dot + 1), value);
}

const fileText = (json: unknown) => JSON.stringify(json, null, 2) + '\n';

/** The changed locale files (path under schemas/locales → before, after). */
export function patchedFiles(sources: LocaleSources, texts: readonly PublishedText[]): Map<string, { before: string; after: string }> {
  const out = new Map<string, { before: string; after: string; json: Json }>();
  for (const t of [...texts].sort((a, b) => a.locale.localeCompare(b.locale) || a.key.localeCompare(b.key))) {
    const files = sources[t.locale];
    if (!files) continue;
    const { file, path } = fileOfKey(files, t.key);
    const name = `${t.locale}/${file}`;
    let entry = out.get(name);
    if (!entry) {
      const original = file === 'messages.json' ? files.messages : files.entities[file.slice('entities/'.length, -'.json'.length)];
      entry = { before: fileText(original), after: '', json: structuredClone(original) };
      out.set(name, entry);
    }
    setDotted(entry.json, path, t.value);
  }
  const changed = new Map<string, { before: string; after: string }>();
  for (const l of LANGUAGES)
    for (const [name, e] of [...out].filter(([n]) => n.startsWith(l + '/')).sort(([a], [b]) => a.localeCompare(b))) {
      const after = fileText(e.json);
      if (after !== e.before) changed.set(name, { before: e.before, after });
    }
  return changed;
}

/** The patch of every changed locale file ('' when the overrides change nothing). */
export function localePatch(sources: LocaleSources, texts: readonly PublishedText[], root = 'schemas/locales'): string {
  let patch = '';
  for (const [name, { before, after }] of patchedFiles(sources, texts)) patch += unifiedDiff(`${root}/${name}`, before, after);
  return patch;
}

const CONTEXT = 3;

/**
 * A unified diff of two texts of whole lines. Longest common subsequence by dynamic programming:
 * locale files are at most a few thousand lines, and only the lines between the first and last
 * difference enter the table.
 */
export function unifiedDiff(path: string, before: string, after: string): string {
  const a = before.split('\n').slice(0, -1);
  const b = after.split('\n').slice(0, -1);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  if (start === endA && start === endB) return '';
  // ops over the middle: ' ' kept, '-' removed, '+' added.
  const n = endA - start;
  const m = endB - start;
  const lcs: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[start + i] === b[start + j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const ops: Array<{ op: ' ' | '-' | '+'; line: string; ai: number; bi: number }> = [];
  for (let i = 0; i < start; i++) ops.push({ op: ' ', line: a[i], ai: i, bi: i });
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[start + i] === b[start + j]) {
      ops.push({ op: ' ', line: a[start + i], ai: start + i, bi: start + j });
      i++;
      j++;
    } else if (i < n && (j === m || lcs[i + 1][j] >= lcs[i][j + 1])) {
      // Removals before additions, as diff writes them.
      ops.push({ op: '-', line: a[start + i], ai: start + i, bi: start + j });
      i++;
    } else {
      ops.push({ op: '+', line: b[start + j], ai: start + i, bi: start + j });
      j++;
    }
  }
  for (let k = 0; endA + k < a.length; k++) ops.push({ op: ' ', line: a[endA + k], ai: endA + k, bi: endB + k });

  // Hunks: changes with CONTEXT lines around them, merged when their contexts touch.
  const changed = ops.map((o, k) => (o.op === ' ' ? -1 : k)).filter((k) => k >= 0);
  const hunks: Array<[number, number]> = [];
  for (const k of changed) {
    const from = Math.max(0, k - CONTEXT);
    const to = Math.min(ops.length - 1, k + CONTEXT);
    const last = hunks[hunks.length - 1];
    if (last && from <= last[1] + 1) last[1] = Math.max(last[1], to);
    else hunks.push([from, to]);
  }
  let out = `--- a/${path}\n+++ b/${path}\n`;
  for (const [from, to] of hunks) {
    const slice = ops.slice(from, to + 1);
    const oldCount = slice.filter((o) => o.op !== '+').length;
    const newCount = slice.filter((o) => o.op !== '-').length;
    const oldStart = slice[0].ai + (oldCount ? 1 : 0);
    const newStart = slice[0].bi + (newCount ? 1 : 0);
    out += `@@ -${oldStart},${oldCount} +${newStart},${newCount} @@\n`;
    for (const o of slice) out += `${o.op}${o.line}\n`;
  }
  return out;
}
