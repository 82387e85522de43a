import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { defaultCatalogues } from '../../schemas/kit/catalogue';
import { LANGUAGES, type Language } from '../../schemas/kit/i18n';
import {
  effectiveCatalogue,
  LABEL_VALUE_MAX,
  missingLanguages,
  placeholderProblem,
  labelOverrideSchema,
  type LabelOverride,
} from '../../schemas/kit/labelRules';
import { noContent } from '../platform/crud/routeSpec';
import { typed } from '../platform/http/typed';
import { auditRequest } from '../platform/audit';
import { callerOf } from '../platform/auth/authenticate';
import { PUBLIC } from '../platform/auth/caller';
import type { DB } from '../platform/db/tables';
import { AppError, invalid, notFound } from '../platform/http/errors';
import type { LabelOverrides } from '../platform/labelOverrides';

/** Editing labels and messages: its tools page and every write (issue 17). */
export const LABEL_EDIT = 'label-edit';

export interface LabelDeps {
  db: Kysely<DB>;
  overrides: LabelOverrides;
}

const LABELS = 'labels.fields';
const locale = { type: 'string', enum: [...LANGUAGES] } as const;
const key = { type: 'string', minLength: 1, maxLength: 200 } as const;
const localeKeyParams = { type: 'object', required: ['locale', 'key'], properties: { locale, key } } as const;

/** A language's catalogue: key → text. */
const catalogueAnswer = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** A key published: its new text per language, and the labels' version now. */
const publishAnswer = {
  type: 'object',
  required: ['key', 'version', 'published'],
  properties: {
    key: { type: 'string' },
    version: { type: 'integer' },
    published: { type: 'object', additionalProperties: { type: ['string', 'null'] } },
  },
} as const;

interface OverrideRow {
  locale: string;
  key: string;
  published: string | null;
  draft: string | null;
  updated_by_name: string;
  updated_at: Date | string;
  published_at: Date | string | null;
}
const iso = (d: Date | string) => new Date(d).toISOString();
const toOverride = (r: OverrideRow): LabelOverride => ({
  locale: r.locale as Language,
  key: r.key,
  published: r.published,
  draft: r.draft,
  updatedBy: r.updated_by_name,
  updatedAt: iso(r.updated_at),
  publishedAt: r.published_at === null ? null : iso(r.published_at),
});

/**
 * Labels and messages analysts edit (issue 17). An edit is a draft per language; a key's drafts are
 * published together, and only when all four languages have one, so users never read new words in
 * one language beside old ones in another. The catalogue route answers what users see now.
 * Overrides are the platform's, shared by every organisation: only system members write them.
 */
export function registerLabelRoutes(fastify: FastifyInstance, { db, overrides }: LabelDeps): void {
  const app = typed(fastify);
  const bump = async (trx: Kysely<DB>) => {
    await trx
      .updateTable('label_version')
      .set({ version: sql<number>`version + 1` })
      .where('id', '=', 1)
      .execute();
  };

  app.get(
    '/api/vehicle/labels/catalogue/:locale',
    {
      config: { permission: PUBLIC, labels: LABELS },
      schema: {
        tags: ['labels'],
        summary: 'the effective catalogue of a language (published overrides included)',
        params: { type: 'object', required: ['locale'], properties: { locale } } as const,
        response: { 200: catalogueAnswer, 304: { type: 'null', description: 'unchanged since the ETag sent' } },
      },
    },
    async (req, reply) => {
      const lang = req.params.locale;
      // Revalidated on every load (no-cache) and answered 304 while nothing was published or reset.
      const etag = `"labels-${overrides.current}"`;
      reply.header('cache-control', 'no-cache').header('etag', etag);
      if (req.headers['if-none-match'] === etag) return reply.status(304).send(null);
      return effectiveCatalogue(defaultCatalogues[lang], overrides.of(lang));
    },
  );

  app.get(
    '/api/vehicle/labels',
    {
      config: { permission: LABEL_EDIT, labels: LABELS },
      schema: {
        tags: ['labels'],
        summary: 'the overrides (published and drafts), of one language or all',
        querystring: { type: 'object', additionalProperties: false, properties: { locale } } as const,
        response: { 200: { type: 'array', items: labelOverrideSchema } },
      },
    },
    async (req) => {
      const lang = req.query.locale;
      let q = db.selectFrom('label_override').selectAll().orderBy('key').orderBy('locale');
      if (lang) q = q.where('locale', '=', lang);
      return (await q.execute()).map(toOverride);
    },
  );

  app.put(
    '/api/vehicle/labels',
    {
      config: { permission: LABEL_EDIT, labels: LABELS, sharedWrite: true },
      schema: {
        tags: ['labels'],
        summary: 'sets the draft of one language of one key (published with POST …/labels/publish)',
        body: {
          type: 'object',
          additionalProperties: false,
          required: ['locale', 'key', 'value'],
          properties: { locale, key, value: { type: 'string', minLength: 1, maxLength: LABEL_VALUE_MAX } },
        } as const,
        response: { 200: labelOverrideSchema },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const body = req.body;
      const defaultText = defaultCatalogues[body.locale][body.key];
      if (defaultText === undefined)
        throw invalid([{ field: 'key', key: 'labels.unknownKey', params: { key: body.key }, labelKey: `${LABELS}.key` }]);
      if (!body.value.trim()) throw invalid([{ field: 'value', key: 'validation.required', params: {}, labelKey: `${LABELS}.value` }]);
      const problem = placeholderProblem(defaultText, body.value);
      if (problem) throw invalid([{ field: 'value', key: problem.key, params: problem.params, labelKey: `${LABELS}.value` }]);
      const row = await db
        .insertInto('label_override')
        .values({ locale: body.locale, key: body.key, draft: body.value, updated_by_name: caller.name })
        .onConflict((oc) =>
          oc.columns(['locale', 'key']).doUpdateSet({ draft: body.value, updated_by_name: caller.name, updated_at: sql<Date>`now()` }),
        )
        .returningAll()
        .executeTakeFirstOrThrow();
      await auditRequest(db, req, caller, 'labelDraft', `${body.locale} ${body.key}`, { value: body.value });
      return toOverride(row);
    },
  );

  app.post(
    '/api/vehicle/labels/publish',
    {
      config: { permission: LABEL_EDIT, labels: LABELS, sharedWrite: true },
      schema: {
        tags: ['labels'],
        summary: "publishes a key's drafts: all four languages must have one",
        body: { type: 'object', additionalProperties: false, required: ['key'], properties: { key } } as const,
        response: { 200: publishAnswer },
      },
    },
    async (req) => {
      const caller = callerOf(req);
      const { key: k } = req.body;
      const published = await db.transaction().execute(async (trx) => {
        // Lock the key's rows, so a draft changed meanwhile is published whole or not at all.
        const rows = await trx.selectFrom('label_override').selectAll().where('key', '=', k).forUpdate().execute();
        const drafted = rows.filter((r) => r.draft !== null);
        if (!drafted.length) throw new AppError(406, 'labels.nothingToPublish', { key: k });
        const missing = missingLanguages(new Set(drafted.map((r) => r.locale as Language)));
        if (missing.length)
          throw new AppError(406, 'labels.incomplete', { key: k }, [], { languages: missing.map((l) => `labels.language.${l}`) });
        await trx
          .updateTable('label_override')
          .set({
            published: sql<string>`draft`,
            draft: null,
            published_at: sql<Date>`now()`,
            updated_at: sql<Date>`now()`,
            updated_by_name: caller.name,
          })
          .where('key', '=', k)
          .where('draft', 'is not', null)
          .execute();
        await bump(trx);
        return Object.fromEntries(drafted.map((r) => [r.locale, r.draft]));
      });
      await overrides.reload();
      await auditRequest(db, req, caller, 'labelPublish', k, published);
      return { key: k, version: overrides.current, published };
    },
  );

  app.delete(
    '/api/vehicle/labels/:locale/:key',
    {
      config: { permission: LABEL_EDIT, labels: LABELS, sharedWrite: true },
      schema: {
        tags: ['labels'],
        summary: 'back to the default text: drops the override (published and draft) of one language of one key',
        params: localeKeyParams,
        response: noContent,
      },
    },
    async (req, reply) => {
      const caller = callerOf(req);
      const p = req.params;
      const gone = await db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('label_override')
          .where('locale', '=', p.locale)
          .where('key', '=', p.key)
          .returningAll()
          .executeTakeFirst();
        if (row?.published !== null && row?.published !== undefined) await bump(trx);
        return row;
      });
      if (!gone) throw notFound();
      if (gone.published !== null) await overrides.reload();
      await auditRequest(db, req, caller, 'labelReset', `${p.locale} ${p.key}`, { published: gone.published, draft: gone.draft });
      return reply.status(204).send(null);
    },
  );
}
