/**
 * Forwarding: each configured link (`forward_link`) fed with the positions the writer committed
 * ('positions.stored') and the alarms the engine raised ('alarm.raised') of the vehicles it covers.
 * Events are taken once across processes (a shared subscription of the bus), in the order they
 * were announced. The table is read again every `reloadMs`: a link whose settings changed restarts.
 */

import { sql, type Kysely } from 'kysely';
import { sharedView, type ServerBus } from '../platform/bus';
import type { DB } from '../platform/db/tables';
import type { StoredPositions } from '../platform/telemetry';
import { MSG, type Vehicle } from './jt809';
import { Jt809Link, type LinkSnapshot } from './jt809Link';
import { covers, loadLinks, type LinkRow } from './links';
import { alarmBody, carInfoOf, plateColourCode, positionBody } from './messages809';

export interface LinkView extends LinkSnapshot {
  id: number;
  name: string;
  protocol: LinkRow['protocol'];
  host: string;
  port: number;
}

export interface ForwardingService {
  links(): LinkView[];
  reload(): Promise<void>;
  stop(): Promise<void>;
}

export interface ForwardingOptions {
  db: Kysely<DB>;
  log?: { warn(obj: object, msg: string): void };
  reloadMs?: number;
  /** Link timings, shortened by tests. */
  heartbeatMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
}

interface Running {
  row: LinkRow;
  link: Jt809Link;
}

export async function startForwarding(bus: ServerBus, opts: ForwardingOptions): Promise<ForwardingService> {
  const { db } = opts;
  const running = new Map<number, Running>();
  const plates = new Map<number, Vehicle>();
  let chain: Promise<void> = Promise.resolve();
  let stopped = false;

  /** Plate and colour of vehicles, read once per process (a renamed plate is read again on reload). */
  async function vehiclesOf(ids: readonly number[]): Promise<Map<number, Vehicle>> {
    const missing = [...new Set(ids)].filter((id) => !plates.has(id));
    if (missing.length) {
      const r = await sql<{ id: number; licence: string; plateColor: string | null }>`
        SELECT id, licence, plate_color AS "plateColor" FROM vehicle WHERE id = ANY (${missing}::int[])`.execute(db);
      for (const v of r.rows) plates.set(v.id, { vehicleNo: v.licence, vehicleColor: plateColourCode(v.plateColor) });
    }
    return plates;
  }

  async function carInfo(row: LinkRow, v: Vehicle) {
    const r = await sql<{ id: number; vin: string | null; plateColor: string | null; model: string | null; owner: string; path: string }>`
      SELECT v.id, v.vin, v.plate_color AS "plateColor", v.model, o.name AS owner, o.path
      FROM vehicle v JOIN organisation o ON o.id = v.org_id WHERE v.licence = ${v.vehicleNo}`.execute(db);
    const hit = r.rows.find((x) => covers(row, x.id, x.path) && plateColourCode(x.plateColor) === v.vehicleColor);
    return hit ? carInfoOf({ ...hit, plateColour: plateColourCode(hit.plateColor) }) : null;
  }

  async function onPositions(batch: StoredPositions): Promise<void> {
    const mine = batch.inserted.filter((x) => x.record.vehicleId !== null && x.source.vehicleOrgPath !== null);
    if (!mine.length || !running.size) return;
    const vehicles = await vehiclesOf(mine.map((x) => x.record.vehicleId!));
    for (const { row, link } of running.values())
      for (const { source, record } of mine) {
        const v = vehicles.get(record.vehicleId!);
        if (v && covers(row, record.vehicleId!, source.vehicleOrgPath!))
          link.send(MSG.UP_EXG_MSG, positionBody(v, record, row.edition), 'position');
      }
  }

  async function onAlarm(alarmId: number, vehicleId: number, orgPath: string): Promise<void> {
    const targets = [...running.values()].filter((r) => covers(r.row, vehicleId, orgPath));
    if (!targets.length) return;
    const r = await sql<{ type: string; begin: Date; end: Date | null; level: string }>`
      SELECT type, begin_time AS begin, end_time AS "end", level FROM alarm WHERE id = ${alarmId}`.execute(db);
    const a = r.rows[0];
    const v = (await vehiclesOf([vehicleId])).get(vehicleId);
    if (!a || !v) return;
    const alarm = { ...v, type: a.type, begin: new Date(a.begin), end: a.end ? new Date(a.end) : null, info: `${a.type} ${a.level}` };
    for (const { row, link } of targets) link.send(MSG.UP_WARN_MSG, alarmBody(alarm, row.accessCode), 'alarm');
  }

  /** Handled one after another, so a link gets the events in the order they were announced. */
  const inOrder = (f: () => Promise<void>) => {
    chain = chain.then(f).catch((e: Error) => opts.log?.warn({ err: e.message }, 'forwarding'));
    return chain;
  };

  async function reload(): Promise<void> {
    const rows = (await loadLinks(db)).filter((r) => r.protocol === 'jt809');
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, r] of running)
      if (wanted.get(id)?.key !== r.row.key) {
        running.delete(id);
        await r.link.stop();
      }
    plates.clear();
    for (const row of rows) {
      if (running.has(row.id) || stopped) continue;
      const link = new Jt809Link({
        ...row,
        backlogLimit: row.backlogLimit,
        heartbeatMs: opts.heartbeatMs,
        backoffMinMs: opts.backoffMinMs,
        backoffMaxMs: opts.backoffMaxMs,
        carInfo: (v) => carInfo(row, v),
        log: opts.log,
      });
      running.set(row.id, { row, link });
      try {
        await link.start();
      } catch (e) {
        link.lastError = (e as Error).message;
        opts.log?.warn({ err: link.lastError, link: row.id }, 'forwarding link did not start');
      }
    }
  }

  const shared = sharedView(bus, 'forwarding');
  const unsubscribe = [
    shared.subscribe('positions.stored', (batch) => inOrder(() => onPositions(batch))),
    shared.subscribe('alarm.raised', (a) => inOrder(() => onAlarm(a.alarmId, a.vehicleId, a.orgPath))),
  ];
  await reload();
  const timer = setInterval(() => void inOrder(reload), opts.reloadMs ?? 60_000);
  timer.unref();

  return {
    links: () =>
      [...running.values()].map(({ row, link }) => ({
        id: row.id,
        name: row.name,
        protocol: row.protocol,
        host: row.host,
        port: row.port,
        ...link.snapshot(),
      })),
    reload: () => inOrder(reload),
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const u of unsubscribe) u();
      await chain;
      for (const r of running.values()) await r.link.stop();
      running.clear();
    },
  };
}
