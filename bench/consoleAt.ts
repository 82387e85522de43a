import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { precompress } from '../server/platform/http/precompress';

const ROOT = path.resolve(__dirname, '..');
/** What a console build of a commit needs from its tree; node_modules comes from this checkout. */
const BUILD_TREE = ['src', 'schemas', 'public', '.umirc.ts', 'package.json', 'tsconfig.json'];

/**
 * The console of an earlier commit, built into a temporary folder named by the commit (kept for
 * the next run): its sources taken out of git (nothing written into the tree), built with this
 * checkout's node_modules. Needs the repository's history (not a shallow clone).
 */
export async function consoleAt(ref: string): Promise<string> {
  const sha = execFileSync('git', ['rev-parse', '--short=12', `${ref}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const tree = path.join(os.tmpdir(), `fs-console-at-${sha}`);
  const out = path.join(tree, 'dist');
  if (fs.existsSync(path.join(out, '.built'))) return out;
  fs.rmSync(tree, { recursive: true, force: true });
  fs.mkdirSync(tree, { recursive: true });
  const tar = execFileSync('git', ['archive', sha, ...BUILD_TREE], { cwd: ROOT, maxBuffer: 256 << 20 });
  execFileSync('tar', ['-x', '-C', tree], { input: tar, maxBuffer: 256 << 20 });
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(tree, 'node_modules'));
  const r = spawnSync(path.join(ROOT, 'node_modules/.bin/max'), ['build'], {
    cwd: tree,
    env: { ...process.env, CONSOLE_OUTPUT: out },
    encoding: 'utf8',
  });
  if (r.status !== 0 || !fs.existsSync(path.join(out, 'index.html')))
    throw new Error(`console build of ${ref} failed:\n${r.stdout}\n${r.stderr}`);
  await precompress(out);
  fs.writeFileSync(path.join(out, '.built'), '');
  return out;
}
