/**
 * Zip bombs through a real server process (issue 39 #2): its memory is the process's own, so a
 * parser inflating what the size check never saw shows as the peak resident size growing.
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { http, startServerProcess, type ServerProcess } from '../../../helpers/serverProcess';
import { ADMIN_PASSWORD } from '../../../helpers/testServer';
import { multipartFile, XLSX } from '../../../helpers/multipart';
import { xlsxOf } from '../../../helpers/xlsx';
import { deflated, partsOf, spaces, twoFacedZip, zipOf } from '../../../helpers/zip';

const root = path.resolve(__dirname, '../../../..');
jest.setTimeout(240_000);

const MB = 1024 * 1024;
/** What each bomb inflates to: five times the 40 MB cap. */
const BOMB = 200 * MB;

/** The peak resident size of a process since `resetPeak` (Linux). */
const peakRss = (pid: number) => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
const residentRss = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) * 1024;
/** Resets the peak resident size to the current one (proc(5), clear_refs). */
const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
/** CPU time a process has used, in ms (user and system; clock ticks of 10 ms). */
const cpuMs = (pid: number) => {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};

describe('xlsx bombs through a real server process', () => {
  let dir: string;
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fs-zipbomb-'));
    server = await startServerProcess(root, { DATA_DIR: dir, SEED: 'none', ADMIN_PASSWORD }, ['--no-console'], { direct: true });
    token = (await http(`${server.url}/api/login`, 'POST', { loginName: 'admin', password: ADMIN_PASSWORD })).json.object.token;
  });
  afterAll(async () => {
    await server?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Uploads `file` to the brand import while asking /api/health over and over; the answer and the slowest health answer. */
  async function importWhileWatching(file: Buffer, lang = 'zh-CN') {
    const { payload, headers } = multipartFile('brands.xlsx', file, XLSX);
    let done = false;
    const answer = fetch(`${server.url}/api/vehicle/vehicleBrand/import`, {
      method: 'POST',
      body: new Uint8Array(payload),
      headers: { ...headers, authorization: `Bearer ${token}`, 'accept-language': lang },
    })
      .then(async (r) => ({ status: r.status, body: (await r.json()) as { code?: string; message: string } }))
      .finally(() => (done = true));
    let slowestHealth = 0;
    do {
      const started = Date.now();
      expect((await http(`${server.url}/api/health`, 'GET')).status).toBe(200);
      slowestHealth = Math.max(slowestHealth, Date.now() - started);
    } while (!done);
    return { ...(await answer), slowestHealth };
  }

  const brandNames = async () =>
    (
      (await http(`${server.url}/api/vehicle/vehicleBrand/query`, 'POST', { criteria: {}, pageSize: 100 }, token)).json.data as Array<{
        name: string;
      }>
    ).map((b) => b.name);

  it('refuses archives whose records point a parser at a hidden bomb (prepended bytes, records past the count) and a plain bomb, without inflating them', async () => {
    const valid = await partsOf(await xlsxOf([['品牌名称'], ['Hidden brand']]));
    const decoy = [...(await partsOf(await xlsxOf([['品牌名称'], ['Decoy brand']]))), deflated('xl/pad.xml', Buffer.from(' '))];
    const crafted = twoFacedZip(decoy, [...valid, spaces('xl/pad.xml', BOMB)]);
    expect(crafted.length).toBeLessThan(MB);
    const plain = zipOf([...valid, spaces('xl/pad.xml', BOMB)]);
    // The bomb's directory record after the count the end record declares: a reader going on while
    // it finds records reads it, a check stopping at the count would not.
    const uncounted = Buffer.from(plain);
    uncounted.writeUInt16LE(valid.length, uncounted.length - 22 + 8);
    uncounted.writeUInt16LE(valid.length, uncounted.length - 22 + 10);
    const pid = server.child.pid!;
    resetPeak(pid);
    const rssBefore = residentRss(pid);
    const cpuBefore = cpuMs(pid);

    const r = await importWhileWatching(crafted);
    expect(r).toMatchObject({
      status: 400,
      body: {
        code: 'sheet.irregularZip',
        message: '文件的压缩结构不规范（各部分前后或之间夹带了其他数据），请用电子表格软件重新保存后再导入',
      },
    });
    expect(r.slowestHealth).toBeLessThan(1000);
    expect((await importWhileWatching(crafted, 'en-US')).body.message).toBe(
      "The file's zip structure is irregular (other data before, between or after its parts); save it again from a spreadsheet program and import that",
    );
    expect(await importWhileWatching(uncounted)).toMatchObject({ status: 400, body: { code: 'sheet.irregularZip' } });
    const p = await importWhileWatching(plain);
    expect(p).toMatchObject({ status: 400, body: { code: 'sheet.inflatedTooLarge', message: '文件解压后超过40 MB，请分批导入' } });
    expect(p.slowestHealth).toBeLessThan(1000);

    // Neither bomb was inflated: the server's peak memory barely moved and it spent little CPU
    // (inflating one is 200 MB of text, and seconds), and nothing of either file was stored.
    expect(peakRss(pid) - rssBefore).toBeLessThan(64 * MB);
    expect(cpuMs(pid) - cpuBefore).toBeLessThan(1000);
    expect(await brandNames()).not.toEqual(expect.arrayContaining(['Hidden brand']));
    expect(await brandNames()).not.toEqual(expect.arrayContaining(['Decoy brand']));

    // An ordinary xlsx, and the same entries written by our own zip writer, import as before.
    expect(await importWhileWatching(await xlsxOf([['品牌名称'], ['Valid brand']]))).toMatchObject({ status: 201 });
    expect(await importWhileWatching(zipOf(await partsOf(await xlsxOf([['品牌名称'], ['Rezipped brand']]))))).toMatchObject({
      status: 201,
    });
    expect(await brandNames()).toEqual(expect.arrayContaining(['Valid brand', 'Rezipped brand']));
  });
});
