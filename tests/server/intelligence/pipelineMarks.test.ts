import { sql } from 'kysely';
import type { Deriver } from '../../../server/intelligence';
import { DerivationPipeline } from '../../../server/intelligence/pipeline';
import { intelligenceDerivers } from '../../../server/intelligence';
import type { SimTerminal } from '../../../server/simulator/terminal';
import type { LocationInput } from '../../../server/telematics/jt808/codec';
import { until } from '../telematics/gateway/harness';
import { scriptedDay } from './days';
import { demoTerminal, derivedRowsOf, startDeriveHarness, type DeriveHarness } from './harness';

/**
 * A store commit's mark must not wait for a pass deriving its vehicle (it used to: the mark was an
 * upsert of the derive_state row the pass holds FOR UPDATE, so the reports stored during a pass
 * reached the queue only after it). A pass is held open by a deriver that waits on the test; the
 * reports stored meanwhile must be marked at once, derived by the next pass, and give the rows of
 * one whole rebuild. PostgreSQL only: PGlite has one connection, so there every statement waits for
 * an open transaction anyway.
 */
describe('marks while a pass holds the vehicle, on postgres', () => {
  let h: DeriveHarness;
  let hold: Promise<void> | null = null;
  let held: number[] = [];
  const gate: Deriver = {
    name: 'gate',
    async rebuild(_trx, window) {
      await this.rebuildMany!(_trx, [window]);
    },
    async rebuildMany(_trx, windows) {
      if (!hold) return;
      held.push(...windows.map((w) => w.vehicle.vehicleId));
      await hold;
    },
  };
  beforeAll(async () => {
    h = await startDeriveHarness('postgres', { extraDerivers: () => [gate] });
  });
  afterAll(() => h.close());

  const db = () => h.s.database.db;
  const marksOf = async (vehicleId: number) =>
    (await sql<{ n: number }>`SELECT count(*)::int AS n FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db())).rows[0].n;

  /** Runs `during` while the next pass of the harness's pipeline is held open in the gate, which it then releases. */
  async function holdingPass(during: () => Promise<void>): Promise<void> {
    let release!: () => void;
    hold = new Promise((r) => (release = r));
    held = [];
    try {
      await during();
    } finally {
      hold = null;
      release();
    }
  }

  /**
   * Sends `first` and waits until a pass holds the vehicle in the gate, then sends `rest`: its mark
   * must show up while that pass is still open (the marks the pass took are deleted but not
   * committed, so they still count here).
   */
  async function markedDuringPass(t: SimTerminal, vehicleId: number, first: LocationInput[], rest: LocationInput[]): Promise<void> {
    await h.send(t, first, 'batch');
    await until(() => held.includes(vehicleId), 10_000);
    const taken = await marksOf(vehicleId);
    await h.send(t, rest, 'batch');
    await until(async () => (await marksOf(vehicleId)) > taken, 10_000);
  }

  /** No mark is left, and the passes left the rows of one rebuild over the whole history. */
  async function derivedAsOneRebuild(vehicleId: number): Promise<void> {
    await h.derived();
    expect(await marksOf(vehicleId)).toBe(0);
    const passes = await derivedRowsOf(h, vehicleId);
    expect(passes.trips.length).toBeGreaterThan(0);
    await h.derivation.pipeline.rebuild(vehicleId, { from: -Infinity, to: Infinity });
    expect(await derivedRowsOf(h, vehicleId)).toEqual(passes);
  }

  it('marks what is stored during a pass at once and derives it in the next', async () => {
    const phone = demoTerminal(3);
    const t = await h.terminal(phone);
    const vehicleId = await h.vehicleOf(phone);
    const day = scriptedDay();
    const half = Math.floor(day.length / 2);
    await h.send(t, day.slice(0, half), 'batch');
    await h.derived();

    await holdingPass(() => markedDuringPass(t, vehicleId, day.slice(half, half + 8), day.slice(half + 8)));
    await derivedAsOneRebuild(vehicleId);
    expect(h.derivation.pipeline.stats.failures).toBe(0);
  });

  it('makes a second process’s pass over the same vehicle wait for the first, then take the marks left', async () => {
    const phone = demoTerminal(4);
    const t = await h.terminal(phone);
    const vehicleId = await h.vehicleOf(phone);
    const day = scriptedDay();
    // Another process's pipeline (no gate) over the same vehicle.
    const other = new DerivationPipeline({ db: db(), derivers: intelligenceDerivers(), timeZone: 'Asia/Shanghai' });
    let otherDone = false;
    let otherPass: Promise<unknown> = Promise.resolve();
    await holdingPass(async () => {
      await markedDuringPass(t, vehicleId, day.slice(0, 8), day.slice(8));
      otherPass = other.derivePending(vehicleId).then(() => (otherDone = true));
      // It waits on the first pass's lock of the vehicle.
      await until(
        async () =>
          (
            await sql<{
              n: number;
            }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%derive_state%'`.execute(
              db(),
            )
          ).rows[0].n > 0,
        10_000,
      );
      expect(otherDone).toBe(false);
    });
    await otherPass;
    await derivedAsOneRebuild(vehicleId);
    expect(other.stats.failures + h.derivation.pipeline.stats.failures).toBe(0);
  });

  it('writes the marks it took before stop() was called, so the next start derives them', async () => {
    const vehicleId = await h.vehicleOf(demoTerminal(5));
    const pipeline = new DerivationPipeline({ db: db(), derivers: intelligenceDerivers(), timeZone: 'Asia/Shanghai' });
    const at = Date.parse('2026-11-20T08:00:00Z');
    // Stopped in the same turn as the mark, before its write began: a server closing as a commit lands.
    void pipeline.mark([{ vehicleId, from: at, to: at + 60_000, count: 7 }]);
    await pipeline.stop();
    const marks = await sql<{
      f: Date;
      t: Date;
    }>`SELECT pending_from AS f, pending_to AS t FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db());
    expect(marks.rows.map((m) => [m.f.getTime(), m.t.getTime()])).toEqual([[at, at + 60_000]]);
    await sql`DELETE FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db());
  });

  it('writes marks again once the database takes them, instead of dropping them', async () => {
    const vehicleId = await h.vehicleOf(demoTerminal(6));
    const warnings: string[] = [];
    const pipeline = new DerivationPipeline({
      db: db(),
      derivers: intelligenceDerivers(),
      timeZone: 'Asia/Shanghai',
      markRetryMs: 50,
      log: { info: () => {}, warn: (_o, m) => void warnings.push(m) },
    });
    const at = Date.parse('2026-11-19T08:00:00Z');
    // Every new mark is refused while the constraint stands (a database that is away, for the pipeline).
    await sql`ALTER TABLE derive_mark ADD CONSTRAINT refuse_marks CHECK (false) NOT VALID`.execute(db());
    try {
      const written = pipeline.mark([{ vehicleId, from: at, to: at + 60_000, count: 7 }]);
      await until(() => pipeline.stats.failures >= 2, 10_000);
      expect(await marksOf(vehicleId)).toBe(0);
      // A span stored meanwhile is merged into the one waiting.
      void pipeline.mark([{ vehicleId, from: at - 60_000, to: at, count: 3 }]);
      await sql`ALTER TABLE derive_mark DROP CONSTRAINT refuse_marks`.execute(db());
      await written;
    } finally {
      await sql`ALTER TABLE derive_mark DROP CONSTRAINT IF EXISTS refuse_marks`.execute(db());
    }
    const marks = await sql<{
      f: Date;
      t: Date;
    }>`SELECT min(pending_from) AS f, max(pending_to) AS t FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db());
    expect(marks.rows.map((m) => [m.f.getTime(), m.t.getTime()])).toEqual([[at - 60_000, at + 60_000]]);
    expect(warnings[0]).toBe('derivation mark failed; writing it again shortly');
    await pipeline.stop();
    await sql`DELETE FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db());
  });

  it('answers a mark once its spans are written, while other marks keep coming', async () => {
    const vehicleId = await h.vehicleOf(demoTerminal(7));
    const pipeline = new DerivationPipeline({ db: db(), derivers: intelligenceDerivers(), timeZone: 'Asia/Shanghai' });
    const at = Date.parse('2026-11-18T08:00:00Z');
    // A mark every turn of the event loop: the loop writing them is never out of work.
    let flowing = true;
    let n = 0;
    const flow = () => {
      if (!flowing) return;
      void pipeline.mark([{ vehicleId, from: at + ++n * 1000, to: at + n * 1000, count: 1 }]);
      setImmediate(flow);
    };
    const first = pipeline.mark([{ vehicleId, from: at, to: at, count: 1 }]);
    flow();
    let answered = false;
    void first.then(() => (answered = true));
    try {
      await until(() => answered, 5_000);
      expect(flowing).toBe(true);
      expect(
        (
          await sql<{ f: Date }>`SELECT min(pending_from) AS f FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db())
        ).rows[0].f.getTime(),
      ).toBe(at);
    } finally {
      flowing = false;
      await pipeline.stop();
      await sql`DELETE FROM derive_mark WHERE vehicle_id = ${vehicleId}`.execute(db());
    }
  });
});
