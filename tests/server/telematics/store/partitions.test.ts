import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DB } from '../../../../server/platform/db/tables';
import { insertObdRecords } from '../../../../server/telematics/store/obdWriter';
import type { ObdRecordRow } from '../../../../server/telematics/store/obdRecords';
import {
  maintainPartitions,
  monthOf,
  monthOfPartition,
  partitionName,
  partitionsOf,
  startPartitionMaintenance,
  type MaintenanceLog,
} from '../../../../server/telematics/store/partitions';
import type { PositionRecord } from '../../../../server/telematics/store/records';
import { copyPositions } from '../../../../server/telematics/store/copyPositions';
import { insertPositions } from '../../../../server/telematics/store/writer';
import { BACKENDS, startTestServer, type TestServer } from '../../../helpers/testServer';

const TERMINAL = 990_001;
const VEHICLE = 990_002; // no such vehicle: vehicle_state is left alone, the positions are kept

const position = (iso: string, terminalId = TERMINAL): PositionRecord => ({
  terminalId,
  vehicleId: VEHICLE,
  deviceTime: Date.parse(iso),
  latitude: 31.2304,
  longitude: 121.4737,
  altitude: 12,
  speed: 42.5,
  direction: 90,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: 1234.5,
  fuelL: null,
  blind: false,
  extras: null,
  dtcs: null,
});

const obdRecord = (iso: string): ObdRecordRow => ({
  terminalId: TERMINAL,
  vehicleId: VEHICLE,
  deviceTime: Date.parse(iso),
  subtype: 2,
  archive: false,
  vehicleType: 0,
  latitude: null,
  longitude: null,
  status: null,
  readings: null,
  detail: null,
  dtcs: [{ systemId: 1, dtc: 0x0301, status: 1, text: 'P0301' }],
});

type Table = 'position' | 'obd_record' | 'obd_dtc';

/** Partition holding each of a terminal's rows, by device time (ISO). */
async function placement(db: Kysely<DB>, table: Table, terminalId = TERMINAL): Promise<Record<string, string>> {
  const r = await sql<{ part: string; ms: number }>`
    SELECT tableoid::regclass::text AS part, (extract(epoch FROM device_time) * 1000)::float8 AS ms
    FROM ${sql.table(table)} WHERE terminal_id = ${terminalId} ORDER BY device_time`.execute(db);
  return Object.fromEntries(r.rows.map((x) => [new Date(Math.round(Number(x.ms))).toISOString(), x.part]));
}

/** A vehicle id for the replay level rows (the level has no foreign key, like position). */
const VEHICLE_LEVEL = 987_654;

const count = async (db: Kysely<DB>, table: Table) =>
  (await sql<{ n: number }>`SELECT count(*)::int AS n FROM ${sql.table(table)} WHERE terminal_id = ${TERMINAL}`.execute(db)).rows[0].n;

/** Relations a plan reads (its scan nodes' "Relation Name"s). */
function relationsOf(plan: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(plan)) plan.forEach((p) => relationsOf(p, into));
  else if (plan && typeof plan === 'object') {
    for (const [k, v] of Object.entries(plan)) {
      if (k === 'Relation Name' && typeof v === 'string') into.add(v);
      else relationsOf(v, into);
    }
  }
  return into;
}

const silentLog = (): MaintenanceLog & { infos: object[]; warns: object[] } => {
  const infos: object[] = [];
  const warns: object[] = [];
  return { infos, warns, info: (o) => void infos.push(o), warn: (o) => void warns.push(o) };
};

describe('partition names', () => {
  it('names UTC months and reads only names of its own scheme back', () => {
    const m = monthOf(new Date('2026-12-31T23:59:59.999Z'));
    expect(partitionName('position', m)).toBe('position_p202612');
    expect(partitionName('obd_dtc', m + 1)).toBe('obd_dtc_p202701');
    // 2026-11-30 20:00 in New York is already December in UTC.
    expect(partitionName('position', monthOf(new Date('2026-11-30T20:00:00-05:00')))).toBe('position_p202612');
    expect(monthOfPartition('position', 'position_p202701')).toBe(m + 1);
    for (const other of [
      'position_default',
      'position_p202613',
      'position_p202600',
      'obd_record_p202611',
      'position_p2026110',
      'xposition_p202611',
    ]) {
      expect(monthOfPartition('position', other)).toBeNull();
    }
  });
});

describe.each(BACKENDS)('position partitions on %s', (backend) => {
  let s: TestServer;
  let db: Kysely<DB>;
  beforeAll(async () => {
    s = await startTestServer(backend);
    db = s.database.db;
  });
  afterAll(() => s?.close());

  it('refuses a bad month count or retention', async () => {
    await expect(maintainPartitions(db, { retentionMonths: 0 })).rejects.toThrow(/retentionMonths must be a whole number >= 1, got 0/);
    await expect(maintainPartitions(db, { retentionMonths: 1.5 })).rejects.toThrow(/retentionMonths/);
    await expect(maintainPartitions(db, { monthsAhead: -1 })).rejects.toThrow(/monthsAhead must be a whole number >= 0, got -1/);
  });

  it('lands inserts on either side of month boundaries in their months, and absorbs a retried batch', async () => {
    const r = await maintainPartitions(db, { now: new Date('2026-01-15T00:00:00Z') });
    expect(r.failed).toEqual([]);
    expect(r.created).toEqual(
      expect.arrayContaining(['position_p202601', 'position_p202602', 'position_p202603', 'obd_record_p202602', 'obd_dtc_p202603']),
    );
    const times = ['2026-01-31T23:59:59.000Z', '2026-02-01T00:00:00.000Z', '2026-02-28T23:59:59.000Z', '2026-03-01T00:00:00.000Z'];
    const batch = times.map((t) => position(t));
    const inserted = await insertPositions(db, batch);
    expect(inserted.size).toBe(4);
    expect(await placement(db, 'position')).toEqual({
      '2026-01-31T23:59:59.000Z': 'position_p202601',
      '2026-02-01T00:00:00.000Z': 'position_p202602',
      '2026-02-28T23:59:59.000Z': 'position_p202602',
      '2026-03-01T00:00:00.000Z': 'position_p202603',
    });
    // The terminal sends the same reports again (its acknowledgement was lost): nothing new.
    expect((await insertPositions(db, batch)).size).toBe(0);
    expect(await count(db, 'position')).toBe(4);
    // A batch mixing a repeat and a new report keeps the new one only.
    expect([...(await insertPositions(db, [position(times[1]), position('2026-02-15T08:00:00.000Z')]))]).toEqual([
      `${TERMINAL}|${Date.parse('2026-02-15T08:00:00Z')}`,
    ]);

    const obd = [obdRecord(times[0]), obdRecord(times[1])];
    expect((await insertObdRecords(db, obd)).size).toBe(2);
    expect((await insertObdRecords(db, obd)).size).toBe(0);
    expect(Object.values(await placement(db, 'obd_record'))).toEqual(['obd_record_p202601', 'obd_record_p202602']);
    expect(Object.values(await placement(db, 'obd_dtc'))).toEqual(['obd_dtc_p202601', 'obd_dtc_p202602']);
  });

  it('reads a one-day window of a vehicle from its month partition alone', async () => {
    const from = new Date('2026-02-15T00:00:00Z');
    const to = new Date('2026-02-16T00:00:00Z');
    const q = db
      .selectFrom('position')
      .select(['device_time', 'latitude', 'longitude', 'speed'])
      .where('vehicle_id', '=', VEHICLE)
      .where('device_time', '>=', from)
      .where('device_time', '<', to)
      .orderBy('device_time');
    expect((await q.execute()).map((r) => new Date(r.device_time).toISOString())).toEqual(['2026-02-15T08:00:00.000Z']);
    // The query exactly as kysely sends it (bound parameters), behind EXPLAIN.
    const plan = await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (FORMAT JSON) ${q}`.execute(db);
    expect([...relationsOf(plan.rows[0]['QUERY PLAN'])]).toEqual(['position_p202602']);
    // An open-ended read still sees every month (and the default).
    const all = await sql<{ 'QUERY PLAN': unknown }>`EXPLAIN (FORMAT JSON) SELECT * FROM position WHERE vehicle_id = ${VEHICLE}`.execute(
      db,
    );
    expect([...relationsOf(all.rows[0]['QUERY PLAN'])]).toEqual(
      expect.arrayContaining(['position_p202601', 'position_p202602', 'position_default']),
    );
  });

  it('keeps a far-past or far-future clock in the default, and moves it out when its month partition is created', async () => {
    const past = ['2000-01-01T00:00:00.000Z', '2000-01-31T23:59:59.000Z'];
    const future = ['2099-06-15T12:00:00.000Z'];
    expect(
      (
        await insertPositions(
          db,
          [...past, ...future].map((t) => position(t)),
        )
      ).size,
    ).toBe(3);
    expect((await insertObdRecords(db, [obdRecord(past[0]), obdRecord(future[0])])).size).toBe(2);
    const where = async () => ({
      position: await placement(db, 'position'),
      obd_record: await placement(db, 'obd_record'),
      obd_dtc: await placement(db, 'obd_dtc'),
    });
    let w = await where();
    for (const t of [...past, ...future]) expect(w.position[t]).toBe('position_default');
    expect([w.obd_record[past[0]], w.obd_dtc[future[0]]]).toEqual(['obd_record_default', 'obd_dtc_default']);

    // The default answers a retry as any partition does.
    expect((await insertPositions(db, [position(future[0])])).size).toBe(0);

    const r = await maintainPartitions(db, { now: new Date('2099-05-03T00:00:00Z') });
    expect(r.failed).toEqual([]);
    expect(r.created).toEqual(expect.arrayContaining(['position_p209905', 'position_p209906', 'position_p209907']));
    expect(r.moved).toEqual([
      { partition: 'position_p209906', rows: 1 },
      { partition: 'obd_record_p209906', rows: 1 },
      { partition: 'obd_dtc_p209906', rows: 1 },
    ]);
    w = await where();
    expect([w.position[future[0]], w.obd_record[future[0]], w.obd_dtc[future[0]]]).toEqual([
      'position_p209906',
      'obd_record_p209906',
      'obd_dtc_p209906',
    ]);
    expect(w.position[past[0]]).toBe('position_default');
    // The moved partition got the parent's key: a retry is still absorbed, now by the partition.
    expect((await insertPositions(db, [position(future[0])])).size).toBe(0);

    const r2 = await maintainPartitions(db, { now: new Date('2000-01-20T00:00:00Z') });
    expect(r2.moved).toEqual([
      { partition: 'position_p200001', rows: 2 },
      { partition: 'obd_record_p200001', rows: 1 },
      { partition: 'obd_dtc_p200001', rows: 1 },
    ]);
    w = await where();
    for (const t of past) expect(w.position[t]).toBe('position_p200001');
    const left = await sql<{ n: number }>`SELECT count(*)::int AS n FROM position_default WHERE terminal_id = ${TERMINAL}`.execute(db);
    expect(left.rows[0].n).toBe(0);
    // Indexes of the parent reach the partitions built by the move.
    const idx = await sql<{
      name: string;
    }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'position_p209906' ORDER BY 1`.execute(db);
    expect(idx.rows).toHaveLength(3);

    // A second pass has nothing to do.
    expect(await maintainPartitions(db, { now: new Date('2000-01-20T00:00:00Z') })).toEqual({
      created: [],
      moved: [],
      dropped: [],
      failed: [],
    });
  });

  it('keeps storing while a month partition is created and rows move out of the default', async () => {
    await insertPositions(db, [position('2099-09-01T00:00:00.000Z'), position('2099-09-30T23:59:59.000Z')]);
    const writes: Array<Promise<Set<string>>> = [];
    for (let i = 0; i < 20; i++)
      writes.push(
        insertPositions(db, [
          position(new Date(Date.parse('2099-09-10T00:00:00Z') + i * 1000).toISOString()),
          position(new Date(Date.parse('2026-02-20T00:00:00Z') + i * 1000).toISOString()),
        ]),
      );
    const pass = maintainPartitions(db, { now: new Date('2099-09-05T00:00:00Z') });
    const stored = await Promise.all(writes);
    expect((await pass).failed).toEqual([]);
    expect(stored.every((k) => k.size === 2)).toBe(true);
    const w = await placement(db, 'position');
    const sept = Object.entries(w).filter(([t]) => t.startsWith('2099-09'));
    expect(sept).toHaveLength(22);
    expect(new Set(sept.map(([, p]) => p))).toEqual(new Set(['position_p209909']));
  });

  it('reports a name taken by a table that is no partition, and leaves that table alone', async () => {
    await sql`CREATE TABLE position_p210001 (note text)`.execute(db);
    try {
      const r = await maintainPartitions(db, { now: new Date('2099-12-10T00:00:00Z') });
      expect(r.failed).toEqual([{ partition: 'position_p210001', error: 'position_p210001 exists and is not a partition of position' }]);
      expect(r.created).toEqual(expect.arrayContaining(['position_p209912', 'position_p210002', 'obd_record_p210001']));
      // The report of that month still lands, in the default.
      await insertPositions(db, [position('2100-01-05T00:00:00.000Z')]);
      expect((await placement(db, 'position'))['2100-01-05T00:00:00.000Z']).toBe('position_default');
      expect(await sql`SELECT note FROM position_p210001`.execute(db)).toMatchObject({ rows: [] });
    } finally {
      await sql`DROP TABLE position_p210001`.execute(db);
    }
  });

  it('runs a pass on start and then on every interval until stopped, logging what it did and what failed', async () => {
    await sql`CREATE TABLE position_p210101 (note text)`.execute(db);
    try {
      const log = silentLog();
      let passes = 0;
      const clock = () => (passes++, new Date('2101-01-15T00:00:00Z'));
      const m = startPartitionMaintenance(db, { log, clock, monthsAhead: 0, intervalMs: 40 });
      const first = await m.ready;
      expect(first?.created).toEqual(['obd_record_p210101', 'obd_dtc_p210101']);
      expect(first?.failed.map((f) => f.partition)).toEqual(['position_p210101']);
      expect(log.infos).toEqual([{ created: ['obd_record_p210101', 'obd_dtc_p210101'], moved: [], dropped: [] }]);
      expect(log.warns).toEqual([{ failed: first?.failed }]);
      const deadline = Date.now() + 5000;
      while (passes < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      await m.stop();
      expect(passes).toBeGreaterThanOrEqual(3);
      // Each later pass retried the failed month (and logged it again); nothing else to do.
      expect(log.infos).toHaveLength(1);
      expect(log.warns.length).toBeGreaterThanOrEqual(2);
      const stoppedAt = passes;
      await new Promise((r) => setTimeout(r, 150));
      expect(passes).toBe(stoppedAt);
    } finally {
      await sql`DROP TABLE position_p210101`.execute(db);
    }
  });

  it('logs a pass that throws and still resolves its start', async () => {
    const log = silentLog();
    const m = startPartitionMaintenance(db, { log, retentionMonths: -3 });
    expect(await m.ready).toBeNull();
    await m.stop();
    expect(log.warns).toHaveLength(1);
    expect(String((log.warns[0] as { err: Error }).err.message)).toMatch(/retentionMonths must be a whole number >= 1, got -3/);
  });

  it('with a retention, drops month partitions older than it and nothing else', async () => {
    const tables = ['position', 'obd_record', 'obd_dtc'] as const;
    const before = Object.fromEntries(await Promise.all(tables.map(async (t) => [t, await partitionsOf(db, t)] as const)));
    expect(before.position).toEqual(
      expect.arrayContaining(['position_p200001', 'position_p202601', 'position_p202602', 'position_p209906', 'position_default']),
    );
    // Keep March 2026 and the month before it: January 2026 and older go, whatever the table.
    const now = new Date('2026-03-10T00:00:00Z');
    // Replay level buckets on both sides of the cutoff (February 2026 is kept).
    const bucket = (minute: string) => sql`(${VEHICLE_LEVEL}, 10, ${minute}::timestamptz, 1, 0, NULL, NULL, true, 0, '')`;
    await sql`INSERT INTO track_minute (vehicle_id, span_minutes, minute, n, gnss_km, odo_first, odo_last, odo_sane, max_speed, points)
      VALUES ${sql.join([bucket('2026-01-31T23:50:00Z'), bucket('2026-02-01T00:00:00Z'), bucket('2026-03-01T08:00:00Z')])}`.execute(db);
    const r = await maintainPartitions(db, { now, retentionMonths: 1, monthsAhead: 0 });
    expect(r.failed).toEqual([]);
    expect(r.created).toEqual([]);
    const cutoff = monthOf(new Date('2026-02-01T00:00:00Z'));
    for (const table of tables) {
      const dropped = before[table].filter((p) => (monthOfPartition(table, p) ?? cutoff) < cutoff);
      expect(dropped).toEqual(expect.arrayContaining([`${table}_p200001`, `${table}_p200003`, `${table}_p202601`]));
      expect(r.dropped.filter((p) => p.startsWith(`${table}_p`)).sort()).toEqual(dropped.sort());
      expect((await partitionsOf(db, table)).sort()).toEqual(before[table].filter((p) => !dropped.includes(p)).sort());
    }
    const w = await placement(db, 'position');
    expect(Object.keys(w).filter((t) => t < '2026-02-01')).toEqual([]);
    expect(w['2026-02-01T00:00:00.000Z']).toBe('position_p202602');
    expect(w['2099-06-15T12:00:00.000Z']).toBe('position_p209906');
    // The default is never dropped, and rows a wrong clock left in it stay.
    expect(w['2100-01-05T00:00:00.000Z']).toBe('position_default');
    expect(Object.values(await placement(db, 'obd_record'))).toEqual(['obd_record_p202602', 'obd_record_p209906']);
    const levels = await sql<{ minute: Date }>`SELECT minute FROM track_minute WHERE vehicle_id = ${VEHICLE_LEVEL} ORDER BY minute`.execute(
      db,
    );
    expect(levels.rows.map((x) => x.minute.toISOString())).toEqual(['2026-02-01T00:00:00.000Z', '2026-03-01T08:00:00.000Z']);
    // Nothing more to drop on the next pass.
    expect((await maintainPartitions(db, { now, retentionMonths: 1, monthsAhead: 0 })).dropped).toEqual([]);
  });
});

/**
 * A writer whose statement routed a row of a month to the DEFAULT partition just before that month's
 * partition was attached: PostgreSQL refuses the row once the attach commits. Made to happen every
 * time here: a reader's row lock holds the creation at its lock on the default, the writers queue
 * behind it having already routed to the default, then the reader lets go.
 */
describe('storing while a month partition is attached (PostgreSQL)', () => {
  let s: TestServer;
  let db: Kysely<DB>;
  beforeAll(async () => {
    s = await startTestServer('postgres');
    db = s.database.db;
  });
  afterAll(() => s?.close());

  /**
   * Resolves once `n` locks of `mode` wait on `relation`: the state the race needs, polled on a
   * connection of its own (the pool's four are the reader's, the pass's and the writers').
   */
  async function waiting(relation: string, mode: string, n: number): Promise<void> {
    const watcher = new pg.Client({ connectionString: (s.database.pool as pg.Pool & { options: pg.PoolConfig }).options.connectionString });
    await watcher.connect();
    try {
      for (;;) {
        const r = await watcher.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM pg_locks WHERE relation = to_regclass($1) AND mode = $2 AND NOT granted',
          [relation, mode],
        );
        if (r.rows[0].n >= n) return;
        await new Promise((done) => setImmediate(done));
      }
    } finally {
      await watcher.end();
    }
  }

  /** Runs `writes` while the creation of `month`'s partitions has locked `fallback` but not yet attached. */
  async function duringAttach<T>(
    fallback: string,
    month: string,
    writes: () => Array<Promise<T>>,
  ): Promise<{ stored: T[]; failed: unknown[] }> {
    let release!: () => void;
    const held = new Promise<void>((ok) => (release = ok));
    let locked!: () => void;
    const hold = new Promise<void>((ok) => (locked = ok));
    const reader = db.transaction().execute(async (trx) => {
      await sql`SELECT 1 FROM ${sql.table(fallback)} WHERE device_time >= ${month}::timestamptz LIMIT 1 FOR UPDATE`.execute(trx);
      locked();
      await held;
    });
    await hold;
    const pass = maintainPartitions(db, { now: new Date(month), monthsAhead: 0 });
    await waiting(fallback, 'ExclusiveLock', 1);
    const started = writes();
    await waiting(fallback, 'RowExclusiveLock', started.length);
    release();
    await reader;
    const stored = await Promise.all(started);
    return { stored, failed: (await pass).failed };
  }

  it('stores a batch of positions, by statement and by COPY, in the new partition', async () => {
    await insertPositions(db, [position('2099-10-01T00:00:00.000Z')]);
    const r = await duringAttach('position_default', '2099-10-01T00:00:00.000Z', () => [
      insertPositions(db, [position('2099-10-05T00:00:00.000Z'), position('2026-02-20T00:00:00.000Z')]),
      copyPositions(s.database.pool!, [position('2099-10-06T00:00:00.000Z')]),
    ]);
    expect(r.failed).toEqual([]);
    expect(r.stored.map((k) => k.size)).toEqual([2, 1]);
    const w = await placement(db, 'position');
    expect(['2099-10-01T00:00:00.000Z', '2099-10-05T00:00:00.000Z', '2099-10-06T00:00:00.000Z'].map((t) => w[t])).toEqual(
      Array(3).fill('position_p209910'),
    );
  });

  it('stores a batch of OBD records and their DTCs in the new partitions', async () => {
    await insertObdRecords(db, [obdRecord('2099-11-01T00:00:00.000Z')]);
    const r = await duringAttach('obd_record_default', '2099-11-01T00:00:00.000Z', () => [
      insertObdRecords(db, [obdRecord('2099-11-07T00:00:00.000Z')]),
    ]);
    expect(r.failed).toEqual([]);
    expect(r.stored.map((k) => k.size)).toEqual([1]);
    expect(Object.values(await placement(db, 'obd_record'))).toEqual(['obd_record_p209911', 'obd_record_p209911']);
    expect(Object.values(await placement(db, 'obd_dtc'))).toEqual(['obd_dtc_p209911', 'obd_dtc_p209911']);
  });
});
