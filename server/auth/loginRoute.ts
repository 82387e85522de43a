import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { translator } from '../../schemas/kit/catalogue';
import type { DB } from '../db/tables';
import { AppError } from '../http/errors';
import { requestLanguage } from '../http/language';
import { loginBodySchema, type LoginBody } from '../../schemas/kit/loginSchema';
import { PUBLIC } from './caller';
import { burnPasswordCheck, verifyPassword } from './password';
import { openSession, type SessionDeps } from './sessions';

/** POST /api/login: SPEC.md's request and `{success, message, object}` response. */
export function registerLogin(app: FastifyInstance, deps: SessionDeps & { db: Kysely<DB> }): void {
  app.post('/api/login', {
    // Attempts per address are limited; per-account lockout comes with the passport issue.
    config: { permission: PUBLIC, labels: 'login.fields', rateLimit: { max: 30, timeWindow: '1 minute' } },
    schema: { tags: ['passport'], summary: 'Log in', body: loginBodySchema },
    handler: async (req) => {
      const body = req.body as LoginBody;
      const m = await deps.db
        .selectFrom('member as m')
        .innerJoin('organisation as o', 'o.id', 'm.org_id')
        .select(['m.id', 'm.uid', 'm.name', 'm.member_type', 'm.password_hash', 'm.status', 'm.expire_date', 'm.first_sign', 'o.code as branch', 'o.status as org_status'])
        .where(sql`lower(m.login_name)`, '=', body.loginName.toLowerCase())
        .executeTakeFirst();
      if (!m) {
        await burnPasswordCheck(body.password);
        throw new AppError(400, 'error.loginFailed');
      }
      if (!(await verifyPassword(body.password, m.password_hash))) throw new AppError(400, 'error.loginFailed');
      // Account state is told only to someone who knows the password.
      if (m.status !== 'enabled') throw new AppError(400, 'error.accountDisabled');
      if (m.org_status !== 'enabled') throw new AppError(400, 'error.orgDisabled');
      if (m.expire_date && m.expire_date < new Date().toISOString().slice(0, 10)) throw new AppError(400, 'error.accountExpired');
      const token = await openSession(deps, m.id, {
        application: body.application,
        ip: req.ip ?? body.ip ?? null,
        userAgent: req.headers['user-agent'] ?? null,
      });
      await deps.db
        .updateTable('member')
        .set({ sign_in_count: sql`sign_in_count + 1`, last_sign_in: new Date() })
        .where('id', '=', m.id)
        .execute();
      return {
        success: true,
        message: translator(requestLanguage(req))('login.success'),
        object: { token, uid: m.uid, name: m.name, memberType: m.member_type, id: m.id, branch: m.branch, firstSign: m.first_sign },
      };
    },
  });
}
