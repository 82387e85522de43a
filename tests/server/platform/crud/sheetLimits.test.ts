import JSZip from 'jszip';
import { importGate, ImportGate } from '../../../../server/platform/crud/sheet/importGate';
import { MAX_XLSX_ENTRIES } from '../../../../server/platform/crud/sheet/zipLimits';
import { BACKENDS, type TestServer, useTestServer } from '../../../helpers/testServer';
import { uploadSheet, inLanguage } from '../../../helpers/multipart';
import { downloadFrom, readXlsx, xlsxOf } from '../../../helpers/xlsx';

/** The central directory's and local header's declared uncompressed size of `name`, rewritten. */
function lieAboutSize(zip: Buffer, name: string, size: number): Buffer {
  const out = Buffer.from(zip);
  for (let i = 0; i < out.length - 4; i++) {
    const sig = out.readUInt32LE(i);
    if (sig === 0x02014b50 && out.toString('utf8', i + 46, i + 46 + out.readUInt16LE(i + 28)) === name) out.writeUInt32LE(size, i + 24);
    if (sig === 0x04034b50 && out.toString('utf8', i + 30, i + 30 + out.readUInt16LE(i + 26)) === name) out.writeUInt32LE(size, i + 22);
  }
  return out;
}

describe('the import gate', () => {
  it('runs one import per member and a few at once, queues the rest and refuses past the queue', async () => {
    const gate = new ImportGate(2, 1);
    const releases: Array<() => void> = [];
    const job = () => new Promise<string>((resolve) => releases.push(() => resolve('done')));
    const a = gate.run(1, job);
    await expect(gate.run(1, job)).rejects.toMatchObject({ status: 429, key: 'sheet.busyMember' });
    const b = gate.run(2, job);
    const c = gate.run(3, job); // waits: two running
    await expect(gate.run(4, job)).rejects.toMatchObject({ status: 429, key: 'sheet.busy' });
    await new Promise((r) => setImmediate(r));
    expect(releases.length).toBe(2);
    releases[0]();
    await expect(a).resolves.toBe('done');
    await new Promise((r) => setImmediate(r));
    expect(releases.length).toBe(3); // the waiting one took the slot
    releases[1]();
    releases[2]();
    await expect(Promise.all([b, c])).resolves.toEqual(['done', 'done']);
    await expect(gate.run(1, async () => 'again')).resolves.toBe('again');
  });
});

describe.each(BACKENDS)('spreadsheet import limits and round trips on %s', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  const upload = (token: string, url: string, file: Buffer, lang?: string) => uploadSheet(s.app, token, url, file, inLanguage(lang));

  it('refuses a small xlsx that inflates into a huge cell before parsing it, in the caller language', async () => {
    const bomb = await xlsxOf([['品牌名称'], ['x'.repeat(48 * 1024 * 1024)]]);
    expect(bomb.length).toBeLessThan(1024 * 1024);
    const started = Date.now();
    const r = await upload(admin, '/api/vehicle/vehicleBrand/importValidate', bomb);
    expect(r.status).toBe(400);
    expect(r.body.message).toBe('文件解压后超过40 MB，请分批导入');
    expect(Date.now() - started).toBeLessThan(3000);
    expect((await upload(admin, '/api/vehicle/vehicleBrand/import', bomb, 'en-US')).body.message).toBe(
      'The file is larger than 40 MB once decompressed; please import it in parts',
    );
  });

  it('refuses an entry that inflates past the size it declares', async () => {
    const big = await xlsxOf([['品牌名称'], ['y'.repeat(45 * 1024 * 1024)]]);
    const liar = lieAboutSize(big, 'xl/sharedStrings.xml', 1000);
    const r = await upload(admin, '/api/vehicle/vehicleBrand/importValidate', liar);
    expect(r.status).toBe(400);
    expect(r.body.code).toBe('sheet.inflatedTooLarge');
  });

  it('refuses too many entries and a cell longer than any field, naming the cell', async () => {
    const zip = await JSZip.loadAsync(await xlsxOf([['品牌名称'], ['ok']]));
    for (let i = 0; i < MAX_XLSX_ENTRIES; i++) zip.file(`xl/media/pad${i}.bin`, 'p');
    const many = await upload(
      admin,
      '/api/vehicle/vehicleBrand/importValidate',
      await zip.generateAsync({ type: 'nodebuffer', compression: 'DEFLATE' }),
    );
    expect(many.status).toBe(400);
    expect(many.body.message).toBe(`文件包含的部件超过${MAX_XLSX_ENTRIES}个，请使用导入模板`);
    const long = await upload(
      admin,
      '/api/vehicle/vehicleBrand/importValidate',
      await xlsxOf([
        ['品牌名称', '制造商'],
        ['ok', 'z'.repeat(6000)],
      ]),
    );
    expect(long.status).toBe(400);
    expect(long.body.message).toBe('单元格B2超过5000个字符');
  });

  it('answers 429 while the same member has an import running, and runs it once that ends', async () => {
    const m = await s.addMember('HD', 'orgUser', ['vehicleBrand-add']);
    const file = await xlsxOf([['品牌名称'], ['Gate brand']]);
    let release = () => {};
    const held = importGate(s.database.db).run(m.id, () => new Promise<void>((resolve) => (release = resolve)));
    const busy = await upload(m.token, '/api/vehicle/vehicleBrand/importValidate', file);
    expect(busy.status).toBe(429);
    expect(busy.body.message).toBe('您的上一个导入尚未完成，请完成后再试');
    release();
    await held;
    expect((await upload(m.token, '/api/vehicle/vehicleBrand/importValidate', file)).body).toMatchObject({ success: true, total: 1 });
  });

  it('exports text that starts like a formula with an apostrophe, and imports it back unchanged', async () => {
    const names = ['=HYPERLINK("http://x","y")', '+86 brand', '-minus', '@at', "'quoted"];
    for (const name of names)
      expect((await s.call(admin, 'POST', '/api/vehicle/vehicleBrand', { name, manufacturer: `${name} co` })).status).toBe(201);
    const exported = await readXlsx(
      (await downloadFrom(s, admin, 'POST', '/api/vehicle/vehicleBrand/export', { criteria: { name: '' } })).data,
    );
    const header = exported[0] as string[];
    const byName = exported.slice(1).map((r) => r[header.indexOf('品牌名称')]);
    expect(byName).toEqual(expect.arrayContaining(['\'=HYPERLINK("http://x","y")', "'+86 brand", "'-minus", "'@at", "'quoted"]));
    // Re-import into another organisation: the stored names are the originals.
    const other = await s.memberToken('HN', 'orgUser', ['vehicleBrand-add']);
    const rows = [
      ['品牌名称', '制造商'],
      ...names.map((n) => [n.match(/^[=+\-@]/) ? `'${n}` : n, `'${n} co`.replace(/^'(?![=+\-@])/, '')]),
    ];
    const r = await upload(other, '/api/vehicle/vehicleBrand/import', await xlsxOf(rows));
    expect(r.status).toBe(201);
    const stored = (await s.call(other, 'POST', '/api/vehicle/vehicleBrand/query', { criteria: {}, pageSize: 100 })).body.data as Array<{
      name: string;
      manufacturer: string;
    }>;
    const imported = stored.filter((b) => b.manufacturer?.endsWith(' co'));
    expect(imported.map((b) => b.name).sort()).toEqual([...names].sort());
    expect(imported.map((b) => b.manufacturer).sort()).toEqual(names.map((n) => `${n} co`).sort());
  });
});
