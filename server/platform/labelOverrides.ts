import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { translateWith } from '../../schemas/kit/catalogue';
import { LANGUAGES, type Language, type Translate } from '../../schemas/kit/i18n';
import type { DB } from './db/tables';
import { requestLanguage } from './http/language';

/** How long a process trusts its copy before asking the database whether another process published. */
const RECHECK_MS = 2000;

/**
 * The published label and message overrides (issue 17) of one app, in memory: every localised
 * message the server writes goes through `translator`, so a publish or reset shows in the next
 * answer, without a restart. Other processes on the same database notice the raised version within
 * RECHECK_MS (checked before each API request, at most once in that time).
 */
export class LabelOverrides {
  private published = new Map<Language, Map<string, string>>();
  private version = -1;
  private checkedAt = 0;

  constructor(private readonly db: Kysely<DB>) {}

  /** The version of what is held (the catalogue's ETag). */
  get current(): number {
    return this.version;
  }

  /** Reads every published text and the version. */
  async reload(): Promise<void> {
    const [rows, v] = await Promise.all([
      this.db.selectFrom('label_override').select(['locale', 'key', 'published']).where('published', 'is not', null).execute(),
      this.db.selectFrom('label_version').select('version').where('id', '=', 1).executeTakeFirst(),
    ]);
    const next = new Map<Language, Map<string, string>>(LANGUAGES.map((l) => [l, new Map()]));
    for (const r of rows) next.get(r.locale as Language)?.set(r.key, r.published!);
    this.published = next;
    this.version = Number(v?.version ?? 0);
    this.checkedAt = Date.now();
  }

  /** Reloads when another process raised the version (asked at most every RECHECK_MS). */
  async refreshIfStale(): Promise<void> {
    if (Date.now() - this.checkedAt < RECHECK_MS) return;
    this.checkedAt = Date.now();
    const v = await this.db.selectFrom('label_version').select('version').where('id', '=', 1).executeTakeFirst();
    if (Number(v?.version ?? 0) !== this.version) await this.reload();
  }

  /** A language's published overrides (key → text). */
  of(lang: Language): ReadonlyMap<string, string> {
    return this.published.get(lang) ?? new Map();
  }

  translator(lang: Language): Translate {
    const overrides = this.of(lang);
    return (key, params) => translateWith(lang, overrides, key, params);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    labelOverrides?: LabelOverrides;
  }
}

/** The caller's language with this app's published overrides: the words of every localised answer. */
export function requestTranslator(req: FastifyRequest): Translate {
  const lang = requestLanguage(req);
  const overrides = req.server.labelOverrides;
  return overrides ? overrides.translator(lang) : (key, params) => translateWith(lang, undefined, key, params);
}
