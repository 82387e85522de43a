import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { verifyPassword } from '../../../server/platform/auth/password';
import { openSession } from '../../../server/platform/auth/sessions';
import { LOCK_FILE } from '../../../server/platform/db/dataDirLock';
import { openDatabase } from '../../../server/platform/db/database';
import { migrate } from '../../../server/platform/db/migrate';
import { seed } from '../../../server/seed/seed';
import { http, startServerProcess, type ServerProcess } from '../../helpers/serverProcess';
import { ADMIN_PASSWORD, freshPostgres } from '../../helpers/testServer';

const root = path.resolve(__dirname, '../../..');
jest.setTimeout(240_000);

/** `npm run admin -- …` as an operator runs it; resolves with its exit code and output. */
function adminCommand(
  args: string[],
  env: Record<string, string>,
  stdin?: string,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', '-s', 'admin', '--', ...args], {
      cwd: root,
      env: { ...process.env, NEW_PASSWORD: '', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.stdin.end(stdin ?? '');
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('the data directory (issue 18 #4, #5, L4)', () => {
  let dir: string;
  const running: ServerProcess[] = [];
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-datadir-'));
  });
  afterAll(async () => {
    for (const p of running) await p.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('lets one server hold a DATA_DIR, names the holder to a second, and takes over the lock of a dead one', async () => {
    // A database made before the role rule: one account holds another organisation's role.
    const database = await openDatabase({ dataDir: dir });
    await migrate(database);
    await seed(database.db, { demo: true, adminPassword: ADMIN_PASSWORD });
    const db = database.db;
    const hnRole = await db
      .selectFrom('role as r')
      .innerJoin('organisation as o', 'o.id', 'r.org_id')
      .select('r.id')
      .where('o.code', '=', 'HN')
      .executeTakeFirstOrThrow();
    const hdManager = await db.selectFrom('member').select('id').where('login_name', '=', 'hd-manager').executeTakeFirstOrThrow();
    await db.insertInto('member_role').values({ member_id: hdManager.id, role_id: hnRole.id }).execute();
    await database.close();
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);

    const a = await startServerProcess(root, { DATA_DIR: dir }, ['--no-console'], { direct: true });
    running.push(a);
    expect(fs.readFileSync(path.join(dir, LOCK_FILE), 'utf8').trim()).toBe(String(a.child.pid));
    // Start-up reports the old misassignment once, with counts.
    expect(a.output()).toMatch(/"assignments":1,"members":1,"roles":1.*role assignments outside/);
    // A NUL is a 400 and leaves no stack trace in the log.
    expect((await http(a.url + '/api/login', 'POST', { loginName: 'ad\u0000min', password: 'x' })).status).toBe(400);

    await expect(startServerProcess(root, { DATA_DIR: dir }, ['--no-console'])).rejects.toThrow(
      `is in use by another Fleet Star process (pid ${a.child.pid})`,
    );
    // The recovery command refuses too, while the server runs.
    const refused = await adminCommand(['unlock', 'admin'], { DATA_DIR: dir });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`in use by another Fleet Star process (pid ${a.child.pid})`);
    // The first server still answers, and never logged an unhandled error.
    expect((await http(a.url + '/api/health', 'GET')).status).toBe(200);
    expect(a.output()).not.toMatch(/unhandled error|\n\s+at /);

    // Killed outright, it leaves its lock behind; the next start takes it over.
    const killed = new Promise((r) => a.child.once('exit', r));
    a.child.kill('SIGKILL');
    await killed;
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(true);

    // Recovery: a generated password, printed once; the server then lets it in.
    const reset = await adminCommand(['reset-password', 'admin'], { DATA_DIR: dir });
    expect(reset.stderr).toBe('');
    expect(reset.code).toBe(0);
    const generated = /shown once[^:]*: (\S+)/.exec(reset.stdout)![1];
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
    const c = await startServerProcess(root, { DATA_DIR: dir }, ['--no-console'], { direct: true });
    running.push(c);
    expect((await http(c.url + '/api/login', 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).status).toBe(400);
    const login = await http(c.url + '/api/login', 'POST', { loginName: 'admin', password: generated });
    expect(login.json.success).toBe(true);
    expect(await c.stop()).toBe(0);
    expect(fs.existsSync(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('refuses an existing DATA_DIR it cannot write, naming the path and the permission', () => {
    const locked = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-readonly-'));
    try {
      fs.chmodSync(locked, 0o555);
      // Root writes anywhere: it runs the server without the capability that overrides permissions
      // (setpriv, util-linux), still as root, so the checkout is readable wherever it was cloned
      // (running it as `nobody` failed in a clone under a 0700 mktemp directory).
      const server = [path.join(root, 'node_modules/.bin/tsx'), path.join(root, 'server/main.ts'), '--no-console'];
      const [command, ...args] =
        process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--', ...server] : server;
      const r = spawnSync(command, args, {
        cwd: root,
        env: { ...process.env, DATA_DIR: locked, PORT: '0', JT808_PORT: '0', SIMULATE: '0', LOG_LEVEL: 'warn', HOME: os.tmpdir() },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(r.error).toBeUndefined();
      expect(r.status).toBe(1);
      expect(r.stderr).toContain(`DATA_DIR ${locked} lacks write permission`);
    } finally {
      fs.chmodSync(locked, 0o755);
      fs.rmSync(locked, { recursive: true, force: true });
    }
  });
});

describe('npm run admin on PostgreSQL (DATABASE_URL)', () => {
  it('resets a password from NEW_PASSWORD or stdin without printing it, ends sessions, and refuses unknown accounts and weak passwords', async () => {
    const pgdb = await freshPostgres();
    try {
      const database = await openDatabase({ databaseUrl: pgdb.url, poolSize: 2 });
      await migrate(database);
      await seed(database.db, { demo: false, adminPassword: ADMIN_PASSWORD });
      const db = database.db;
      const admin = await db.selectFrom('member').select('id').where('login_name', '=', 'admin').executeTakeFirstOrThrow();
      await openSession({ db, secret: 's', ttlHours: 1 }, admin.id, { application: 'obd-web', ip: null, userAgent: null });
      await db
        .insertInto('login_throttle')
        .values({ key: 'account:admin@192.0.2.1', failures: 0, locked_until: new Date(Date.now() + 600_000) })
        .execute();

      const env = { DATABASE_URL: pgdb.url };
      const fromEnv = await adminCommand(['reset-password', 'ADMIN'], { ...env, NEW_PASSWORD: 'Recover2026x' });
      expect(fromEnv.code).toBe(0);
      expect(fromEnv.stdout).toContain('Password of "admin" reset');
      expect(fromEnv.stdout).not.toContain('Recover2026x');
      const after = await db
        .selectFrom('member')
        .select(['password_hash', 'first_sign'])
        .where('id', '=', admin.id)
        .executeTakeFirstOrThrow();
      expect(await verifyPassword('Recover2026x', after.password_hash)).toBe(true);
      expect(after.first_sign).toBe(true);
      expect(
        await db.selectFrom('session').select('id').where('member_id', '=', admin.id).where('revoked_at', 'is', null).execute(),
      ).toEqual([]);
      expect(await db.selectFrom('login_throttle').select('key').execute()).toEqual([]);

      const piped = await adminCommand(['reset-password', 'admin'], env, 'Piped2026x\n');
      expect(piped.code).toBe(0);
      expect(
        await verifyPassword(
          'Piped2026x',
          (await db.selectFrom('member').select('password_hash').where('id', '=', admin.id).executeTakeFirstOrThrow()).password_hash,
        ),
      ).toBe(true);

      const weak = await adminCommand(['reset-password', 'admin'], { ...env, NEW_PASSWORD: '123' });
      expect(weak.code).toBe(2);
      expect(weak.stderr).toContain('too weak');
      const unknown = await adminCommand(['unlock', 'nobody-here'], env);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('No account has the login name "nobody-here"');
      const usage = await adminCommand(['frobnicate'], env);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('npm run admin -- reset-password <login>');
      const audit = await db.selectFrom('audit_log').select(['action', 'detail']).where('action', '=', 'passwordReset').execute();
      expect(audit).toHaveLength(2);
      await database.close();
    } finally {
      await pgdb.drop();
    }
  });
});
