/**
 * The prices the ledger's cost is computed with, read from the database: the oil prices of the
 * vehicle's fuel grade in its organisation's region, from its organisation or the nearest ancestor,
 * and its fuel type's own price (held between passes: settingsCache.ts).
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import type { VehicleContext } from '../samples';
import { pathAbove } from '../../platform/scope';

export interface PriceRow {
  effectiveDate: string;
  price: number;
}

export interface VehiclePrices {
  prices: PriceRow[];
  fallback: number | null;
}

/** Oil prices that apply to the vehicle (its grade and region, its organisation or the nearest ancestor), and its fuel type's price. */
export async function vehiclePrices(db: Kysely<DB>, vehicle: VehicleContext): Promise<VehiclePrices> {
  if (vehicle.fuelTypeId === null) return { prices: [], fallback: null };
  const r = await sql<{ effective_date: string; price: number; depth: number }>`
    SELECT p.effective_date::text AS effective_date, p.price, length(o.path) AS depth
    FROM oil_price p JOIN organisation o ON o.id = p.org_id
    JOIN fuel_type f ON f.id = ${vehicle.fuelTypeId} AND p.fuel_grade = f.name
    WHERE ${pathAbove('o.path', vehicle.orgPath)} AND ${vehicle.settings.region === null ? sql`TRUE` : sql`p.region = ${vehicle.settings.region}`}
    ORDER BY p.effective_date, depth`.execute(db);
  // Per effective date, the nearest organisation's price (deepest path, last in order).
  const byDate = new Map<string, number>();
  for (const row of r.rows) byDate.set(row.effective_date, row.price);
  const f = await sql<{ price: number | null }>`SELECT price FROM fuel_type WHERE id = ${vehicle.fuelTypeId}`.execute(db);
  return { prices: [...byDate].map(([effectiveDate, price]) => ({ effectiveDate, price })), fallback: f.rows[0]?.price ?? null };
}
