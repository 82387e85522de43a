import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { launchChromium, login, openPage } from '../e2e/helpers/console';
import { http, startServerProcess, type ServerProcess } from '../helpers/serverProcess';

const repo = path.resolve(__dirname, '../..');

const parkingLot = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  $id: 'parkingLot',
  title: 'ParkingLot',
  type: 'object',
  'x-entity': {
    name: 'parkingLot',
    table: 'parking_lot',
    orgScoped: true,
    page: { key: 'fleet/parkingLot', icon: 'CarOutlined' },
    permissions: { read: 'NONE', create: 'parkingLot-add', update: 'parkingLot-edit', remove: 'parkingLot-remove' },
    routes: {
      create: ['PUT /vehicle/parkingLot'],
      update: ['PUT /vehicle/parkingLot/{id}'],
      remove: ['DELETE /vehicle/parkingLot/{id}'],
      query: ['POST /vehicle/parkingLot/query'],
    },
    unique: [['orgId', 'name']],
    defaultOrder: { property: 'name', direction: 'ASC' },
  },
  required: ['name', 'capacity'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 40, 'x-ui': { search: 'like', sort: true } },
    capacity: { type: 'integer', minimum: 1, maximum: 5000, 'x-ui': { search: 'range', sort: true } },
    indoor: { type: 'boolean', default: false, 'x-ui': { search: 'eq' } },
  },
};

/** A temp copy of the project (sources only; node_modules linked) to change without touching ours. */
function tempCopy(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fleet-star-'));
  // Umi's own generated folders (src/.umi*) are rebuilt by the copy's build.
  const filter = (src: string) => !path.basename(src).startsWith('.umi');
  for (const d of ['schemas', 'server', 'generators', 'src', 'public', 'mock'])
    fs.cpSync(path.join(repo, d), path.join(dir, d), { recursive: true, filter });
  for (const f of ['package.json', '.umirc.ts', 'tsconfig.json']) fs.copyFileSync(path.join(repo, f), path.join(dir, f));
  fs.symlinkSync(path.join(repo, 'node_modules'), path.join(dir, 'node_modules'));
  return dir;
}

describe('dropping in a new schema', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  const env = () => ({
    DATA_DIR: path.join(dir, 'data'),
    ADMIN_PASSWORD: 'Admin2026x',
    SEED: 'none',
    CONSOLE_DIR: path.join(dir, 'console'),
  });

  beforeAll(() => {
    dir = tempCopy();
    fs.writeFileSync(path.join(dir, 'schemas/parkingLot.schema.json'), JSON.stringify(parkingLot, null, 2));
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('and running the generator yields types, labels, a migration and a working CRUD API, kept across a restart', async () => {
    const out = execFileSync(path.join(dir, 'node_modules/.bin/tsx'), [path.join(dir, 'generators/gen.ts')], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(out).toMatch(/wrote server\/platform\/db\/migrations\/\d{16}_create_parking_lot\.sql/);
    expect(out).toContain('wrote schemas/locales/ja-JP/entities/parkingLot.json');
    expect(fs.readFileSync(path.join(dir, 'schemas/generated/types.ts'), 'utf8')).toContain('export interface ParkingLot');

    server = await startServerProcess(dir, env());
    const login = await http(server.url + '/api/login', 'POST', { loginName: 'admin', password: 'Admin2026x' });
    const token = login.json.object.token as string;
    const created = await http(server.url + '/api/vehicle/parkingLot', 'PUT', { name: '北区停车场', capacity: 120 }, token);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ name: '北区停车场', capacity: 120, indoor: false });
    const bad = await http(server.url + '/api/vehicle/parkingLot', 'PUT', { name: 'x', capacity: 0 }, token, {
      'accept-language': 'en-US',
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toBe('capacity must not be less than 1'); // stub label until an analyst writes one
    const dup = await http(server.url + '/api/vehicle/parkingLot', 'PUT', { name: '北区停车场', capacity: 5 }, token);
    expect(dup.status).toBe(406);

    // Graceful stop, start again on the same files: the data is still there.
    expect(await server.stop()).toBe(0);
    server = await startServerProcess(dir, env());
    const token2 = (await http(server.url + '/api/login', 'POST', { loginName: 'admin', password: 'Admin2026x' })).json.object.token;
    const page = await http(server.url + '/api/vehicle/parkingLot/query', 'POST', { criteria: { capacity: [100, null] } }, token2);
    expect(page.json).toMatchObject({ total: 1, data: [{ name: '北区停车场' }] });
    // The old token still works: the secret was kept in the database.
    expect((await http(server.url + '/api/vehicle/parkingLot/query', 'POST', {}, token)).status).toBe(200);
    // The generator and two server starts: past a minute on a loaded machine.
  }, 300_000);

  it('and gets a console page and a menu entry with its action codes', async () => {
    expect(fs.readFileSync(path.join(dir, 'src/pages/schemaPages.generated.ts'), 'utf8')).toContain(`'fleet/parkingLot': 'parkingLot',`);
    const token = (await http(server!.url + '/api/login', 'POST', { loginName: 'admin', password: 'Admin2026x' })).json.object
      .token as string;
    type Item = { name: string; code: string; kind: string; url: string | null; children?: Item[] };
    const tree = (await http(server!.url + '/api/passport/resource/all', 'GET', undefined, token)).json as Item[];
    const fleet = tree.find((r) => r.code === 'fleet')!;
    const entry = fleet.children!.at(-1)!;
    expect(entry).toMatchObject({ name: 'ParkingLot', code: 'fleet-parkingLot', kind: 'Menu', url: 'fleet/parkingLot' });
    expect(entry.children!.map((a) => [a.kind, a.code])).toEqual([
      ['Action', 'parkingLot-add'],
      ['Action', 'parkingLot-edit'],
      ['Action', 'parkingLot-remove'],
    ]);
  });

  it('whose page, in the built console of the copy, lists, creates and shows a row', async () => {
    // Build the copy's console (what `npm run build` does there) and serve it.
    const build = spawnSync(path.join(dir, 'node_modules/.bin/max'), ['build'], {
      cwd: dir,
      env: { ...process.env, CONSOLE_OUTPUT: path.join(dir, 'console') },
      encoding: 'utf8',
    });
    expect({ status: build.status, out: build.status ? build.stdout + build.stderr : '' }).toEqual({ status: 0, out: '' });
    await server?.stop();
    server = await startServerProcess(dir, env(), []);
    const browser = await launchChromium();
    try {
      const { page, external } = await openPage(browser, server.url);
      await login(page, 'admin', 'Admin2026x');
      await page.waitForURL('**/dashboard');
      const sidebar = page.getByTestId('sidebar-menu');
      await sidebar.locator('.ant-menu-submenu-title[data-menu-id$="-/fleet"]').click();
      await sidebar.locator('.ant-motion-collapse').first().waitFor({ state: 'detached' });
      await sidebar.locator('li.ant-menu-item[data-menu-id$="-/fleet/parkingLot"]').click();
      await page.waitForURL('**/fleet/parkingLot');
      const list = page.getByTestId('entity-page-parkingLot');
      await list.locator('.ant-table-row').filter({ hasText: '北区停车场' }).waitFor();
      await list.getByTestId('entity-add').click();
      const form = page.locator('.ant-modal-content').filter({ hasText: 'ParkingLot' });
      await form.getByLabel('name', { exact: true }).fill('南区停车场');
      await form.getByLabel('capacity', { exact: true }).fill('0');
      await form.getByRole('button', { name: /确\s*定/ }).click();
      // The browser's own check, in the server's words, before any call.
      await form.getByText('capacity不能小于1').waitFor();
      await form.getByLabel('capacity', { exact: true }).fill('80');
      const [created] = await Promise.all([
        page.waitForResponse((r) => r.url().endsWith('/api/vehicle/parkingLot') && r.request().method() === 'PUT'),
        form.getByRole('button', { name: /确\s*定/ }).click(),
      ]);
      expect(created.status()).toBe(201);
      const row = list.locator('.ant-table-row').filter({ hasText: '南区停车场' });
      await row.waitFor();
      expect(await row.innerText()).toContain('80');
      expect(external).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 600_000);
});
