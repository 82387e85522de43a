/** The report routes over derived data: trips and track, the ledger, the dashboard and the live map, trip settings, driving behaviour and health, safety settings and the score's explanation and reviews, team monitoring, maintenance status, costs, statistics per driver. */

import type { FastifyInstance } from 'fastify';
import { registerBehaviourRoutes, safetySheet } from './behaviourRoutes';
import { dailySheet, registerDailyRoutes } from './dailyRoutes';
import { driverStatsSheet, registerDriverStatsRoutes } from './driverStatsRoutes';
import { registerDashboardRoutes } from './dashboardRoutes';
import { healthSheet, registerHealthRoutes } from './healthRoutes';
import { sheetMaker } from './reportSheet';
import { registerSafetyExplainRoutes } from './safetyExplainRoutes';
import { registerSafetySettingRoutes } from './safetySettingRoutes';
import { fuelSheet, registerLedgerRoutes } from './ledgerRoutes';
import { costSheet, registerCostRoutes } from './costRoutes';
import { maintenanceSheet, registerMaintenanceRoutes } from './maintenanceRoutes';
import { registerMessageRoutes } from './messageRoutes';
import { registerSettingRoutes } from './settingRoutes';
import { registerTeamRoutes } from './teamRoutes';
import { registerTripRoutes, type ReportDeps } from './tripRoutes';

export type { ReportDeps };
export type { SheetContext, SheetMaker } from './reportSheet';

export function registerReports(app: FastifyInstance, deps: ReportDeps): void {
  registerTripRoutes(app, deps);
  registerLedgerRoutes(app, deps);
  registerDailyRoutes(app, deps);
  registerDashboardRoutes(app, deps);
  registerSettingRoutes(app, deps);
  registerBehaviourRoutes(app, deps);
  registerHealthRoutes(app, deps);
  registerSafetySettingRoutes(app, deps);
  registerSafetyExplainRoutes(app, deps);
  registerMessageRoutes(app, deps);
  registerTeamRoutes(app, deps);
  registerMaintenanceRoutes(app, deps);
  registerCostRoutes(app, deps);
  registerDriverStatsRoutes(app, deps);
}

/** The report sheets a scheduled report may attach, by report: the exports' own makers. */
export const reportSheetMakers = (deps: ReportDeps) => ({
  daily: dailySheet(deps),
  safety: sheetMaker(safetySheet(deps)),
  health: sheetMaker(healthSheet(deps)),
  fuel: sheetMaker(fuelSheet(deps)),
  cost: sheetMaker(costSheet(deps)),
  maintenance: sheetMaker(maintenanceSheet(deps)),
  driver: sheetMaker(driverStatsSheet(deps)),
});
