import ExcelJS from 'exceljs';
import type { Answer, Call } from './mockClient';

/** One side of a comparison: the real server or the mock, each with its own demo database. */
export interface Side {
  call: Call;
  /** Token of a demo account (admin, hd-manager, sh-dispatcher, hn-manager). */
  login(loginName: string): Promise<string>;
}

export interface Step {
  step: string;
  status: number;
  type: string | null;
  disposition: string | null;
  body: unknown;
}

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

// What differs between any two runs of the same calls: clocks, and the random tokens, uids, tickets and passwords.
const VOLATILE = new Set(['createdAt', 'updatedAt', 'at', 'lastSignIn', 'expiresAt', 'revokedAt', 'token', 'uid', 'ticket', 'password']);
const INSTANT = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}/;

export function stripVolatile(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripVolatile);
  if (v instanceof Date) return '<time>';
  if (typeof v === 'string' && INSTANT.test(v)) return '<time>';
  if (typeof v === 'string') return v.replace(/^\/location\/[\w-]+$/, '/location/<ticket>');
  if (v && typeof v === 'object')
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => !VOLATILE.has(k))
        .map(([k, x]) => [k, stripVolatile(x)]),
    );
  return v;
}

/** Rows of every sheet of an xlsx, as the cell values a person sees. */
export async function readXlsx(data: Buffer): Promise<Record<string, unknown[][]>> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(data as unknown as ArrayBuffer); // exceljs types predate Node 20 generic Buffer
  const out: Record<string, unknown[][]> = {};
  wb.eachSheet((ws) => {
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    out[ws.name] = rows;
  });
  return out;
}

/** An answer in comparable form: JSON without volatile values, xlsx as its cells, other files as text. */
export async function comparable(step: string, a: Answer): Promise<Step> {
  const type = a.headers.get('content-type');
  let body: unknown = a.body;
  if (Buffer.isBuffer(a.body)) body = type === XLSX ? await readXlsx(a.body) : a.body.toString('utf8');
  return { step, status: a.status, type, disposition: a.headers.get('content-disposition'), body: stripVolatile(body) };
}

/** A one-file multipart form, as the console's upload buttons send it. */
export function fileForm(data: Buffer | string, name: string, type: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([typeof data === 'string' ? data : new Uint8Array(data)], { type }), name);
  return form;
}

async function xlsxFrom(template: Buffer, fill: Array<Record<string, unknown>>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ArrayBuffer);
  const ws = wb.worksheets[0];
  const header = (ws.getRow(1).values as unknown[]).slice(1).map(String);
  for (const [i, row] of fill.entries()) {
    const r = ws.getRow(3 + i); // row 2 is the template's hint row
    for (const [label, value] of Object.entries(row)) {
      const col = header.indexOf(label);
      if (col < 0) throw new Error(`template has no column ${label}: ${header.join(', ')}`);
      r.getCell(col + 1).value = value as ExcelJS.CellValue;
    }
    r.commit();
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON answers of any shape

/**
 * The console's calls beyond the generic CRUD, family by family (system pages, spreadsheets,
 * terminal suggest, bind and service, share tickets, tools, uploads, commands, permissions), each
 * with good and bad input, as the pages make them. Returns every answer in comparable form.
 */
export async function consoleScenario(side: Side): Promise<Step[]> {
  const out: Step[] = [];
  const admin = await side.login('admin');
  const hd = await side.login('hd-manager');
  const sh = await side.login('sh-dispatcher');
  let token = admin;
  const as = async <T>(who: string, fn: () => Promise<T>): Promise<T> => {
    const before = token;
    token = who;
    try {
      return await fn();
    } finally {
      token = before;
    }
  };
  const step = async (
    name: string,
    method: string,
    url: string,
    body?: unknown,
    lang?: string,
    headers?: Record<string, string>,
  ): Promise<Body> => {
    const a = await side.call(token, method, url, body, lang, headers);
    out.push(await comparable(name, a));
    return (a.body ?? {}) as Body;
  };
  const APP = { 'x-application-code': 'vehicle-app' };

  // Organisations (system/org): list, tree, create, edit, link, type, delete; scoped for a manager.
  await step('org query', 'POST', '/api/vehicle/org/query', { pageIndex: 1, pageSize: 50 });
  await step('org query, keyword', 'POST', '/api/vehicle/org/query', { criteria: { keyword: '华东' }, pageIndex: 1, pageSize: 10 });
  await step('org query, bad paging', 'POST', '/api/vehicle/org/query', { pageIndex: 0, pageSize: 5 }, 'es-ES');
  await step('org tree options', 'GET', '/api/vehicle/org/tree/options/');
  await step('org tree options, no slash', 'GET', '/api/vehicle/org/tree/options');
  const org = await step('org create', 'POST', '/api/vehicle/org', {
    code: 'MK',
    name: '模拟车队',
    parentId: 1,
    type: 'serviceTeam',
    phone: '02588880001',
  });
  await step('org create, bad', 'POST', '/api/vehicle/org', { code: '', name: '', parentId: 1, phone: '123' }, 'en-US');
  await step('org create, duplicate code', 'POST', '/api/vehicle/org', { code: 'MK', name: '重复', parentId: 1 });
  await step('org update', 'PUT', `/api/vehicle/org/${org.id}`, { name: '模拟车队二', contact: '赵六' });
  await step('org update, own child as parent', 'PUT', `/api/vehicle/org/${org.id}`, { parentId: org.id }, 'ja-JP');
  await step('org link', 'PUT', `/api/vehicle/org/editLink/${org.id}`, { link: 'https://mk.example.com' });
  await step('org link, bad', 'PUT', `/api/vehicle/org/editLink/${org.id}`, { link: 'ftp://x' });
  await step('org type', 'GET', `/api/passport/org/tree/${org.id}/orgType`);
  await as(hd, async () => {
    await step('org query as a manager', 'POST', '/api/vehicle/org/query', { pageIndex: 1, pageSize: 50 });
    await step('org tree as a manager', 'GET', '/api/vehicle/org/tree/options');
    await step('org update outside the subtree', 'PUT', `/api/vehicle/org/${org.id}`, { name: 'x' });
  });
  await as(sh, () => step('org create without the code', 'POST', '/api/vehicle/org', { code: 'NO', name: '无权', parentId: 1 }));

  // Roles (system/role): list per application, create, edit, what may be granted, authorise, delete.
  await step('role query', 'POST', '/api/passport/role/query', { pageIndex: 1, pageSize: 20 });
  await step('role query, App', 'POST', '/api/passport/role/query', { pageIndex: 1, pageSize: 20 }, undefined, APP);
  await step('role all', 'GET', '/api/passport/role/all');
  const role = await step('role create', 'POST', '/api/passport/role', { name: '质检员', description: '抽检车辆', orgId: org.id });
  await step('role create, bad', 'POST', '/api/passport/role', { name: '', orgId: 'x' }, 'en-US');
  await step('role create, duplicate', 'POST', '/api/passport/role', { name: '质检员', orgId: org.id });
  await step('role update', 'PUT', `/api/passport/role/${role.id}`, { description: '每周抽检' });
  const assignable = await step('role assignable', 'GET', `/api/passport/resource/assignable/${role.id}`);
  const ids = (assignable.resources as Body[]).flatMap(function walk(r: Body): number[] {
    return [r.id as number, ...(r.children as Body[]).flatMap(walk)];
  });
  await step('role authorise', 'PUT', `/api/passport/role/${role.id}/authorize`, { resourceIds: ids.slice(0, 5) });
  await step('role authorise, unknown resource', 'PUT', `/api/passport/role/${role.id}/authorize`, { resourceIds: [987654] });
  await step('role authorise, bad body', 'PUT', `/api/passport/role/${role.id}/authorize`, { resourceIds: 'all' }, 'es-ES');
  await as(hd, async () => {
    await step('role query as a manager', 'POST', '/api/passport/role/query', { pageIndex: 1, pageSize: 20 });
    const mine = await step('role create as a manager', 'POST', '/api/passport/role', { name: '稽核' });
    await step('role authorise beyond what the manager holds', 'PUT', `/api/passport/role/${mine.id}/authorize`, { resourceIds: ids });
  });

  // Resources (system/menu): the tree per application, create, edit, delete.
  await step('resource all', 'GET', '/api/passport/resource/all');
  await step('resource all, App', 'GET', '/api/passport/resource/all', undefined, undefined, APP);
  const top = await step('resource create', 'POST', '/api/passport/resource', {
    name: '报表中心',
    code: 'reports',
    kind: 'Menu',
    path: '/reports',
    sort: 99,
  });
  await step('resource create, bad', 'POST', '/api/passport/resource', { name: '' }, 'ja-JP');
  await step('resource create, duplicate code', 'POST', '/api/passport/resource', { name: '重复', code: 'reports', kind: 'Menu', sort: 1 });
  await step('resource update', 'PUT', `/api/passport/resource/${top.id}`, { name: '报表' });
  await step('resource delete', 'DELETE', `/api/passport/resource/${top.id}`);
  await step('resource delete unknown', 'DELETE', `/api/passport/resource/${top.id}`);

  // Accounts (system/account, system/appAccount): list, register, edit, reset, simulate.
  const reg = { memberType: 'orgUser', expireDate: '2099-01-01', password: 'Start2026x' };
  await step('member query', 'POST', '/api/passport/member/query', {
    criteria: { keyword: 'manager' },
    order: { property: 'loginName', direction: 'ASC' },
    pageIndex: 1,
    pageSize: 20,
  });
  await step(
    'member query, bad order',
    'POST',
    '/api/passport/member/query',
    { order: { property: 'password', direction: 'ASC' } },
    'en-US',
  );
  await step('member applications', 'GET', '/api/passport/member/applications');
  const member = await step('member register', 'POST', '/api/passport/passport/register', {
    ...reg,
    loginName: 'mock-1',
    name: '模拟甲',
    mobile: '13700000031',
    orgId: org.id,
    roleIds: [role.id],
  });
  await step(
    'member register, weak password',
    'POST',
    '/api/passport/passport/register',
    { ...reg, loginName: 'mock-2', name: '模拟乙', password: '123' },
    'en-US',
  );
  await step('member register, login name taken', 'POST', '/api/passport/passport/register', { ...reg, loginName: 'MOCK-1', name: '重复' });
  await step('member register, phone taken', 'POST', '/api/passport/passport/register', {
    ...reg,
    loginName: 'mock-3',
    name: '模拟丙',
    mobile: '13700000031',
  });
  await step('member get', 'GET', `/api/passport/member/${member.id}`);
  await step('member update', 'PUT', `/api/passport/member/${member.id}`, { name: '模拟甲二', applications: ['obd-web', 'vehicle-app'] });
  await step('member update, bad', 'PUT', `/api/passport/member/${member.id}`, { mobile: '12', status: 'gone' }, 'ja-JP');
  await step('app member update', 'PUT', `/api/passport/app-member/${member.id}`, { name: '模拟甲三', expireDate: '2098-06-30' });
  await step('app member update, unknown', 'PUT', '/api/passport/app-member/987654', { name: 'x' });
  await step('member reset password', 'PUT', '/api/passport/member/reset-password', { id: member.id, password: 'Reset2026x' });
  await step('member reset password, weak', 'PUT', '/api/passport/member/reset-password', { id: member.id, password: 'abc' });
  await step('member sign-in state', 'GET', `/api/passport/member/${member.id}/signin/obd-web`);
  const me = await step('current member', 'GET', '/api/passport/member/current');
  await step('change password, wrong old one', 'POST', '/api/passport/member/change-password', {
    oldPassword: 'Wrong2026x',
    newPassword: 'Next2026x',
    uid: me.uid,
  });
  await step('change password, someone else', 'POST', '/api/passport/member/change-password', {
    oldPassword: 'Wrong2026x',
    newPassword: 'Next2026x',
    uid: 'nobody',
  });
  await as(sh, () =>
    step('member query as a dispatcher: their subtree', 'POST', '/api/passport/member/query', { pageIndex: 1, pageSize: 20 }),
  );
  const simulated = await step('simulate login', 'POST', `/api/passport/member/${member.id}/simulate-login`);
  await as(simulated.object?.token ?? 'none', async () => {
    await step('current member while simulated', 'GET', '/api/passport/member/current');
    await step('simulate logout', 'POST', '/api/passport/member/simulate-logout');
  });
  await step('simulate login, unknown', 'POST', '/api/passport/member/987654/simulate-login');

  // The audit log (system/log): records of what happened above, filtered and paged.
  await step('audit write', 'POST', '/api/vehicle/audit/audit/obd-web', { action: 'export', target: 'vehicles-mock' });
  await step('audit query', 'POST', '/api/vehicle/audit/query', { criteria: { action: 'client:export' }, pageIndex: 1, pageSize: 10 });
  await step('audit query, every record', 'POST', '/api/vehicle/audit/query', { pageIndex: 1, pageSize: 100 });
  await step('audit query, bad paging', 'POST', '/api/vehicle/audit/query', { pageIndex: 1, pageSize: 0 }, 'en-US');
  await as(sh, () => step('audit query without the code', 'POST', '/api/vehicle/audit/query', { pageIndex: 1, pageSize: 10 }));

  // Spreadsheets (the list pages' buttons): template, export with ids, validate, import, renew.
  const template = await side.call(admin, 'GET', '/api/vehicle/vehicle/template');
  out.push(await comparable('vehicle template', template));
  await step('vehicle template, en-US', 'GET', '/api/vehicle/vehicle/template', undefined, 'en-US');
  await step('vehicle export', 'POST', '/api/vehicle/vehicle/export', {
    criteria: { keyword: '沪A' },
    order: { property: 'licence', direction: 'DESC' },
  });
  await step('vehicle export, ids', 'POST', '/api/vehicle/vehicle/export', { ids: [1, 2, 3] });
  await step('vehicle export, bad ids', 'POST', '/api/vehicle/vehicle/export', { ids: ['x'] }, 'en-US');
  await as(sh, () => step('vehicle export, a dispatcher’s subtree', 'POST', '/api/vehicle/vehicle/export', {}));
  const good = await xlsxFrom(template.body as Buffer, [
    { 车牌号: '沪M12345' },
    { 车牌号: '沪M12346', '车架号（VIN）': 'LFW00000000000009' },
  ]);
  const bad = await xlsxFrom(template.body as Buffer, [{ 车牌号: '' }, { 车牌号: '沪M12347', '车架号（VIN）': 'not-a-vin' }]);
  await step('vehicle import validate', 'POST', '/api/vehicle/vehicle/importValidate', fileForm(good, '车辆导入.xlsx', XLSX));
  await step('vehicle import validate, bad rows', 'POST', '/api/vehicle/vehicle/importValidate', fileForm(bad, 'rows.xlsx', XLSX), 'en-US');
  await step(
    'vehicle import validate, neither xlsx nor csv',
    'POST',
    '/api/vehicle/vehicle/importValidate',
    fileForm('a,b', 'rows.txt', 'text/plain'),
  );
  await step('vehicle import validate, no file', 'POST', '/api/vehicle/vehicle/importValidate', new FormData());
  await step('vehicle import', 'POST', '/api/vehicle/vehicle/import', fileForm(good, 'rows.xlsx', XLSX));
  await step('vehicle import again: every row unchanged', 'POST', '/api/vehicle/vehicle/import', fileForm(good, 'rows.xlsx', XLSX));
  await step('vehicle after the import', 'POST', '/api/vehicle/vehicle/query', { criteria: { licence: '沪M1234' } });
  const renewTemplate = await side.call(admin, 'GET', '/api/vehicle/terminal/template');
  out.push(await comparable('terminal template', renewTemplate));
  const terminals = await step('terminal query', 'POST', '/api/vehicle/terminal/query', {
    order: { property: 'terminalNo', direction: 'ASC' },
    pageIndex: 1,
    pageSize: 3,
  });
  const renewal = async (rows: Array<Record<string, unknown>>) => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Sheet1');
    ws.addRow(['终端编号', '服务结束']);
    for (const r of rows) ws.addRow([r.terminalNo, r.serviceEnd]);
    return Buffer.from(await wb.xlsx.writeBuffer());
  };
  const renewRows = await renewal([
    { terminalNo: terminals.data[0].terminalNo, serviceEnd: '2030-12-31' },
    { terminalNo: 'NOPE', serviceEnd: '2030-12-31' },
  ]);
  await step('terminal renew validate', 'POST', '/api/vehicle/terminal/renewValidate', fileForm(renewRows, 'renew.xlsx', XLSX));
  await step(
    'terminal renew',
    'POST',
    '/api/vehicle/terminal/renew',
    fileForm(await renewal([{ terminalNo: terminals.data[0].terminalNo, serviceEnd: '2030-12-31' }]), 'renew.xlsx', XLSX),
  );

  // Terminal suggest, bind, unbind and service periods (fleet/vehicleList, fleet/terminalList).
  await step('terminal create for binding', 'PUT', '/api/vehicle/terminal', { terminalNo: '808099990001', sim: '1449999000001' });
  const free = await step('terminal suggest', 'GET', '/api/vehicle/device/terminal/suggest/vendee-0/80809999?limit=20');
  await step('terminal suggest, none free', 'GET', '/api/vehicle/device/terminal/suggest/vendee-0/808000?limit=20');
  await step('terminal suggest, another organisation', 'GET', '/api/vehicle/device/terminal/suggest/vendee-2/80?limit=5');
  await step(
    'terminal suggest, bad query',
    'GET',
    `/api/vehicle/device/terminal/suggest/vendee-0/${encodeURIComponent('8%0')}`,
    undefined,
    'en-US',
  );
  await step('terminal suggest, unknown organisation', 'GET', '/api/vehicle/device/terminal/suggest/vendee-987654/80');
  const vehicle = await step('vehicle create for binding', 'POST', '/api/vehicle/vehicle', { licence: '沪M00009' });
  const terminal = (free as unknown as Body[])[0];
  await step('bind', 'PUT', `/api/vehicle/vehicle/bind/${vehicle.id}/${terminal?.value ?? 987654}`);
  await step('bind, terminal taken', 'PUT', `/api/vehicle/vehicle/bind/1/${terminal?.value ?? 987654}`);
  await step('bind, unknown vehicle', 'PUT', `/api/vehicle/vehicle/bind/987654/${terminal?.value ?? 987654}`);
  await step('unbind', 'PUT', `/api/vehicle/vehicle/unbind/${vehicle.id}`);
  await step('unbind, nothing bound', 'PUT', `/api/vehicle/vehicle/unbind/${vehicle.id}`);
  await step('vehicle service', 'PUT', `/api/vehicle/vehicle/editService/${vehicle.id}`, {
    serviceStart: '2026-01-01',
    serviceEnd: '2027-12-31',
  });
  await step(
    'vehicle service, end before start',
    'PUT',
    `/api/vehicle/vehicle/editService/${vehicle.id}`,
    { serviceStart: '2027-01-01', serviceEnd: '2026-12-31' },
    'en-US',
  );
  await step('terminal service', 'PUT', `/api/vehicle/terminal/editService/${terminals.data[0].id}`, { serviceEnd: '2031-06-30' });
  await step('terminal service, bad date', 'PUT', `/api/vehicle/terminal/editService/${terminals.data[0].id}`, { serviceEnd: 'soon' });
  await as(sh, () => step('bind outside the subtree', 'PUT', `/api/vehicle/vehicle/bind/${vehicle.id}/${terminal?.value ?? 987654}`));

  // Location share tickets and the public location page.
  const share = await step('share create', 'POST', '/api/vehicle/share', { vehicleId: 1, hours: 24 });
  await step('share create, bad hours', 'POST', '/api/vehicle/share', { vehicleId: 1, hours: 1000 }, 'en-US');
  await step('share create, unknown vehicle', 'POST', '/api/vehicle/share', { vehicleId: 987654, hours: 1 });
  await step('share list', 'GET', '/api/vehicle/share/Index/1');
  await as('', async () => {
    await step('shared location, public', 'GET', `/api/location/${share.ticket}`);
    await step('shared location, unknown ticket', 'GET', '/api/location/nope');
    await step('map config', 'GET', '/api/map/config');
  });
  await step('share revoke', 'DELETE', `/api/vehicle/share/${share.id}`);
  await as('', () => step('shared location, revoked', 'GET', `/api/location/${share.ticket}`));

  // Geofences and inter-platform members (the schema pages' extra row actions).
  await step('fence create', 'PUT', '/api/vehicle/fence', {
    name: '模拟围栏',
    fenceType: 'circle',
    geometry: { center: [121.47, 31.23], radius: 500 },
  });
  const fences = await step('fence query', 'POST', '/api/vehicle/fence/query', { pageIndex: 1, pageSize: 5 });
  await step('fence stop', 'POST', `/api/vehicle/fence/stop/${fences.data[0]?.id ?? 987654}`);
  await step('fence open', 'POST', `/api/vehicle/fence/open/${fences.data[0]?.id ?? 987654}`);
  await step('fence open, unknown', 'POST', '/api/vehicle/fence/open/987654');
  await step('inter member create', 'POST', '/api/vehicle/interMember', { name: '对接平台', email: 'ops@example.com' });
  const inter = await step('inter member query', 'POST', '/api/vehicle/interMember/query', { pageIndex: 1, pageSize: 5 });
  await step('inter member reset', 'POST', `/api/vehicle/interMember/reset/${inter.data[0]?.id ?? 987654}`);

  // Configuration parse files: the XML upload and download of a row.
  await step('config parse file create', 'POST', '/api/vehicle/configParseFile', { name: '油耗配置' });
  const parse = await step('config parse file query', 'POST', '/api/vehicle/configParseFile/query', { pageIndex: 1, pageSize: 1 });
  const parseId = parse.data[0]?.id ?? 987654;
  await step(
    'xml upload',
    'POST',
    `/api/vehicle/configParseFile/${parseId}/file`,
    fileForm('<config><item id="1">油耗</item></config>', '配置.xml', 'text/xml'),
  );
  await step(
    'xml upload, not xml',
    'POST',
    `/api/vehicle/configParseFile/${parseId}/file`,
    fileForm('{}', 'config.json', 'application/json'),
    'en-US',
  );
  await step(
    'xml upload, not well-formed',
    'POST',
    `/api/vehicle/configParseFile/${parseId}/file`,
    fileForm('<config>', 'broken.xml', 'text/xml'),
  );
  await step('xml download', 'GET', `/api/vehicle/configParseFile/${parseId}/file`);
  await step('xml download, unknown', 'GET', '/api/vehicle/configParseFile/987654/file');

  // Tools and terminals: the JT/T 808 decoder, downlink commands (no terminal is ever online here).
  await step('decode', 'POST', '/api/vehicle/tools/jt808/decode', {
    frames: '7E00020000012345678900000A817E\nnot hex',
    tzOffsetMinutes: 480,
  });
  await step('decode, bad body', 'POST', '/api/vehicle/tools/jt808/decode', { frames: 1 }, 'en-US');
  await step('command, terminal offline', 'POST', `/api/vehicle/terminal/${terminals.data[0].id}/command/location`, {});
  await step('command, bad body', 'POST', `/api/vehicle/terminal/${terminals.data[0].id}/command/text`, { text: '' }, 'en-US');
  await step('command list', 'GET', `/api/vehicle/terminal/${terminals.data[0].id}/command`);
  await step('health', 'GET', '/api/health');

  // Session: the demo accounts' menus and who they are, then logout.
  await as(hd, async () => {
    await step('menu of a manager', 'GET', '/api/passport/resource/authorized/obd-web');
    await step('current member, a manager', 'GET', '/api/passport/member/current');
  });
  await as(sh, () => step('logout', 'POST', '/api/logout'));
  await as(sh, () => step('after logout', 'GET', '/api/passport/member/current'));
  await as('', () => step('login, wrong password', 'POST', '/api/login', { loginName: 'admin', password: 'Wrong2026x' }, 'en-US'));
  // Bodies Umi's parsers leave alone reach the server's own parsers untouched.
  await as('', () => step('login, a text body', 'POST', '/api/login', new Blob(['loginName=admin'], { type: 'text/plain' }), 'en-US'));
  await as('', () => step('login, an empty JSON body', 'POST', '/api/login', new Blob([''], { type: 'application/json' })));
  return out;
}
