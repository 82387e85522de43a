import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migrationFiles, MIGRATIONS_DIR } from '../../../../server/platform/db/migrate';

describe('migration files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-migration-names-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('lists the shipped migrations in time order, every .sql file among them', () => {
    const files = migrationFiles();
    expect(files.length).toBeGreaterThan(10);
    expect(files).toEqual([...files].sort());
    expect(files).toEqual(
      fs
        .readdirSync(MIGRATIONS_DIR)
        .filter((f) => f.endsWith('.sql'))
        .sort(),
    );
  });

  it('refuses an SQL file whose name would have it skipped, naming it', () => {
    for (const f of ['2026120109010000_b.sql', '2026120108010000_a.sql', 'README.md']) fs.writeFileSync(path.join(dir, f), '');
    expect(migrationFiles(dir)).toEqual(['2026120108010000_a.sql', '2026120109010000_b.sql']);
    fs.writeFileSync(path.join(dir, '20261201_short.sql'), '');
    fs.writeFileSync(path.join(dir, '2026120110010000_Upper.sql'), '');
    expect(() => migrationFiles(dir)).toThrow(/16 digits\): 2026120110010000_Upper\.sql, 20261201_short\.sql in /);
  });
});
