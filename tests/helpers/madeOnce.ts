import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * What the test helpers make once and share across jest's worker processes and later runs (the
 * console build, the seeded databases): named by a digest of their sources, made under a lock.
 */

/**
 * A hex digest of the files under `rels` (relative to `root`): their paths and contents, in name
 * order. `keep` decides, by name, which folders are entered and which files count.
 */
export function sourcesDigest(
  root: string,
  rels: readonly string[],
  keep: (name: string, isDirectory: boolean) => boolean = () => true,
): string {
  const hash = crypto.createHash('sha256');
  const walk = (rel: string) => {
    const abs = path.join(root, rel);
    const st = fs.statSync(abs, { throwIfNoEntry: false });
    if (!st) return;
    if (st.isDirectory()) {
      for (const name of fs.readdirSync(abs).sort())
        if (keep(name, fs.statSync(path.join(abs, name)).isDirectory())) walk(path.join(rel, name));
      return;
    }
    hash.update(rel).update('\0').update(fs.readFileSync(abs)).update('\0');
  };
  for (const rel of rels) walk(rel);
  return hash.digest('hex');
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Runs `make` unless `done` exists, in one process at a time: the lock is a directory (mkdir is
 * atomic); a lock older than `staleMs` belongs to a killed run and is taken over. `make` writes `done`.
 */
export async function makeOnce(files: { done: string; lock: string }, staleMs: number, make: () => Promise<void>): Promise<void> {
  const { done, lock } = files;
  for (;;) {
    if (fs.existsSync(done)) return;
    try {
      fs.mkdirSync(lock);
      break;
    } catch (e) {
      // Only a lock that exists means another process makes it; any other failure is a real one.
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const age = Date.now() - (fs.statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > staleMs) fs.rmSync(lock, { recursive: true, force: true });
      await sleep(200);
    }
  }
  try {
    if (!fs.existsSync(done)) await make();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}
