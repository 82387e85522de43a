import crypto from 'node:crypto';
import { createAjv } from '../../schemas/kit/ajv';
import { toFieldErrors } from '../../schemas/kit/errors';
import type { Translate } from '../../schemas/kit/i18n';
import { loginBodySchema, type LoginBody } from '../../schemas/kit/loginSchema';
import { AppError, invalid, unauthorized } from '../../server/http/errors';
import { APPLICATIONS, type Application, type ResourceFixture } from '../../server/seed/menu';
import type { MockCaller } from './entityApi';
import { resourceTree } from './menu';
import type { OrgRow } from './store';

/** The one demo account of the mock: the platform administrator, holding every action code. */
export interface DemoAccount {
  loginName: string;
  password: string;
  name: string;
  uid: string;
  org: OrgRow;
}

interface Session {
  token: string;
  account: DemoAccount;
}

const checkLogin = createAjv().compile(loginBodySchema);
// The server's params schema of resource/authorized/{app}.
const checkApp = createAjv().compile({ type: 'object', required: ['app'], properties: { app: { type: 'string', enum: [...APPLICATIONS] } } });

/**
 * Login, logout, the caller's summary and authorised menu tree, in the shapes of the passport
 * server (server/passport/loginRoutes.ts, sessionObject.ts, resourceRoutes.ts). Tokens live in memory.
 */
export function passportApi(account: DemoAccount, menus: Record<Application, ResourceFixture[]>) {
  const sessions = new Map<string, Session>();
  const member = { id: 1, memberType: 'administrator' as const, firstSign: false };

  return {
    /** The session of a bearer token, or the 401 every protected route answers. */
    authenticate(authorization: string | undefined): { session: Session; caller: MockCaller } {
      const token = authorization?.match(/^Bearer (.+)$/i)?.[1];
      const session = token ? sessions.get(token) : undefined;
      if (!session) throw unauthorized();
      return { session, caller: { orgId: session.account.org.id, orgPath: session.account.org.path } };
    },
    login(body: unknown, t: Translate) {
      const input = { ...(body && typeof body === 'object' ? body : {}) };
      if (!checkLogin(input)) throw invalid(toFieldErrors(checkLogin.errors, 'login.fields'));
      const { loginName, password } = input as unknown as LoginBody;
      if (loginName.toLowerCase() !== account.loginName.toLowerCase() || password !== account.password) throw new AppError(400, 'error.loginFailed');
      const token = crypto.randomUUID();
      sessions.set(token, { token, account });
      const { org } = account;
      return {
        status: 200,
        body: {
          success: true,
          message: t('login.success'),
          object: {
            token,
            uid: account.uid,
            name: account.name,
            memberType: member.memberType,
            id: member.id,
            branch: org.code,
            firstSign: member.firstSign,
            memberId: member.id,
            memberName: account.name,
            orgType: org.type,
            title: null,
            logo: null,
            themeColor: null,
          },
        },
      };
    },
    logout(session: Session) {
      sessions.delete(session.token);
      return { status: 204 };
    },
    current(session: Session) {
      const { account } = session;
      return {
        status: 200,
        body: {
          memberId: member.id,
          memberName: account.name,
          orgType: account.org.type,
          orgId: account.org.id,
          orgName: account.org.name,
          loginName: account.loginName,
          memberType: member.memberType,
          uid: account.uid,
          firstSign: member.firstSign,
          simulated: false,
        },
      };
    },
    authorized(app: string) {
      if (!checkApp({ app })) throw invalid(toFieldErrors(checkApp.errors, 'common.fields'));
      return { status: 200, body: resourceTree(app as Application, menus[app as Application]) };
    },
  };
}
