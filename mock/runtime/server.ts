import { translator } from '../../schemas/kit/catalogue';
import type { EntityName } from '../../schemas/generated/registry';
import type { CrudOperation, EntitySchema } from '../../schemas/kit/entity';
import { languageFromHeader } from '../../schemas/kit/i18n';
import { AppError, errorBody } from '../../server/http/errors';
import type { DemoFixtures } from '../../server/seed/fixtures';
import { ROOT_ORG } from '../../server/seed/fixtures';
import type { Application, ResourceFixture } from '../../server/seed/menu';
import { entityApi, type EntityOp } from './entityApi';
import { passportApi } from './passportApi';
import { MockStore } from './store';
import { header, type MockAnswer, type MockCall, type MockHandler } from './types';
import { toUmi, type MockRoutes, type UmiHandler } from './umi';

export interface MockServerOptions {
  entities: Record<EntityName, EntitySchema>;
  fixtures: DemoFixtures;
  menus: Record<Application, ResourceFixture[]>;
  /** Password of the demo `admin` (default DEMO_PASSWORD). */
  adminPassword?: string;
}

/** The mock's demo login is admin / this, unless MOCK_ADMIN_PASSWORD says otherwise (README). */
export const DEMO_PASSWORD = 'Fleet2026x';

export interface MockServer {
  /** POST /api/login, POST /api/logout, GET /api/passport/member/current, GET …/resource/authorized/:app. */
  passportRoutes: MockRoutes;
  /** The handler of one entity operation; the generated mock file binds it to the schema's paths. */
  entity(name: EntityName, op: CrudOperation): UmiHandler;
  /** To list last: any other /api call answers 404 as the server does (nothing is proxied). */
  fallbackRoutes: MockRoutes;
}

/** Runs a handler with the server's error answers: AppError → its status and localised body, else 500. */
function answering(fn: (call: MockCall) => MockAnswer): MockHandler {
  return (call) => {
    const t = translator(languageFromHeader(header(call, 'accept-language')));
    try {
      return fn(call);
    } catch (e) {
      if (e instanceof AppError) return { status: e.status, body: errorBody(e, t) };
      console.error('mock handler failed', e);
      return { status: 500, body: { success: false, code: 'http.serverError', message: t('http.serverError') } };
    }
  };
}

/** The in-memory API the Umi mock serves: demo fixtures in, the server's routes and rules out. */
export function createMockServer(opts: MockServerOptions): MockServer {
  const store = MockStore.fromFixtures(opts.entities, opts.fixtures);
  const root = store.orgs.find((o) => o.code === ROOT_ORG)!;
  const passport = passportApi({ loginName: 'admin', password: opts.adminPassword ?? DEMO_PASSWORD, name: '系统管理员', uid: 'mock-admin', org: root }, opts.menus);
  const apis = new Map<string, Record<CrudOperation, EntityOp>>();
  const apiOf = (name: EntityName) => {
    if (!apis.has(name)) apis.set(name, entityApi(name, opts.entities[name], opts.entities, store));
    return apis.get(name)!;
  };
  const signedIn = (fn: (call: MockCall, auth: ReturnType<typeof passport.authenticate>) => MockAnswer) =>
    toUmi(answering((call) => fn(call, passport.authenticate(header(call, 'authorization')))));
  const t = (call: MockCall) => translator(languageFromHeader(header(call, 'accept-language')));
  const notFound = toUmi(answering(() => {
    throw new AppError(404, 'error.routeNotFound');
  }));

  return {
    passportRoutes: {
      'POST /api/login': toUmi(answering((call) => passport.login(call.body, t(call)))),
      'POST /api/logout': signedIn((_, { session }) => passport.logout(session)),
      'GET /api/passport/member/current': signedIn((_, { session }) => passport.current(session)),
      'GET /api/passport/resource/authorized/:app': signedIn((call) => passport.authorized(call.params.app)),
    },
    entity: (name, op) => signedIn((call, { caller }) => apiOf(name)[op](caller, call)),
    fallbackRoutes: Object.fromEntries(['GET', 'POST', 'PUT', 'DELETE', 'PATCH'].map((m) => [`${m} /api/(.*)`, notFound])),
  };
}
