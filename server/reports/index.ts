/** The report routes over derived data: trips and track, the ledger, the dashboard and the live map, trip settings, driving behaviour and health, safety settings and the score's explanation and reviews, team monitoring, maintenance status, costs, statistics per driver. */

import type { FastifyInstance } from 'fastify';
import { registerBehaviourRoutes } from './behaviourRoutes';
import { registerDailyRoutes } from './dailyRoutes';
import { registerDriverStatsRoutes } from './driverStatsRoutes';
import { registerDashboardRoutes } from './dashboardRoutes';
import { registerHealthRoutes } from './healthRoutes';
import { registerSafetyExplainRoutes } from './safetyExplainRoutes';
import { registerSafetySettingRoutes } from './safetySettingRoutes';
import { registerLedgerRoutes } from './ledgerRoutes';
import { registerCostRoutes } from './costRoutes';
import { registerMaintenanceRoutes } from './maintenanceRoutes';
import { registerMessageRoutes } from './messageRoutes';
import { registerSettingRoutes } from './settingRoutes';
import { registerTeamRoutes } from './teamRoutes';
import { registerTripRoutes, type ReportDeps } from './tripRoutes';

export type { ReportDeps };

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
