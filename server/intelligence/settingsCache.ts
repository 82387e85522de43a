/**
 * What the derivers look up besides the window, held between passes: alarm policies, fences, safety
 * settings, prices and the expert fault library are read on every pass for every window but edited
 * rarely. A pipeline keeps
 * one SettingsCache (per process); each pass first reads the tables' versions
 * (`derive_setting_version`, counted up by a trigger on every statement that changes one of them,
 * whoever runs it: a route, a seed, SQL by hand, another process) and drops everything held when
 * they moved. So a value is never served after its edit committed before the pass began; an edit
 * committing during a pass is the next pass's, as it was when each pass read the tables itself.
 */

import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../platform/db/tables';
import type { HeldWrite } from '../platform/db/replaceRows';
import type { VehicleContext } from './samples';
import { policiesFor, type PolicySet } from './alarms/policies';
import { fencesFor } from './alarms/fenceRules';
import type { FenceRule } from './alarms/detectors/fences';
import { safetySettingsFor, type SafetySettings } from './behaviour/settings';
import { vehiclePrices, type VehiclePrices } from './ledger/prices';
import { expertFaultFor } from './alarms/dtcReports';
import type { ExpertFaultMatch, ParsedDtc } from './alarms/detectors/obd';

/** Settings a deriver reads per window; answers are shared, never to be changed by the caller. */
export interface DeriveLookups {
  /** The alarm policies in force for the organisation at `orgPath`. */
  policies(orgPath: string): Promise<PolicySet>;
  /** The open fences that apply to the vehicle. */
  fences(vehicleId: number, orgPath: string): Promise<readonly FenceRule[]>;
  /** The safety settings (behaviour thresholds, score weights) in force for the organisation. */
  safety(orgPath: string): Promise<SafetySettings>;
  /** The ledger's prices for the vehicle's fuel type, organisation and region. */
  prices(vehicle: VehicleContext): Promise<VehiclePrices>;
  /** The expert fault library's entry for a trouble code. */
  expertFault(code: ParsedDtc): Promise<ExpertFaultMatch | null>;
}

/** What the pipeline hands each deriver besides the windows: the pass's lookups, and what to do once it commits. */
export interface DerivePass {
  lookups: DeriveLookups;
  /**
   * Runs `announce` once the pass's transaction has committed (never if it rolls back): what a pass
   * tells others about (new alarms) must be readable by them, and must not be told twice by a retry.
   */
  afterCommit(announce: () => void): void;
  /** The pass's vehicles (organisation paths, settings), as the pipeline read them for the windows. */
  vehicles?: ReadonlyMap<number, VehicleContext>;
  /** The version of the alarms' settings the pass judges by (a pipeline's pass: SettingsCache.alarmSettings). */
  alarmSettings?: string;
  /** Takes a write to send with the pass's last statement (a pipeline's pass): only one whose tables no later deriver reads. */
  hold?: (write: HeldWrite) => void;
}

/** Entries beyond this (fences are per vehicle) are dropped all at once: the next passes read them again. */
const MAX_ENTRIES = 50_000;

class Memo {
  private readonly policies = new Map<string, Promise<PolicySet>>();
  private readonly fences = new Map<string, Promise<readonly FenceRule[]>>();
  private readonly safety = new Map<string, Promise<SafetySettings>>();
  private readonly prices = new Map<string, Promise<VehiclePrices>>();
  private readonly experts = new Map<string, Promise<ExpertFaultMatch | null>>();

  get size(): number {
    return this.policies.size + this.fences.size + this.safety.size + this.prices.size + this.experts.size;
  }

  /** Lookups reading through `db` on a miss (the pass's transaction). */
  over(db: Kysely<DB>): DeriveLookups {
    return {
      policies: (orgPath) => this.get(this.policies, orgPath, () => policiesFor(db, orgPath)),
      fences: (vehicleId, orgPath) => this.get(this.fences, `${vehicleId}|${orgPath}`, () => fencesFor(db, vehicleId, orgPath)),
      safety: (orgPath) => this.get(this.safety, orgPath, () => safetySettingsFor(db, orgPath)),
      prices: (v) => this.get(this.prices, `${v.fuelTypeId}|${v.orgPath}|${v.settings.region}`, () => vehiclePrices(db, v)),
      expertFault: (d) => this.get(this.experts, d.kind === 'j1939' ? `${d.spn}/${d.fmi}` : d.code, () => expertFaultFor(db, d)),
    };
  }

  private get<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    let p = map.get(key);
    if (!p) {
      p = load();
      map.set(key, p);
      // A failed read (a rolled-back pass) is not an answer to keep.
      p.catch(() => map.get(key) === p && map.delete(key));
    }
    return p;
  }
}

/** Lookups for one call outside a pipeline (a test, a deriver called alone): each setting read once in it. */
export const lookupsOnce = (db: Kysely<DB>): DeriveLookups => new Memo().over(db);

/** The lookups of a pass when the pipeline gave them, else read once for this call. */
export const lookupsOf = (db: Kysely<DB>, pass: DerivePass | undefined): DeriveLookups => pass?.lookups ?? lookupsOnce(db);

/**
 * The snapshot whose reports were judged by the alarms' settings before their last change, for a
 * pass judging by `alarmSettings` (`d`: the vehicle's derive_state row): its marks snapshot when
 * they changed since its last pass, else the one kept (judged_from). One rule for the pass that
 * keeps it (pipeline.ts) and the one that reads it (alarms/newlyDecided.ts).
 */
export const judgedFromSql = (alarmSettings: string | undefined): RawBuilder<string | null> =>
  sql<string | null>`CASE WHEN d.alarm_settings <> ${alarmSettings ?? null}::text THEN d.marks_snapshot ELSE d.judged_from END`;

/** The tables whose edits change which alarms the reports make: policies, fences and their links, organisations' paths. */
const ALARM_SETTINGS = ['policy', 'fence', 'vehicle_fence', 'organisation'];

/**
 * The versions of the tables the lookups read, as one value that grows with every change (`v`); and
 * those of the alarms' settings alone (`a`): columns a pass's first statement reads beside its own.
 */
export const settingVersionColumns = sql`(SELECT sum(version)::text FROM derive_setting_version) AS v,
  (SELECT sum(version)::text FROM derive_setting_version WHERE table_name = ANY(${ALARM_SETTINGS}::text[])) AS a`;

/** The versions as read (null: no table changed yet). */
export interface SettingVersions {
  v: string | null;
  a: string | null;
}

async function versionOf(db: Kysely<DB>): Promise<SettingVersions> {
  return (await sql<SettingVersions>`SELECT ${settingVersionColumns}`.execute(db)).rows[0];
}

export class SettingsCache {
  private version: string | null = null;
  private memo = new Memo();
  /** Passes that found the versions moved (tests and the bench read it). */
  invalidations = 0;

  /** The alarms' settings as the last pass read them (`derive_state.alarm_settings`: newlyDecided.ts). */
  alarmSettings = '0';

  /**
   * At the start of a pass, in its transaction: the lookups, emptied first if a table changed since
   * the last pass. `read`: the versions as the pass's first statement read them (else read here).
   */
  async forPass(db: Kysely<DB>, read?: SettingVersions): Promise<DeriveLookups> {
    const versions = read ?? (await versionOf(db));
    const version = versions.v ?? '0';
    this.alarmSettings = versions.a ?? '0';
    if (version !== this.version || this.memo.size > MAX_ENTRIES) {
      if (this.version !== null) this.invalidations++;
      this.memo = new Memo();
      this.version = version;
    }
    return this.memo.over(db);
  }
}
