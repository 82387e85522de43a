/**
 * Forwarding links managed through the API (the console's 运营管理 → 转发链路): create, read one,
 * change (enable, disable) and delete a link of the caller's subtree (another subtree's is not
 * there: 404). Bodies are the schema's (schemas/forwardLink.schema.json, the console's form checks
 * the same), then the link's own rules (linkRules.ts: the target's address guard, the 809 account,
 * the cipher); its organisation lies in the caller's subtree and its vehicles in its organisation's.
 * The password is never answered, and an update without one keeps it. Every change is audited and
 * announced, so the running links reload at once on every process.
 */

import type { FastifyInstance } from 'fastify';
import type { FromSchema } from 'json-schema-to-ts';
import { sql, type Kysely } from 'kysely';
import { handWrittenEntities } from '../../schemas/generated/registry';
import type { ForwardLink } from '../../schemas/generated/types';
import { createBodySchema, normaliseBody, updateBodySchema } from '../../schemas/kit/entity';
import type { FieldError } from '../../schemas/kit/errors';
import { auditRequest } from '../platform/audit';
import { callerOf } from '../platform/auth/authenticate';
import type { Caller } from '../platform/auth/caller';
import { idParams, int, noContent, nullable, str } from '../platform/crud/routeSpec';
import type { DB } from '../platform/db/tables';
import type { AnnounceForwardChange } from '../platform/forwardChanges';
import { invalid, notFound } from '../platform/http/errors';
import { typed } from '../platform/http/typed';
import { pathOfOrg, pathUnder } from '../platform/scope';
import type { TargetAllow } from '../notify/target';
import { LINK_LABELS, linkErrors, type LinkSettings } from './linkRules';
import { linkSettingsView } from './routes';

const schema = handWrittenEntities.forwardLink;
const x = schema['x-entity'];
const BASE = '/api/vehicle/forwardLink';

const count = nullable('integer');
const view = {
  type: 'object',
  additionalProperties: false,
  properties: {
    ...linkSettingsView,
    edition: int,
    accessCode: count,
    userId: count,
    hasPassword: { type: 'boolean' },
    version: str,
    m1: count,
    ia1: count,
    ic1: count,
    encryptKey: count,
    downLinkIp: nullable('string'),
    downLinkPort: count,
    createdAt: str,
    updatedAt: str,
  },
} as const;

interface Row extends LinkSettings {
  id: number;
  orgName: string;
  hasPassword: boolean;
  createdAt: string;
  updatedAt: string;
}

/** bigint columns (the 809 account and constants) come back as text from PostgreSQL. */
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/**
 * The bodies, as the entity's schema types them (its body schemas are built at run time, so their
 * literal type cannot tell the route's types).
 */
type CreateBody = Omit<ForwardLink, 'id' | 'createdAt' | 'updatedAt' | 'orgName'>;
type UpdateBody = Partial<CreateBody>;

/** A parsed JSON object, whose keys hold anything until validated. */
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ForwardLinkRouteDeps {
  db: Kysely<DB>;
  /** FORWARD_ALLOW: the non-public targets links may reach. */
  allow: TargetAllow;
  /** Tells every process's forwarding that a link changed. */
  changed: AnnounceForwardChange;
}

export function registerForwardLinkRoutes(fastify: FastifyInstance, deps: ForwardLinkRouteDeps): void {
  const app = typed(fastify);
  const { db, allow, changed } = deps;

  const inScope = async (caller: Caller, id: number): Promise<Row> => {
    const r = await sql<Record<string, unknown>>`
      SELECT f.*, o.name AS org_name, f.password IS NOT NULL AS has_password
      FROM forward_link f JOIN organisation o ON o.id = f.org_id
      WHERE f.id = ${id} AND ${pathUnder('o.path', caller.orgPath)}`.execute(db);
    const f = r.rows[0];
    if (!f) throw notFound();
    return {
      id: Number(f.id),
      orgId: Number(f.org_id),
      orgName: String(f.org_name),
      name: String(f.name),
      protocol: f.protocol === 'jt808' ? 'jt808' : 'jt809',
      host: String(f.host),
      port: Number(f.port),
      vehicleIds: (f.vehicle_ids as number[] | null) ?? null,
      enabled: f.enabled === true,
      backlogLimit: Number(f.backlog_limit),
      edition: Number(f.edition) === 2011 ? 2011 : 2019,
      accessCode: num(f.access_code),
      userId: num(f.user_id),
      hasPassword: f.has_password === true,
      version: String(f.version),
      m1: num(f.m1),
      ia1: num(f.ia1),
      ic1: num(f.ic1),
      encryptKey: num(f.encrypt_key),
      downLinkIp: (f.down_link_ip as string | null) ?? null,
      downLinkPort: num(f.down_link_port),
      createdAt: new Date(f.created_at as string).toISOString(),
      updatedAt: new Date(f.updated_at as string).toISOString(),
    };
  };

  /** The link's rules, its organisation in the caller's subtree and its vehicles in the organisation's. */
  const check = async (caller: Caller, link: LinkSettings, hasPassword: boolean, orgChanged: boolean): Promise<void> => {
    const errors: FieldError[] = linkErrors(link, hasPassword, allow);
    if (orgChanged) {
      const r = await sql`SELECT 1 FROM organisation o WHERE o.id = ${link.orgId} AND ${pathUnder('o.path', caller.orgPath)}`.execute(db);
      if (!r.rows.length) errors.push({ field: 'orgId', key: 'forwarding.orgOutside', params: {}, labelKey: `${LINK_LABELS}.orgId` });
    }
    if (link.vehicleIds) {
      const r = await sql<{ id: number }>`
        SELECT v.id FROM vehicle v JOIN organisation o ON o.id = v.org_id
        WHERE v.id = ANY (${link.vehicleIds}::int[]) AND ${pathUnder('o.path', pathOfOrg(link.orgId))}`.execute(db);
      const found = new Set(r.rows.map((v) => v.id));
      const outside = link.vehicleIds.filter((v) => !found.has(v));
      if (outside.length)
        errors.push({
          field: 'vehicleIds',
          key: 'forwarding.vehicleOutside',
          params: { ids: outside.join(', ') },
          labelKey: `${LINK_LABELS}.vehicleIds`,
        });
    }
    if (errors.length) throw invalid(errors);
  };

  /** What the audit log keeps of a link: never its password. */
  const audited = (l: LinkSettings & { id: number }) => ({
    id: l.id,
    protocol: l.protocol,
    host: l.host,
    port: l.port,
    enabled: l.enabled,
  });
  const normalise = async (req: { body: unknown }) => {
    if (isObject(req.body)) normaliseBody(schema, req.body);
  };
  const config = (permission: string) => ({ permission, labels: LINK_LABELS });

  app.get(
    `${BASE}/:id`,
    {
      config: config(x.permissions.read),
      schema: {
        tags: ['forwarding'],
        summary: 'one forwarding link’s settings (the password never)',
        params: idParams,
        response: { 200: view },
      },
    },
    async (req) => inScope(callerOf(req), req.params.id),
  );

  app.post<{ Body: CreateBody }>(
    BASE,
    {
      config: config(x.permissions.create),
      schema: {
        tags: ['forwarding'],
        summary: 'create a forwarding link; it starts at once',
        body: createBodySchema(schema),
        response: { 201: view },
      },
      preValidation: normalise,
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const b = req.body;
      const link: LinkSettings = {
        orgId: b.orgId ?? caller.orgId,
        name: b.name,
        protocol: b.protocol,
        host: b.host,
        port: b.port,
        vehicleIds: b.vehicleIds ?? null,
        enabled: b.enabled ?? true,
        backlogLimit: b.backlogLimit ?? 10_000,
        edition: b.edition ?? 2019,
        accessCode: b.accessCode ?? null,
        userId: b.userId ?? null,
        version: b.version ?? '1.0.0',
        m1: b.m1 ?? null,
        ia1: b.ia1 ?? null,
        ic1: b.ic1 ?? null,
        encryptKey: b.encryptKey ?? null,
        downLinkIp: b.downLinkIp ?? null,
        downLinkPort: b.downLinkPort ?? null,
      };
      await check(caller, link, !!b.password, b.orgId !== undefined && b.orgId !== null);
      const r = await sql<{ id: number }>`
        INSERT INTO forward_link (org_id, name, protocol, host, port, vehicle_ids, enabled, backlog_limit, edition, access_code, user_id,
                                  password, version, m1, ia1, ic1, encrypt_key, down_link_ip, down_link_port)
        VALUES (${link.orgId}, ${link.name}, ${link.protocol}, ${link.host}, ${link.port}, ${link.vehicleIds}::int[], ${link.enabled},
                ${link.backlogLimit}, ${link.edition}, ${link.accessCode}, ${link.userId}, ${b.password ?? null}, ${link.version}, ${link.m1},
                ${link.ia1}, ${link.ic1}, ${link.encryptKey}, ${link.downLinkIp}, ${link.downLinkPort})
        RETURNING id`.execute(db);
      const id = r.rows[0].id;
      await auditRequest(db, req, caller, 'forwardLinkCreate', link.name, audited({ ...link, id }));
      changed(id);
      return reply.status(201).send(await inScope(caller, id));
    },
  );

  app.put<{ Body: UpdateBody; Params: FromSchema<typeof idParams> }>(
    `${BASE}/:id`,
    {
      config: config(x.permissions.update),
      schema: {
        tags: ['forwarding'],
        summary: 'change a forwarding link (enabled: false stops it); an empty password keeps the stored one; the link restarts at once',
        params: idParams,
        body: updateBodySchema(schema),
        response: { 200: view },
      },
      preValidation: normalise,
    },
    async (req) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const b = req.body;
      const before = await inScope(caller, id);
      // Absent or null: unchanged for the columns a link cannot lack; null clears the optional ones.
      const kept = <K extends keyof LinkSettings>(k: K, clearable: boolean): LinkSettings[K] =>
        b[k] === undefined || (b[k] === null && !clearable) ? before[k] : (b[k] as LinkSettings[K]);
      const link: LinkSettings = {
        orgId: kept('orgId', false),
        name: kept('name', false),
        protocol: kept('protocol', false),
        host: kept('host', false),
        port: kept('port', false),
        vehicleIds: kept('vehicleIds', true),
        enabled: kept('enabled', false),
        backlogLimit: kept('backlogLimit', false),
        edition: kept('edition', false),
        accessCode: kept('accessCode', true),
        userId: kept('userId', true),
        version: kept('version', false),
        m1: kept('m1', true),
        ia1: kept('ia1', true),
        ic1: kept('ic1', true),
        encryptKey: kept('encryptKey', true),
        downLinkIp: kept('downLinkIp', true),
        downLinkPort: kept('downLinkPort', true),
      };
      await check(caller, link, !!b.password || before.hasPassword, link.orgId !== before.orgId);
      await sql`
        UPDATE forward_link SET
          org_id = ${link.orgId}, name = ${link.name}, protocol = ${link.protocol}, host = ${link.host}, port = ${link.port},
          vehicle_ids = ${link.vehicleIds}::int[], enabled = ${link.enabled}, backlog_limit = ${link.backlogLimit}, edition = ${link.edition},
          access_code = ${link.accessCode}, user_id = ${link.userId}, version = ${link.version}, m1 = ${link.m1}, ia1 = ${link.ia1},
          ic1 = ${link.ic1}, encrypt_key = ${link.encryptKey}, down_link_ip = ${link.downLinkIp}, down_link_port = ${link.downLinkPort},
          ${b.password ? sql`password = ${b.password},` : sql``}
          updated_at = now()
        WHERE id = ${id}`.execute(db);
      await auditRequest(db, req, caller, 'forwardLinkUpdate', link.name, { ...audited({ ...link, id }), passwordChanged: !!b.password });
      changed(id);
      return inScope(caller, id);
    },
  );

  app.delete(
    `${BASE}/:id`,
    {
      config: config(x.permissions.remove),
      schema: {
        tags: ['forwarding'],
        summary: 'delete a forwarding link and its backlog; it stops at once',
        params: idParams,
        response: noContent,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const { id } = req.params;
      const before = await inScope(caller, id);
      await sql`DELETE FROM forward_link WHERE id = ${id}`.execute(db);
      await auditRequest(db, req, caller, 'forwardLinkDelete', before.name, audited(before));
      changed(id);
      return reply.status(204).send(null);
    },
  );
}
