/**
 * The alarm centre's routes (alarms; fences, districts, notifications and policy re-derivation).
 * The alarms themselves come from the derivation engine (server/intelligence/alarms/deriver.ts).
 */

import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { EntityModel } from '../platform/crud/model';
import type { DB } from '../platform/db/tables';
import { registerDistrictRoutes } from './districtRoutes';
import { registerFenceLinkRoutes } from './fenceLinkRoutes';
import { installPolicyParamsCheck } from './policyParamsCheck';
import { registerAlarmRoutes } from './routes';
import { registerNotifyRoutes } from '../notify/routes';
import { registerRederiveRoute } from './rederiveRoute';
import { alarmSheet } from './exportRoute';
import { toQuery } from './query';
import type { AlarmType } from '../intelligence/alarms/types';

export interface AlarmFeatureDeps {
  db: Kysely<DB>;
  /** The fence entity (for scoping and its options). */
  fences: EntityModel;
  /** Local days (FLEET_TIMEZONE), for a policy's re-derivation from a day. */
  timeZone: string;
  /** OBD alarm item ids mapped to alarm types, as the derivation has them. */
  obdAlarmTypes?: ReadonlyMap<number, AlarmType>;
}

export function registerAlarmFeature(app: FastifyInstance, deps: AlarmFeatureDeps): void {
  registerAlarmRoutes(app, deps.db);
  installPolicyParamsCheck(app, deps.db);
  registerFenceLinkRoutes(app, deps.db);
  registerDistrictRoutes(app, deps.db, deps.fences);
  registerNotifyRoutes(app, deps.db);
  registerRederiveRoute(app, deps);
}

/** The alarm list's xlsx of a list body, as its export writes it (a scheduled report attaches it). */
export const alarmListSheet = (db: Kysely<DB>) => alarmSheet(db, (b) => toQuery(b));
