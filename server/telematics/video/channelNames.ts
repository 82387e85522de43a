/**
 * Camera channel names: a vehicle model (车型) may name its vehicles' camera channels, one a line,
 * channel 1 first (`camera_channels`); a vehicle is of the model its free-text `model` names (case
 * aside, in its organisation or above, as maintenance schedules match them). A channel without a
 * name is shown with the console's default ("通道 N").
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';

/** Channels a vehicle's video window offers (JT/T 1078 logical channels 1–4: the usual four cameras). */
export const DEFAULT_CHANNELS = 4;
/** Channels a model may name (a bus may carry up to 16 cameras, as the 16-picture grid shows). */
export const MAX_NAMED_CHANNELS = 16;

/** The names of a model's text: line N names channel N; blank lines are no name. */
export function parseChannelNames(text: string | null): Array<string | null> {
  if (!text) return [];
  const names = text
    .split(/\r?\n/)
    .slice(0, MAX_NAMED_CHANNELS)
    .map((l) => l.trim() || null);
  // Blank lines at the end name no channel, so they add none.
  while (names.length && names[names.length - 1] === null) names.pop();
  return names;
}

export interface ChannelName {
  channel: number;
  /** null: the default name. */
  name: string | null;
}

/** A vehicle's channels with their names: at least the default four, as many as its model names. */
export async function vehicleChannelNames(db: Kysely<DB>, vehicleId: number): Promise<ChannelName[]> {
  const r = await sql<{ camera_channels: string | null }>`
    SELECT m.camera_channels
    FROM vehicle v
    JOIN organisation o ON o.id = v.org_id
    JOIN vehicle_model m ON lower(m.model_name) = lower(v.model)
    JOIN organisation mo ON mo.id = m.org_id
    WHERE v.id = ${vehicleId} AND o.path LIKE mo.path || '%' AND m.camera_channels IS NOT NULL
    ORDER BY length(mo.path) DESC
    LIMIT 1`.execute(db);
  const names = parseChannelNames(r.rows[0]?.camera_channels ?? null);
  const count = Math.max(DEFAULT_CHANNELS, names.length);
  return Array.from({ length: count }, (_, i) => ({ channel: i + 1, name: names[i] ?? null }));
}
