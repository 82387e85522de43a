/**
 * A position's address for people to read: the configured provider's (asked once per place and
 * language, the answer kept in `geocode_cache`), else — no provider, no answer yet, or the
 * provider failing — the province, city and district from the shipped boundaries, so an
 * installation without network still shows where a vehicle is.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../platform/db/tables';
import { districtText, OfflineDistricts } from './offlineDistricts';
import type { GeocodeProvider } from './providers';

export interface Point {
  latitude: number;
  longitude: number;
}

export interface Address extends Point {
  /** Null where neither the provider nor the boundaries know the place (at sea, abroad). */
  address: string | null;
  /** Where the address came from: the provider (now or from the cache), or the district boundaries. */
  source: 'provider' | 'district' | null;
}

export interface GeocoderOptions {
  /** How long one provider request may take. */
  timeoutMs: number;
  /** How long an answer waits for the provider; what it has not answered by then is filled in later. */
  waitMs: number;
}

/** About 11 m: the same place for an address. */
const cell = (v: number) => Math.round(v * 1e4);
const keyOf = (latE4: number, lngE4: number, lang: string) => `${latE4},${lngE4},${lang}`;

export class ReverseGeocoder {
  private readonly asking = new Map<string, Promise<string | null>>();
  private queue: Promise<unknown> = Promise.resolve();
  private lastAsked = 0;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly provider: GeocodeProvider | null,
    private readonly offline: OfflineDistricts,
    private readonly opts: GeocoderOptions,
    private readonly log: (msg: string) => void = () => undefined,
  ) {}

  get providerName(): string | null {
    return this.provider?.name ?? null;
  }

  /** The provider's answer for one cell, asked in turn at its pace, stored once it comes. */
  private ask(latE4: number, lngE4: number, lang: string): Promise<string | null> {
    const key = keyOf(latE4, lngE4, lang);
    const pending = this.asking.get(key);
    if (pending) return pending;
    const provider = this.provider!;
    const run = this.queue.then(async () => {
      const wait = this.lastAsked + provider.minIntervalMs - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      this.lastAsked = Date.now();
      const address = await provider.reverse(latE4 / 1e4, lngE4 / 1e4, lang, AbortSignal.timeout(this.opts.timeoutMs));
      if (address)
        await sql`INSERT INTO geocode_cache (lat_e4, lng_e4, lang, address, provider) VALUES (${latE4}, ${lngE4}, ${lang}, ${address}, ${provider.name})
          ON CONFLICT DO NOTHING`.execute(this.db);
      return address;
    });
    const settled = run.catch((e: unknown) => {
      this.log(`reverse geocoding failed: ${e instanceof Error ? e.message : String(e)}`);
      return null;
    });
    this.queue = settled;
    this.asking.set(key, settled);
    void settled.finally(() => this.asking.delete(key));
    return settled;
  }

  async addresses(points: readonly Point[], lang: string): Promise<Address[]> {
    const cells = points.map((p) => ({ latE4: cell(p.latitude), lngE4: cell(p.longitude) }));
    const known = new Map<string, string>();
    if (this.provider && cells.length) {
      const rows = await sql<{ latE4: number; lngE4: number; address: string }>`
        SELECT c.lat_e4 AS "latE4", c.lng_e4 AS "lngE4", c.address FROM geocode_cache c
        JOIN unnest(${cells.map((c) => c.latE4)}::int[], ${cells.map((c) => c.lngE4)}::int[]) AS p(lat_e4, lng_e4)
          ON c.lat_e4 = p.lat_e4 AND c.lng_e4 = p.lng_e4
        WHERE c.lang = ${lang}`.execute(this.db);
      for (const r of rows.rows) known.set(keyOf(r.latE4, r.lngE4, lang), r.address);
      const missing = [...new Set(cells.map((c) => keyOf(c.latE4, c.lngE4, lang)).filter((k) => !known.has(k)))];
      if (missing.length) {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const deadline = new Promise<void>((r) => (timer = setTimeout(r, this.opts.waitMs)));
        const asked = missing.map((k) => {
          const [lat, lng] = k.split(',').map(Number);
          return this.ask(lat, lng, lang).then((a) => a && known.set(k, a));
        });
        await Promise.race([Promise.all(asked), deadline]);
        clearTimeout(timer);
      }
    }
    return Promise.all(
      points.map(async (p, i): Promise<Address> => {
        const fromProvider = known.get(keyOf(cells[i].latE4, cells[i].lngE4, lang));
        if (fromProvider) return { ...p, address: fromProvider, source: 'provider' };
        const d = await this.offline.lookup(p.latitude, p.longitude);
        return { ...p, address: d ? districtText(d) : null, source: d ? 'district' : null };
      }),
    );
  }
}
