/**
 * Forwarding: each configured link (`forward_link`). A JT/T 809 link is fed with the positions the
 * writer committed ('positions.stored') and the alarms the engine raised ('alarm.raised') of the
 * vehicles it covers, taken once across processes (a shared subscription of the bus) in the order
 * they were announced; a raw JT/T 808 link with the packets the gateway of this process received
 * (`tapFrame`). The table is read again when a link changes ('forwarding.changed', announced by
 * the link routes to every process) and every `reloadMs`: a link whose settings changed restarts.
 * A link's target must pass the outbound address guard (FORWARD_ALLOW): a refused literal address
 * is not started (shown stopped with the reason), a name is checked on every connect. A JT/T 809
 * link's backlog is kept in the database (`forward_backlog`), so it survives a restart.
 */

import { sql, type Kysely } from 'kysely';
import { sharedView, type ServerBus } from '../platform/bus';
import type { DB } from '../platform/db/tables';
import type { StoredPositions, TerminalIdentity } from '../platform/telemetry';
import { escapeFrame } from '../telematics/jt808/framing';
import { guardedLookup, hostRefused, NO_ALLOW, type TargetAllow } from '../notify/target';
import { MSG, type Vehicle } from './jt809';
import { Jt809Link, newCounters, type LinkSnapshot } from './jt809Link';
import { StoredBacklog } from './linkBacklog';
import { Raw808Link } from './raw808Link';
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
  /** The gateway's tap: a packet of an authenticated terminal, for the raw JT/T 808 links covering it. */
  tapFrame(terminal: TerminalIdentity, packet: Buffer): void;
  reload(): Promise<void>;
  stop(): Promise<void>;
}

export interface ForwardingOptions {
  db: Kysely<DB>;
  log?: { warn(obj: object, msg: string): void };
  reloadMs?: number;
  /** Runs the JT/T 809 links here (one process of a fleet); false: only the raw 808 ones (default true). */
  jt809?: boolean;
  /** FORWARD_ALLOW: the non-public targets links may reach (default none). */
  allow?: TargetAllow;
  /** Link timings, shortened by tests. */
  heartbeatMs?: number;
  backoffMinMs?: number;
  backoffMaxMs?: number;
}

type Running = { row: LinkRow; kind: 'jt809'; link: Jt809Link } | { row: LinkRow; kind: 'jt808'; link: Raw808Link };

export async function startForwarding(bus: ServerBus, opts: ForwardingOptions): Promise<ForwardingService> {
  const { db } = opts;
  const running = new Map<number, Running>();
  /** The raw links, apart: the tap runs for every packet and must be cheap when there are none. */
  let raw: Array<{ row: LinkRow; link: Raw808Link }> = [];
  /** Enabled links whose target the address guard refuses: not run, shown with the reason. */
  let refused: LinkRow[] = [];
  const allow = opts.allow ?? NO_ALLOW;
  const lookup = guardedLookup(allow, 'FORWARD_ALLOW');
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
    for (const r of running.values()) {
      if (r.kind !== 'jt809') continue;
      const { row, link } = r;
      for (const { source, record } of mine) {
        const v = vehicles.get(record.vehicleId!);
        if (v && covers(row, record.vehicleId!, source.vehicleOrgPath!))
          link.send(MSG.UP_EXG_MSG, positionBody(v, record, row.edition), 'position');
      }
    }
  }

  async function onAlarm(alarmId: number, vehicleId: number, orgPath: string): Promise<void> {
    const targets = [...running.values()].flatMap((r) => (r.kind === 'jt809' && covers(r.row, vehicleId, orgPath) ? [r] : []));
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
    const all = (await loadLinks(db)).filter((r) => r.protocol === 'jt808' || opts.jt809 !== false);
    refused = all.filter((r) => hostRefused(r.host, allow));
    const rows = all.filter((r) => !refused.includes(r));
    const wanted = new Map(rows.map((r) => [r.id, r]));
    for (const [id, r] of running)
      if (wanted.get(id)?.key !== r.row.key) {
        running.delete(id);
        await r.link.stop();
      }
    plates.clear();
    for (const row of rows) {
      if (running.has(row.id) || stopped) continue;
      if (row.protocol === 'jt808') {
        const link = new Raw808Link({ ...row, backoffMinMs: opts.backoffMinMs, backoffMaxMs: opts.backoffMaxMs, lookup, log: opts.log });
        running.set(row.id, { row, kind: 'jt808', link });
        continue;
      }
      let link: Jt809Link;
      try {
        link = new Jt809Link({
          ...row,
          backlog: await StoredBacklog.open(db, row.id, row.backlogLimit, opts.log),
          lookup,
          heartbeatMs: opts.heartbeatMs,
          backoffMinMs: opts.backoffMinMs,
          backoffMaxMs: opts.backoffMaxMs,
          carInfo: (v) => carInfo(row, v),
          log: opts.log,
        });
      } catch (e) {
        opts.log?.warn({ err: (e as Error).message, link: row.id }, 'forwarding link not started');
        continue;
      }
      running.set(row.id, { row, kind: 'jt809', link });
      try {
        await link.start();
      } catch (e) {
        link.lastError = (e as Error).message;
        opts.log?.warn({ err: link.lastError, link: row.id }, 'forwarding link did not start');
      }
    }
    raw = [...running.values()].flatMap((r) => (r.kind === 'jt808' ? [r] : []));
  }

  const shared = sharedView(bus, 'forwarding');
  const unsubscribe = [
    shared.subscribe('positions.stored', (batch) => inOrder(() => onPositions(batch))),
    shared.subscribe('alarm.raised', (a) => inOrder(() => onAlarm(a.alarmId, a.vehicleId, a.orgPath))),
    // Every process reloads (not a shared subscription): each runs links of its own.
    bus.subscribe('forwarding.changed', () => inOrder(reload)),
  ];
  await reload();
  const timer = setInterval(() => void inOrder(reload), opts.reloadMs ?? 60_000);
  timer.unref();

  return {
    links: () => [
      ...[...running.values()].map(({ row, link }) => ({
        id: row.id,
        name: row.name,
        protocol: row.protocol,
        host: row.host,
        port: row.port,
        ...link.snapshot(),
      })),
      ...refused.map((row) => ({
        id: row.id,
        name: row.name,
        protocol: row.protocol,
        host: row.host,
        port: row.port,
        state: 'stopped' as const,
        subLink: 'none' as const,
        backlog: 0,
        counters: newCounters(),
        upSince: null,
        lastError: `${row.host} may not be reached unless FORWARD_ALLOW allows it`,
      })),
    ],
    tapFrame(terminal, packet) {
      if (!raw.length || terminal.vehicleId === null || terminal.vehicleOrgPath === null) return;
      let frame: Buffer | null = null;
      for (const { row, link } of raw)
        if (covers(row, terminal.vehicleId, terminal.vehicleOrgPath))
          link.send(String(terminal.terminalId), (frame ??= escapeFrame(packet)));
    },
    reload: () => inOrder(reload),
    async stop() {
      stopped = true;
      clearInterval(timer);
      for (const u of unsubscribe) u();
      await chain;
      for (const r of running.values()) await r.link.stop();
      running.clear();
      raw = [];
    },
  };
}
