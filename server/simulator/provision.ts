/**
 * `--provision`: creates the simulator's terminal and vehicle rows through the public API (so it
 * works whichever database the server runs on, embedded or not), skipping those that exist.
 */

import { demoFixtures } from '../seed/fixtures';

export interface ProvisionOptions {
  api: string;
  user: string;
  password: string;
  /** Demo organisation code (its id is read from one of its demo terminals). */
  orgCode: string;
  terminalNumbers: string[];
}

interface Answer {
  status: number;
  body: Record<string, unknown> & { data?: Array<Record<string, unknown>>; object?: { token?: string } };
}

async function call(api: string, method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const r = await fetch(api + path, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
}

async function findTerminal(api: string, token: string, terminalNo: string): Promise<Record<string, unknown> | undefined> {
  const r = await call(api, 'POST', '/api/vehicle/terminal/query', token, { criteria: { terminalNo }, pageIndex: 1, pageSize: 5 });
  return r.body.data?.find((t) => t.terminalNo === terminalNo);
}

/** Returns how many terminals were created. */
export async function provisionThroughApi(o: ProvisionOptions): Promise<number> {
  const login = await call(o.api, 'POST', '/api/login', null, { loginName: o.user, password: o.password });
  const token = login.body.object?.token;
  if (login.status !== 200 || !token) throw new Error(`login as ${o.user} failed (${login.status})`);
  const sample = demoFixtures.terminals.find((t) => t.org === o.orgCode);
  const orgId = sample ? (await findTerminal(o.api, token, sample.terminalNo))?.orgId : undefined;
  if (orgId === undefined) throw new Error(`organisation ${o.orgCode} not found among the demo data`);
  let created = 0;
  for (const terminalNo of o.terminalNumbers) {
    const n = Number(terminalNo.slice(-8));
    const t = await call(o.api, 'PUT', '/api/vehicle/terminal', token, {
      terminalNo,
      sim: `1450${String(n).padStart(9, '0')}`,
      orgId,
      manufacturer: '车管星模拟',
      terminalType: 'obd',
      protocol: '2013',
    });
    if (t.status === 406) continue; // exists already
    if (t.status !== 201) throw new Error(`creating terminal ${terminalNo} failed (${t.status}): ${JSON.stringify(t.body)}`);
    created++;
    const v = await call(o.api, 'POST', '/api/vehicle/vehicle', token, {
      licence: `沪S${String(n % 100_000).padStart(5, '0')}`,
      terminalId: t.body.id,
      orgId,
    });
    if (v.status !== 201 && v.status !== 406)
      throw new Error(`creating the vehicle of ${terminalNo} failed (${v.status}): ${JSON.stringify(v.body)}`);
  }
  return created;
}
