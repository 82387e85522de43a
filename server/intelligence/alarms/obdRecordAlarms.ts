/**
 * The alarms of OBD alarm records (obdAlarmIntervals), raised as soon as their batch is committed
 * instead of a derivation pass later. Each item of a record is an instant alarm with a key of its
 * own (subject `obd:<id>`), which nothing else the deriver finds merges into: what the pass will
 * find is known from the record alone, so it is stored as it will be found, and the pass keeps its
 * id and announces nothing twice. Archived (blind-area) uploads are left to the pass, as elsewhere.
 */

import type { Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { DeriveObdRecord } from '../deriver';
import { storeFoundAheadOfPass } from './aheadOfPass';
import { obdAlarmIntervals } from './detectors/obd';
import { mergeIntervals } from './merge';
import type { RaisedAlarm } from './store';
import type { AlarmType } from './types';

/** A committed OBD alarm record, with its vehicle. */
export interface ObdAlarmReport {
  vehicleId: number;
  record: DeriveObdRecord;
}

/** Stores the alarms these committed records carry; answers those it created, with the organisation path. */
export async function raiseObdRecordAlarms(
  db: Kysely<DB>,
  reports: readonly ObdAlarmReport[],
  pathOf: ReadonlyMap<number, string>,
  types?: ReadonlyMap<number, AlarmType>,
): Promise<RaisedAlarm[]> {
  const byVehicle = new Map<number, DeriveObdRecord[]>();
  for (const { vehicleId, record } of reports) {
    const list = byVehicle.get(vehicleId);
    if (list) list.push(record);
    else byVehicle.set(vehicleId, [record]);
  }
  const found = [...byVehicle].flatMap(([vehicleId, records]) => {
    const orgPath = pathOf.get(vehicleId);
    // Merged as the deriver merges them: the same item twice at one time is one alarm.
    return orgPath === undefined ? [] : [{ vehicleId, orgPath, found: mergeIntervals(obdAlarmIntervals(records, types)) }];
  });
  return storeFoundAheadOfPass(db, found);
}
