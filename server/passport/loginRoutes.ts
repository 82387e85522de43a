import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import { passwordViolations } from '../../schemas/kit/password';
import { changePasswordBodySchema } from '../../schemas/kit/passportSchemas';
import {
  currentMemberSchema,
  loginAnswerSchema,
  loginBodySchema,
  type SessionAnswer,
  type WeakPasswordAnswer,
} from '../../schemas/kit/loginSchema';
import { translator } from '../../schemas/kit/catalogue';
import { accountRefusal, orgStatusInTree } from '../platform/auth/accountState';
import { callerOf } from '../platform/auth/authenticate';
import { NONE, PUBLIC } from '../platform/auth/caller';
import { burnPasswordCheck, verifyPassword } from '../platform/auth/password';
import { openSession } from '../platform/auth/sessions';
import { endSession } from './sessionEnds';
import { setPassword } from './setPassword';
import { AppError } from '../platform/http/errors';
import { requestLanguage } from '../platform/http/language';
import { writeAudit, auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { sessionObject } from './sessionObject';
import { passwordGuesses } from './throttle';
import { typed } from '../platform/http/typed';
import { noContent, successAnswer } from './routeKit';

/** POST /api/login, POST /api/logout, change password and the caller's own summary. */
export function registerLoginRoutes(fastify: FastifyInstance, deps: PassportDeps): void {
  const app = typed(fastify);
  const { db } = deps;
  const t = (req: FastifyRequest) => translator(requestLanguage(req));

  app.post('/api/login', {
    config: { permission: PUBLIC, labels: 'login.fields', rateLimit: { max: 60, timeWindow: '1 minute' } },
    schema: {
      tags: ['passport'],
      summary: 'Log in (SPEC §7): {success, message, object}',
      body: loginBodySchema,
      response: { 200: loginAnswerSchema },
    },
    handler: async (req): Promise<SessionAnswer | WeakPasswordAnswer> => {
      const body = req.body;
      const application = body.application ?? 'obd-web';
      const ip = req.ip;
      const guesses = passwordGuesses(db, deps.throttle, body.loginName, ip);
      await guesses.assertOpen();

      const m = await db
        .selectFrom('member as m')
        .innerJoin('organisation as o', 'o.id', 'm.org_id')
        .select(['m.id', 'm.uid', 'm.name', 'm.member_type', 'm.password_hash', 'm.status', 'm.expire_date', 'm.first_sign', 'm.org_id'])
        .select(orgStatusInTree('o').as('org_status'))
        .select((eb) =>
          eb
            .exists(
              eb
                .selectFrom('member_application as a')
                .select('a.member_id')
                .whereRef('a.member_id', '=', 'm.id')
                .where('a.application', '=', application),
            )
            .as('has_app'),
        )
        .where(sql`lower(m.login_name)`, '=', body.loginName.toLowerCase())
        .executeTakeFirst();
      const passwordOk = m ? await verifyPassword(body.password, m.password_hash) : (await burnPasswordCheck(body.password), false);
      if (!m || !passwordOk) {
        await writeAudit(db, {
          action: 'loginFailed',
          member: m ? { id: m.id, name: m.name, orgId: m.org_id } : null,
          target: body.loginName.slice(0, 64),
          success: false,
          ip,
          application,
        });
        await guesses.wrong();
        throw new AppError(400, 'error.loginFailed');
      }
      // Account state is told only to someone who knows the password.
      const refusal = accountRefusal(m);
      if (refusal) throw new AppError(400, refusal);
      if (!m.has_app) throw new AppError(400, 'passport.applicationNotAllowed');
      await guesses.right();
      const info = { application, ip, userAgent: req.headers['user-agent'] ?? null };

      if (passwordViolations(body.password).length) {
        // SPEC §4: refused with weakPassword, plus a token good only for changing the password.
        const token = await openSession(deps, m.id, { ...info, scope: 'password' });
        await writeAudit(db, {
          action: 'login',
          member: { id: m.id, name: m.name, orgId: m.org_id },
          ip,
          application,
          success: false,
          detail: 'weakPassword',
        });
        return {
          success: false,
          code: 'weakPassword',
          message: t(req)('passport.weakPassword'),
          object: { weakPassword: true, token, uid: m.uid },
        };
      }
      const token = await openSession(deps, m.id, info);
      await db
        .updateTable('member')
        .set({ sign_in_count: sql`sign_in_count + 1`, last_sign_in: new Date() })
        .where('id', '=', m.id)
        .execute();
      await writeAudit(db, { action: 'login', member: { id: m.id, name: m.name, orgId: m.org_id }, ip, application });
      return { success: true, message: t(req)('login.success'), object: await sessionObject(db, m.id, token) };
    },
  });

  app.post('/api/logout', {
    config: { permission: NONE, passwordScope: true, personOnly: true },
    schema: { tags: ['passport'], summary: 'Log out: the token is revoked', response: noContent },
    handler: async (req, reply) => {
      const caller = callerOf(req);
      await endSession(deps, caller.sessionId);
      await auditRequest(db, req, caller, 'logout');
      return reply.status(204).send(null);
    },
  });

  app.post('/api/passport/member/change-password', {
    config: { permission: NONE, passwordScope: true, personOnly: true, labels: 'passport.fields' },
    schema: {
      tags: ['passport'],
      summary: 'Change own password (also with a weak-password token); revokes every session',
      body: changePasswordBodySchema,
      response: { 200: successAnswer },
    },
    handler: async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      // The uid of SPEC's body must be the caller's own: nobody changes another's password here.
      if (body.uid !== undefined && body.uid !== caller.uid) throw new AppError(403, 'http.forbidden');
      if (body.confirmPassword !== undefined && body.confirmPassword !== body.newPassword) {
        throw new AppError(400, 'validation.confirmPassword.mismatch', {}, [
          { field: 'confirmPassword', key: 'validation.confirmPassword.mismatch', params: {} },
        ]);
      }
      // Guessing the old password here counts and locks as guessing it at sign-in does.
      const guesses = passwordGuesses(db, deps.throttle, caller.loginName, req.ip);
      await guesses.assertOpen();
      const m = await db.selectFrom('member').select('password_hash').where('id', '=', caller.memberId).executeTakeFirstOrThrow();
      if (!(await verifyPassword(body.oldPassword, m.password_hash))) {
        await auditRequest(db, req, caller, 'passwordChange', undefined, 'oldPasswordWrong', false);
        await guesses.wrong();
        throw new AppError(400, 'passport.oldPasswordWrong', {}, [{ field: 'oldPassword', key: 'passport.oldPasswordWrong', params: {} }]);
      }
      if (body.oldPassword === body.newPassword) {
        throw new AppError(400, 'passport.samePassword', {}, [{ field: 'newPassword', key: 'passport.samePassword', params: {} }]);
      }
      await guesses.right();
      await setPassword(deps, caller.memberId, body.newPassword, false);
      await auditRequest(db, req, caller, 'passwordChange');
      return { success: true, message: t(req)('passport.passwordChanged') };
    },
  });

  app.get('/api/passport/member/current', {
    config: { permission: NONE, passwordScope: true, personOnly: true },
    schema: { tags: ['passport'], summary: "The caller's member id, name and organisation type", response: { 200: currentMemberSchema } },
    handler: async (req) => {
      const c = callerOf(req);
      const m = await db.selectFrom('member').select(['first_sign']).where('id', '=', c.memberId).executeTakeFirstOrThrow();
      return {
        memberId: c.memberId,
        memberName: c.name,
        orgType: c.orgType,
        orgId: c.orgId,
        orgName: c.orgName,
        loginName: c.loginName,
        memberType: c.memberType,
        uid: c.uid,
        firstSign: m.first_sign,
        simulated: !!c.originSessionId,
      };
    },
  });
}
