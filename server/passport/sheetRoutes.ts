import { pathUnder } from '../platform/scope';
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { handWrittenEntities } from '../../schemas/generated/registry';
import { translator } from '../../schemas/kit/catalogue';
import { permissionOf, type EntitySchema, type SheetOperation } from '../../schemas/kit/entity';
import type { Translate } from '../../schemas/kit/i18n';
import { requestApplication } from '../platform/auth/application';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { hashPassword } from '../platform/auth/password';
import type { ExportBody } from '../platform/crud/keyset';
import { buildModel, type EntityModel } from '../platform/crud/model';
import { parseRoute } from '../platform/crud/routeSpec';
import { checkedWithProgress, exportBodySchema, gatedImport, sendExport, sheetReport, XLSX_UPLOAD } from '../platform/crud/sheetRoutes';
import type { StoreProgress } from '../platform/crud/sheet/store';
import type { Progress } from '../platform/progress/board';
import { progressHeaders, trackRequest } from '../platform/progress/track';
import { templateColumns } from '../platform/crud/sheet/choices';
import { importColumns, readOnlyColumns, type SheetColumn } from '../platform/crud/sheet/columns';
import { readSheet, type SheetRows } from '../platform/crud/sheet/read';
import { requestTimeZone } from '../platform/crud/sheet/timeZone';
import { checkCreateRows, type CheckedRows, type RowErrors } from '../platform/crud/sheet/validate';
import { attachment, templateBuffer, XLSX_TYPE } from '../platform/crud/sheet/workbook';
import type { DB } from '../platform/db/tables';
import { sheetDoneSchema, sheetReportSchema } from '../../schemas/kit/sheetReport';
import { AppError } from '../platform/http/errors';
import { requestTranslator } from '../platform/labelOverrides';
import { readUpload } from '../platform/http/upload';
import { auditRequest } from '../platform/audit';
import type { PassportDeps } from './deps';
import { checkRolesToAdd } from './memberChecks';

/**
 * Spreadsheet export and import of organisations and accounts (SPEC §9), on the CRUD's sheet
 * machinery with the passport's own rules: everything inside the caller's subtree (a parent or an
 * organisation named in a row must be visible to the caller), an account's roles may grant nothing
 * the importer lacks, only administrators import administrators, and an imported account gets a
 * generated password it must change at its first sign-in (passwords are never in a sheet).
 */

type Body = Record<string, unknown>;

/** The schema narrowed to the stored columns a sheet carries (the standard ones stay). */
function narrowed(schema: EntitySchema, keep: string[], required: string[], orgScoped = schema['x-entity'].orgScoped): EntitySchema {
  const standard = ['id', 'createdAt', 'updatedAt'];
  const properties = Object.fromEntries(Object.entries(schema.properties).filter(([n]) => keep.includes(n) || standard.includes(n)));
  return { ...schema, required, properties, 'x-entity': { ...schema['x-entity'], orgScoped } };
}

const ORG_SHEET = ['name', 'code', 'parentId', 'parentName', 'type', 'status', 'contact', 'phone', 'address'];
const MEMBER_SHEET = ['loginName', 'name', 'mobile', 'memberType', 'orgId', 'orgName', 'expireDate', 'status'];

/** One per-row error in the caller's language. */
const rowError = (t: Translate, field: string, key: string, params: Record<string, unknown> = {}, labelKey?: string) => ({
  field,
  key,
  message: t(key, { ...params, ...(labelKey ? { field: t(labelKey) } : {}) }),
});

function addError(c: CheckedRows, row: number, e: RowErrors['errors'][number]): void {
  const hit = c.errors.find((r) => r.row === row);
  if (hit) hit.errors.push(e);
  else c.errors.push({ row, errors: [e] });
  c.errors.sort((a, b) => a.row - b.row);
}

/** The roles column of an account sheet: role names, separated by commas or 、. */
const ROLES_HEADERS = (field: string) =>
  ['roleNames', ...(['zh-CN', 'en-US', 'es-ES', 'ja-JP'] as const).map((l) => translator(l)(field))].map((h) => h.toLowerCase());
const splitNames = (v: unknown) =>
  String(v ?? '')
    .split(/[,，、;；]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** Before a stored row: its count so far, and the cancel obeyed every 50 rows. */
function storeStep(progress: StoreProgress, i: number): void {
  if (i % 50) return;
  progress.check();
  progress.done(i);
}

export function registerPassportSheetRoutes(app: FastifyInstance, deps: PassportDeps): void {
  const { db } = deps;
  const { organisation, member } = handWrittenEntities;
  const orgModel = buildModel(narrowed(organisation, ORG_SHEET, ['code', 'name', 'parentId']), {});
  const memberExport = buildModel(narrowed(member, MEMBER_SHEET, []), {});
  // Imported accounts name their organisation (resolved inside the caller's subtree), so orgId is an ordinary relation here.
  // The roles column (names) is read beside the schema's columns; roleNames is read-only, so the create schema tolerates it.
  const memberImport = buildModel(narrowed(member, [...MEMBER_SHEET, 'roleNames'], ['loginName', 'name', 'memberType'], false), {});
  // The caller's language with the published label overrides, as every other localised answer.
  const t = (req: FastifyRequest) => requestTranslator(req);

  function routes(
    schema: EntitySchema,
    op: SheetOperation,
    routeSchema: Record<string, unknown>,
    handler: (req: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): void {
    const x = schema['x-entity'];
    for (const r of x.routes[op] ?? []) {
      const [method, url] = parseRoute(r);
      app.route({
        method: method as HTTPMethods,
        url,
        config: { permission: permissionOf(x, op), labels: `entity.${x.name}.fields` },
        schema: { tags: [x.name], summary: `${op} ${x.name}`, ...routeSchema },
        handler,
      });
    }
  }

  /**
   * As the account list reads `criteria.orgId` (that organisation and its subtree, SPEC §7), the
   * export narrows the caller's scope to that subtree; one outside the caller's exports nothing.
   */
  async function subtreeScope(caller: Caller, body: ExportBody): Promise<{ caller: Caller; body: ExportBody }> {
    const orgId = body.criteria?.orgId;
    if (typeof orgId !== 'number') return { caller, body };
    const { orgId: _orgId, ...criteria } = body.criteria!;
    const org = await db.selectFrom('organisation').select('path').where('id', '=', orgId).executeTakeFirst();
    const inside = org && org.path.startsWith(caller.orgPath);
    return { caller: { ...caller, orgPath: inside ? org.path : '/none/' }, body: { ...body, criteria } };
  }

  function exportRoute(schema: EntitySchema, m: EntityModel): void {
    routes(schema, 'export', { body: exportBodySchema(m), headers: progressHeaders }, async (req, reply) => {
      const scoped = await subtreeScope(callerOf(req), (req.body ?? {}) as ExportBody);
      return sendExport(db, req, reply, m, scoped.caller, scoped.body, t(req)(`entity.${m.name}.title`));
    });
  }

  /** Template, validate and import of one entity; `extra` adds the passport's checks to the CRUD's. */
  function importRoutes(
    schema: EntitySchema,
    m: EntityModel,
    extraColumns: SheetColumn[],
    check: (req: FastifyRequest, caller: Caller, c: CheckedRows, sheet: SheetRows) => Promise<void>,
    store: (trx: Kysely<DB>, req: FastifyRequest, caller: Caller, bodies: Body[], progress: StoreProgress) => Promise<string[]>,
  ): void {
    // importColumns already carries a writable organisation column; an extra one of the same key is not repeated.
    const cols = [...importColumns(m), ...extraColumns.filter((e) => !importColumns(m).some((c) => c.key === e.key))];
    routes(schema, 'template', {}, async (req, reply) =>
      reply
        .header('content-type', XLSX_TYPE)
        .header('content-disposition', attachment(t(req)(`entity.${m.name}.title`)))
        .send(await templateBuffer(await templateColumns(db, m, callerOf(req), cols, t(req), false), t(req))),
    );
    const checked = (req: FastifyRequest, progress: Progress): Promise<CheckedRows> =>
      checkedWithProgress(
        progress,
        async () => {
          const upload = await readUpload(req, XLSX_UPLOAD);
          return readSheet(upload.data, upload.filename);
        },
        async (sheet) => {
          const caller = callerOf(req);
          const c = await checkCreateRows(db, m, caller, sheet, cols, t(req), readOnlyColumns(m), requestTimeZone(req));
          await check(req, caller, c, sheet);
          return c;
        },
      );
    const report = (req: FastifyRequest, c: CheckedRows) => sheetReport(c, t(req));
    const gated = gatedImport(db);
    const upload = { headers: progressHeaders };
    routes(schema, 'importValidate', { ...upload, response: { 200: sheetReportSchema } }, async (req, reply) => {
      const progress = trackRequest(req, reply, 'read');
      return gated(req, async () => report(req, await checked(req, progress)));
    });
    routes(schema, 'import', { ...upload, response: { 201: sheetDoneSchema } }, async (req, reply) => {
      const progress = trackRequest(req, reply, 'read');
      return gated(req, async () => {
        const c = await checked(req, progress);
        if (c.errors.length) return reply.status(400).send({ ...report(req, c), code: 'sheet.invalidRows' });
        const caller = callerOf(req);
        const bodies = c.bodies.map((b) => b.body);
        progress.phase('store', bodies.length);
        // All or nothing: one transaction, on the transaction's own connection only (PGlite has one);
        // a cancel before its end throws inside it, which rolls every row back.
        const targets = await db.transaction().execute(async (trx) => {
          const stored = await store(trx, req, caller, bodies, progress);
          progress.done(bodies.length);
          progress.finish();
          return stored;
        });
        for (const target of targets)
          await auditRequest(db, req, caller, schema === organisation ? 'orgCreate' : 'memberRegister', target, { imported: true });
        return reply.status(201).send({ success: true, message: t(req)('sheet.imported', { count: bodies.length }), total: bodies.length });
      });
    });
  }

  /* ---- organisations ---- */
  exportRoute(organisation, orgModel);
  importRoutes(
    organisation,
    orgModel,
    [],
    async () => undefined,
    async (trx, _req, _caller, bodies, progress) => {
      for (const [i, b] of bodies.entries()) {
        storeStep(progress, i);
        const parent = await trx
          .selectFrom('organisation')
          .select('path')
          .where('id', '=', b.parentId as number)
          .executeTakeFirstOrThrow();
        const row = await trx
          .insertInto('organisation')
          .values({
            code: b.code as string,
            name: b.name as string,
            parent_id: b.parentId as number,
            path: 'pending',
            ...(b.type != null ? { type: b.type as string } : {}),
            ...(b.status != null ? { status: b.status as string } : {}),
            contact: (b.contact as string | undefined) ?? null,
            phone: (b.phone as string | undefined) ?? null,
            address: (b.address as string | undefined) ?? null,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('organisation')
          .set({ path: `${parent.path}${row.id}/` })
          .where('id', '=', row.id)
          .execute();
      }
      return bodies.map((b) => String(b.code));
    },
  );

  /* ---- accounts ---- */
  const rolesLabel = 'entity.member.fields.roleNames';
  const rolesColumn: SheetColumn = { key: 'roleNames', labelKey: rolesLabel, schema: { type: 'string' } };
  // The CRUD's template leaves the organisation out (its rows go to the caller's); an account names its own.
  const orgRef = memberImport.refs.find((r) => r.prop === 'orgId')!;
  const orgColumn: SheetColumn = { key: orgRef.as, labelKey: `entity.member.fields.${orgRef.as}`, schema: { type: 'string' }, ref: orgRef };
  exportRoute(member, memberExport);
  importRoutes(
    member,
    memberImport,
    [orgColumn, rolesColumn],
    async (req, caller, c, sheet) => {
      const tr = t(req);
      const application = requestApplication(req);
      const rolesAt = sheet.headers.findIndex((h) => ROLES_HEADERS(rolesLabel).includes(h.trim().toLowerCase()));
      const rowsByNumber = new Map(sheet.rows.map((r) => [r.row, r.cells]));
      // Login names are unique whatever their case.
      const names = c.bodies.map((b) => String(b.body.loginName ?? '').toLowerCase()).filter(Boolean);
      const taken = new Set(
        names.length
          ? (
              await db
                .selectFrom('member')
                .select(sql<string>`lower(login_name)`.as('n'))
                .where(sql<string>`lower(login_name)`, 'in', names)
                .execute()
            ).map((r) => r.n)
          : [],
      );
      const seen = new Map<string, number>();
      for (const { row, body } of c.bodies) {
        const login = String(body.loginName ?? '').toLowerCase();
        // The CRUD's check has already named an exact repeat; this one catches a repeat in another case.
        const named = c.errors.some((r) => r.row === row && r.errors.some((e) => e.field === 'loginName'));
        if (named) {
          // nothing more to say about this login name
        } else if (login && taken.has(login)) addError(c, row, rowError(tr, 'loginName', 'passport.loginNameExists'));
        else if (login && seen.has(login))
          addError(
            c,
            row,
            rowError(tr, 'loginName', 'sheet.duplicateInFile', { row: seen.get(login), fields: tr('entity.member.fields.loginName') }),
          );
        if (login) seen.set(login, seen.get(login) ?? row);
        if (body.memberType === 'administrator' && caller.memberType !== 'administrator')
          addError(c, row, rowError(tr, 'memberType', 'passport.memberTypeNotAllowed'));
        body.roleIds = [];
        const wanted = rolesAt >= 0 ? splitNames(rowsByNumber.get(row)?.[rolesAt]) : [];
        if (!wanted.length) continue;
        // A role is named by its name among the caller's subtree's roles of this application; a name two roles share stays unresolved.
        const found = await db
          .selectFrom('role as r')
          .innerJoin('organisation as o', 'o.id', 'r.org_id')
          .select(['r.id', 'r.name'])
          .where('r.name', 'in', wanted)
          .where('r.application', '=', application)
          .where(pathUnder('o.path', caller.orgPath))
          .execute();
        const ids: number[] = [];
        for (const name of wanted) {
          const hits = found.filter((f) => f.name === name);
          if (hits.length === 1) ids.push(hits[0].id);
        }
        if (ids.length !== wanted.length) {
          addError(c, row, rowError(tr, 'roleIds', 'validation.refNotFound', {}, rolesLabel));
          continue;
        }
        try {
          await checkRolesToAdd(db, caller, [...new Set(ids)]);
          body.roleIds = [...new Set(ids)];
        } catch (e) {
          if (!(e instanceof AppError)) throw e;
          addError(c, row, rowError(tr, 'roleIds', e.key, e.params, rolesLabel));
        }
      }
    },
    async (trx, req, caller, bodies, progress) => {
      const application = requestApplication(req);
      const out: string[] = [];
      for (const [i, b] of bodies.entries()) {
        storeStep(progress, i);
        // Nobody knows this password: the account is signed in after an administrator resets it, and must change it then.
        const password = crypto.randomBytes(24).toString('base64url');
        const row = await trx
          .insertInto('member')
          .values({
            uid: crypto.randomUUID(),
            login_name: b.loginName as string,
            name: b.name as string,
            mobile: (b.mobile as string | undefined) ?? null,
            member_type: b.memberType as string,
            org_id: (b.orgId as number | undefined) ?? caller.orgId,
            expire_date: (b.expireDate as string | undefined) ?? null,
            status: (b.status as string | undefined) ?? 'enabled',
            password_hash: await hashPassword(password),
            first_sign: true,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx.insertInto('member_application').values({ member_id: row.id, application }).execute();
        const roleIds = (b.roleIds as number[] | undefined) ?? [];
        if (roleIds.length)
          await trx
            .insertInto('member_role')
            .values(roleIds.map((role_id) => ({ member_id: row.id, role_id })))
            .execute();
        out.push(String(row.id));
      }
      return out;
    },
  );
}
