import type { FastifyInstance } from 'fastify';
import { registerApiKeyRoutes } from './apiKeyRoutes';
import { registerAppMemberRoutes } from './appMemberRoutes';
import { registerAuditRoutes } from './auditRoutes';
import type { PassportDeps } from './deps';
import { registerImpersonationRoutes } from './impersonationRoutes';
import { registerLoginRoutes } from './loginRoutes';
import { registerMemberRoutes } from './memberRoutes';
import { registerOrgRoutes } from './orgRoutes';
import { registerPassportSheetRoutes } from './sheetRoutes';
import { registerResourceRoutes } from './resourceRoutes';
import { registerRoleRoutes } from './roleRoutes';
import { registerSecurityRoutes } from './securityRoutes';

/** Every passport route: sessions, accounts, organisations, roles, resources, impersonation, audit, API keys. */
export function registerPassport(app: FastifyInstance, deps: PassportDeps): void {
  registerLoginRoutes(app, deps);
  registerOrgRoutes(app, deps);
  registerResourceRoutes(app, deps);
  registerRoleRoutes(app, deps);
  registerMemberRoutes(app, deps);
  registerPassportSheetRoutes(app, deps);
  registerAppMemberRoutes(app, deps);
  registerImpersonationRoutes(app, deps);
  registerAuditRoutes(app, deps);
  registerSecurityRoutes(app, deps);
  registerApiKeyRoutes(app, deps);
}
