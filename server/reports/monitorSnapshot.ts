/**
 * The live map's list (monitor/query) and the vehicle counts (index/vehicleCount) answered from
 * memory: the latest state of every vehicle, each field kept as its JSON text, brought up to date
 * before every answer by one cheap statement reading only what changed (monitorSync.ts). So an
 * answer costs a scan-and-filter in the database plus joining pre-serialised text, instead of the
 * database building ten thousand rows into JSON each time; and it is never staler than the
 * database when the request arrived, in any process (no event to miss, no cache to expire).
 *
 * Scope is filtered by organisation id against the caller's subtree (the same rule as
 * platform/scope.ts, on the organisations' paths held here).
 */

import type { VehicleCounts } from '../../schemas/kit/dashboard';
import type { Kysely } from 'kysely';
import type { Caller } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { pathInSubtree } from '../platform/scope';
import { MIN_MOVING_KMH } from '../intelligence/trips/segment';
import { MONITOR_FIELDS, type MonitorCriteria } from '../../schemas/kit/monitor';
import {
  asOfText,
  parseAsOf,
  readChanges,
  type Changes,
  type LinkTuple,
  type OrgTuple,
  type Snapshot,
  type StateTuple,
  type VehicleTuple,
} from './monitorSync';

/** A reload rather than a delta once the previous look is this many transactions old (xid wraparound is 2^31). */
const MAX_AGE = 2 ** 30;
/** Answers kept for asking again while nothing changed (a few maps of different scopes). */
const MAX_BUILT = 16;

export type MonitorFormat = 'items' | 'columns';

/** The criteria with `since`, an earlier answer's `asOf`: only the vehicles changed after it (see `answer`). */
export type MonitorQuery = MonitorCriteria;

interface Vehicle {
  id: number;
  licence: string;
  /** Licence and VIN lower-cased, for the keyword. */
  licenceLower: string;
  vinLower: string;
  orgId: number;
  terminalId: number | null;
  serviceEnd: string | null;
  /** Its place in `order` (and in the columns). */
  at: number;
  online: boolean;
  moving: boolean;
  /** Has a current alarm (alarms/current.ts): the live map's 报警 and the dashboard's 告警中. */
  alarming: boolean;
  /** The `since` of the look before the one that saw `alarming` change: answers since then list it. */
  alarmingXid: number;
}

type State = StateTuple;
const S = { lat: 1, lon: 2, speed: 3, dir: 4, acc: 5, alarm: 6, fuel: 7, mileage: 8, time: 9, received: 10, xid: 11 } as const;

const NULL_STATE = ['null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', 'null', 'null'];

const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

export class MonitorSnapshot {
  private snapshot: Snapshot | null = null;
  private readonly vehicles = new Map<number, Vehicle>();
  private readonly orgs = new Map<number, { name: string; path: string; xid: number }>();
  private readonly states = new Map<number, State>();
  private readonly links = new Map<number, { online: boolean; xid: number }>();
  /** Vehicles by licence then id, and aligned with it: each field's JSON text (columns) and each whole item's. */
  private order: Vehicle[] = [];
  private columns: string[][] = MONITOR_FIELDS.map(() => []);
  private items: string[] = [];
  /** Bumped by every change seen: an answer built at the same version is still exact. */
  private version = 0;
  private readonly built = new Map<string, { version: number; body: string }>();
  /** The newest writer of any vehicle or organisation row: a `since` before it gets the whole list. */
  private structureXid = 0;
  /** xmax of the last full read's snapshot (rows may have gone before it, unnoticed): a `since` before it gets the whole list. */
  private reloadXmax = 0;
  private current: Promise<void> | null = null;
  private next: Promise<void> | null = null;

  constructor(private readonly db: Kysely<DB>) {}

  /**
   * Up to date with every commit before this call: shares a read already queued, never one that
   * started earlier (it could have missed a commit made just before this call).
   */
  fresh(): Promise<void> {
    if (this.next) return this.next;
    const start = (): Promise<void> => {
      this.next = null;
      const p = this.sync().finally(() => {
        if (this.current === p) this.current = null;
      });
      this.current = p;
      return p;
    };
    if (!this.current) return start();
    this.next = this.current.catch(() => undefined).then(start);
    return this.next;
  }

  private async sync(): Promise<void> {
    let changes = await readChanges(this.db, this.snapshot);
    // age() is 32-bit: a look older than 2^31 transactions would read as new (negative).
    if (changes.age !== null && (changes.age < 0 || changes.age > MAX_AGE)) changes = await readChanges(this.db, null);
    try {
      if (!this.apply(changes)) this.apply(await readChanges(this.db, null));
    } catch (err) {
      this.snapshot = null; // half applied: read everything next time
      throw err;
    }
  }

  /** False when a row was deleted (the counts disagree): the caller reads everything again. */
  private apply(c: Changes): boolean {
    const full = c.age === null;
    if (full) {
      this.vehicles.clear();
      this.orgs.clear();
      this.states.clear();
      this.links.clear();
      this.structureXid = 0;
      this.reloadXmax = c.snapshot.xmax;
    }
    for (const [id, name, path, xid] of c.orgs.rows as OrgTuple[]) {
      this.orgs.set(id, { name, path, xid });
      this.structureXid = Math.max(this.structureXid, xid);
    }
    const touched = new Set<number>();
    for (const t of c.vehicles.rows as VehicleTuple[]) {
      const [id, licence, vin, orgId, terminalId, serviceEnd, xid] = t;
      this.vehicles.set(id, {
        id,
        licence,
        licenceLower: licence.toLowerCase(),
        vinLower: (vin ?? '').toLowerCase(),
        orgId,
        terminalId,
        serviceEnd,
        at: -1,
        online: false,
        moving: false,
        alarming: false,
        alarmingXid: 0,
      });
      this.structureXid = Math.max(this.structureXid, xid);
      touched.add(id);
    }
    for (const s of c.states.rows) {
      this.states.set(s[0], s);
      touched.add(s[0]);
    }
    const terminals = new Set<number>();
    for (const [terminalId, online, xid] of c.links.rows as LinkTuple[]) {
      this.links.set(terminalId, { online, xid });
      terminals.add(terminalId);
    }
    if (
      this.vehicles.size !== c.vehicles.count ||
      this.orgs.size !== c.orgs.count ||
      this.states.size !== c.states.count ||
      this.links.size !== c.links.count
    ) {
      if (full) throw new Error('monitor snapshot: counts differ on a full read');
      this.snapshot = null;
      return false;
    }
    // Being alarming is read whole each look: a vehicle that changed is re-rendered and listed to
    // every `since` before this look (the previous look's `since` is at or after each of them).
    const alarming = new Set(c.alarming);
    const seenAt = full ? 0 : (this.snapshot?.since ?? 0);
    for (const v of this.vehicles.values()) {
      const now = alarming.has(v.id);
      if (now === v.alarming) continue;
      v.alarming = now;
      v.alarmingXid = seenAt;
      touched.add(v.id);
    }
    // A full read of no vehicle lists no order: none.
    const order = c.order ?? (full ? [] : null);
    if (order) {
      this.order = order.map((id, at) => Object.assign(this.vehicles.get(id)!, { at }));
      this.columns = MONITOR_FIELDS.map(() => new Array<string>(this.order.length));
      this.items = new Array<string>(this.order.length);
    }
    // A new order or an organisation renamed or moved re-renders every vehicle; a session change its terminal's vehicle.
    const all = !!order || c.orgs.rows.length > 0;
    let rendered = 0;
    for (const v of this.order) {
      if (all || touched.has(v.id) || (v.terminalId !== null && terminals.has(v.terminalId))) {
        this.render(v);
        rendered++;
      }
    }
    if (full || rendered || c.links.rows.length || c.orgs.rows.length) this.version++;
    this.snapshot = c.snapshot;
    return true;
  }

  private render(v: Vehicle): void {
    const s = this.states.get(v.id);
    v.online = v.terminalId !== null && (this.links.get(v.terminalId)?.online ?? false);
    v.moving = !!s && v.online && s[S.acc] && s[S.speed] >= MIN_MOVING_KMH;
    const state = s ? s.slice(S.lat, S.xid).map((x) => JSON.stringify(x)) : NULL_STATE;
    const fields = [
      String(v.id),
      JSON.stringify(v.licence),
      String(v.orgId),
      JSON.stringify(this.orgs.get(v.orgId)?.name ?? null),
      String(v.online),
      String(v.moving),
      ...state,
      String(v.alarming),
    ];
    for (let i = 0; i < fields.length; i++) this.columns[i][v.at] = fields[i];
    this.items[v.at] = '{' + MONITOR_FIELDS.map((f, i) => `"${f}":${fields[i]}`).join(',') + '}';
  }

  /** The organisation ids of a subtree given by its root's path ('' matches nothing). */
  private subtree(path: string | undefined): Set<number> {
    const ids = new Set<number>();
    if (!path) return ids;
    for (const [id, o] of this.orgs) if (pathInSubtree(path, o.path)) ids.add(id);
    return ids;
  }

  /** The vehicles of the caller's subtree, narrowed to an organisation's subtree when given. */
  private inScope(caller: Caller, orgId: number | null | undefined): (v: Vehicle) => boolean {
    const mine = this.subtree(caller.orgPath);
    const narrowed = orgId ? this.subtree(this.orgs.get(orgId)?.path) : null;
    return (v) => mine.has(v.orgId) && (!narrowed || narrowed.has(v.orgId));
  }

  /**
   * monitor/query's answer as JSON text: `{data|columns, total, asOf}` in licence order. With
   * `since` (an earlier `asOf`): only the vehicles whose state or session changed after it (and any
   * written while that snapshot was taken), with `removed` the changed ones in scope that no longer
   * match the criteria; when a vehicle or organisation was added, edited or deleted after it, or
   * `since` is not an `asOf`, the whole list with `full: true`.
   */
  async answer(caller: Caller, q: MonitorQuery, format: MonitorFormat): Promise<string> {
    await this.fresh();
    const asOf = JSON.stringify(asOfText(this.snapshot!));
    // The same question at the same version has the same list (only asOf moves on).
    const key = q.since
      ? null
      : JSON.stringify([caller.orgPath, q.orgId ?? null, q.keyword ?? null, q.online ?? null, q.moving ?? null, format]);
    const cached = key === null ? undefined : this.built.get(key);
    if (cached?.version === this.version) return `${cached.body},"asOf":${asOf}}`;
    const scope = this.inScope(caller, q.orgId);
    const keyword = q.keyword ? q.keyword.toLowerCase() : null;
    // Rows written before `since` were all seen by that answer (monitorSync.ts).
    const since = q.since ? parseAsOf(q.since) : null;
    const partial = since !== null && since >= this.reloadXmax && this.structureXid < since;
    const changed = (v: Vehicle) => {
      const s = this.states.get(v.id);
      const l = v.terminalId !== null ? this.links.get(v.terminalId) : undefined;
      return (!!s && s[S.xid] >= since!) || (!!l && l.xid >= since!) || v.alarmingXid >= since!;
    };
    const picked: number[] = [];
    const removed: number[] = [];
    for (const v of this.order) {
      if (!scope(v)) continue;
      if (partial && !changed(v)) continue;
      const matches =
        (!keyword || v.licenceLower.includes(keyword) || v.vinLower.includes(keyword)) &&
        (typeof q.online !== 'boolean' || v.online === q.online) &&
        (typeof q.moving !== 'boolean' || v.moving === q.moving);
      if (matches) picked.push(v.at);
      else if (partial) removed.push(v.id);
    }
    const every = picked.length === this.order.length;
    const join = (texts: string[]) => {
      if (every) return texts.join(',');
      const parts = new Array<string>(picked.length);
      for (let k = 0; k < picked.length; k++) parts[k] = texts[picked[k]];
      return parts.join(',');
    };
    const list =
      format === 'items'
        ? `"data":[${join(this.items)}]`
        : `"columns":{${MONITOR_FIELDS.map((f, i) => `"${f}":[${join(this.columns[i])}]`).join(',')}}`;
    const body = `{${list},"total":${picked.length}${q.since ? `,"full":${!partial},"removed":${JSON.stringify(removed)}` : ''}`;
    if (key !== null) {
      if (this.built.size >= MAX_BUILT && !this.built.has(key)) this.built.delete(this.built.keys().next().value!);
      this.built.set(key, { version: this.version, body });
    }
    return `${body},"asOf":${asOf}}`;
  }

  /** index/vehicleCount's figures for the caller's scope (narrowed to `orgId`), services ending by `day` + `warningDays`. */
  async counts(caller: Caller, orgId: number | null, day: string, warningDays: number): Promise<VehicleCounts> {
    await this.fresh();
    const scope = this.inScope(caller, orgId);
    const by = addDays(day, warningDays);
    const n = { total: 0, online: 0, offline: 0, moving: 0, parked: 0, alarming: 0, serviceExpiring: 0 };
    for (const v of this.vehicles.values()) {
      if (!scope(v)) continue;
      n.total++;
      if (v.online) n[v.moving ? 'moving' : 'parked']++;
      if (v.online) n.online++;
      else n.offline++;
      if (v.alarming) n.alarming++;
      if (v.serviceEnd !== null && v.serviceEnd <= by) n.serviceExpiring++;
    }
    return n;
  }
}
