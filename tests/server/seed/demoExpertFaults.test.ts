import { DEMO_EXPERT_FAULTS, seedDemoExpertFaults } from '../../../server/seed/demoExpertFaults';
import { DTCS } from '../../../server/simulator/history';
import { DTC_POOL } from '../../../server/simulator/vehicle';
import { BACKENDS, useTestServer, type TestServer } from '../../helpers/testServer';

/**
 * The demo's expert fault library: every trouble code the demo terminals report has an entry with
 * its meaning, causes, what to do and the workshop's measures; common J1939 faults besides; each
 * entry as the server's own rules accept it.
 */
jest.setTimeout(400_000);

interface Entry {
  id: number;
  spn: number;
  fmi: number;
  dtcCode: string | null;
  name: string;
  cause: string | null;
  resolvent: string;
  maintenanceMeasures: string | null;
}

describe.each(BACKENDS)('the demo expert fault library (%s)', (backend) => {
  let s: TestServer;
  let admin: string;
  useTestServer(backend, (server, token) => {
    s = server;
    admin = token;
  });

  let rows: Entry[];
  beforeAll(async () => {
    await s.database.db.transaction().execute((trx) => seedDemoExpertFaults(trx));
    const r = await s.call(admin, 'POST', '/api/vehicle/expertFault/query', { criteria: {}, pageIndex: 1, pageSize: 100 });
    expect(r.status).toBe(200);
    rows = r.body.data as Entry[];
  });

  it('holds every trouble code the demo reports, each explained', async () => {
    expect(rows).toHaveLength(DEMO_EXPERT_FAULTS.length);
    for (const code of new Set([...DTC_POOL, ...DTCS])) {
      const r = await s.call(admin, 'POST', '/api/vehicle/expertFault/query', { criteria: { dtcCode: code }, pageIndex: 1, pageSize: 10 });
      const [hit] = r.body.data as Entry[];
      expect({ code, found: !!hit }).toEqual({ code, found: true });
      expect(hit.cause?.length).toBeGreaterThan(10);
      expect(hit.resolvent.length).toBeGreaterThan(5);
      expect(hit.maintenanceMeasures?.length).toBeGreaterThan(10);
    }
    // Common J1939 faults too, matched by SPN and FMI.
    const j1939 = rows.filter((r) => !r.dtcCode);
    expect(j1939.length).toBeGreaterThanOrEqual(10);
    for (const [spn, fmi] of [
      [100, 1],
      [110, 0],
      [3719, 16],
      [4364, 18],
    ])
      expect(j1939.some((r) => r.spn === spn && r.fmi === fmi)).toBe(true);
    expect(new Set(rows.map((r) => `${r.spn}/${r.fmi}`)).size).toBe(rows.length);
    expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
  });

  it('each entry is one the server’s own rules accept as it is', async () => {
    for (const row of rows) {
      const entry = DEMO_EXPERT_FAULTS.find((e) => e.spn === row.spn && e.fmi === row.fmi)!;
      const r = await s.call(admin, 'PUT', `/api/vehicle/expertFault/${row.id}`, { ...entry });
      expect({ name: entry.name, status: r.status, body: r.status === 200 ? null : r.body }).toEqual({
        name: entry.name,
        status: 200,
        body: null,
      });
    }
  });
});
