import fs from 'node:fs';
import path from 'node:path';

/** The file inside DATA_DIR naming the process that has the embedded database open. */
export const LOCK_FILE = 'fleet-star.lock';

export interface DataDirLock {
  release(): void;
}

/** Whether a process with this pid runs (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An existing DATA_DIR this process cannot read and write fails here, naming the path and what is
 * missing, instead of deep inside the database engine.
 */
export function checkDataDirAccess(dir: string): void {
  if (!fs.existsSync(dir)) return;
  if (!fs.statSync(dir).isDirectory()) throw new Error(`DATA_DIR ${dir} is not a directory`);
  for (const [mode, what] of [
    [fs.constants.R_OK | fs.constants.X_OK, 'read'],
    [fs.constants.W_OK, 'write'],
  ] as const) {
    try {
      fs.accessSync(dir, mode);
    } catch {
      const uid = typeof process.getuid === 'function' ? ` (uid ${process.getuid()})` : '';
      throw new Error(
        `DATA_DIR ${dir} lacks ${what} permission for this process${uid}: give it read and write permission (chmod/chown) or set DATA_DIR to another directory`,
      );
    }
  }
}

/**
 * One server per DATA_DIR: two processes on one embedded database hand out the same ids and lose
 * each other's writes. The lock file holds the owner's pid; a lock whose process is gone (a crash,
 * kill -9) is taken over.
 */
export function lockDataDir(dir: string): DataDirLock {
  const file = path.join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: 'wx' });
      return {
        release() {
          // Only our own lock: never one a later owner took over.
          if (fs.existsSync(file) && Number(fs.readFileSync(file, 'utf8').trim()) === process.pid) fs.rmSync(file, { force: true });
        },
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const holder = Number(fs.readFileSync(file, 'utf8').trim());
    if (Number.isInteger(holder) && holder > 0 && holder !== process.pid && alive(holder)) {
      throw new Error(
        `DATA_DIR ${dir} is in use by another Fleet Star process (pid ${holder}): stop it first, or set DATA_DIR to another directory (lock file ${file})`,
      );
    }
    // Stale: its process is gone. Remove and try again (another starter may win the race).
    fs.rmSync(file, { force: true });
  }
  throw new Error(`DATA_DIR ${dir}: could not take the lock file ${file}`);
}
