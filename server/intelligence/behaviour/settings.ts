/**
 * Safety settings per organisation (`safety_setting`, the nearest ancestor with a row wins, key by
 * key over the defaults): the weights of the safety score (0–10) and the thresholds the behaviour
 * deriver detects events with.
 */

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../platform/db/tables';
import { pathAbove } from '../../platform/scope';

export const WEIGHT_KEYS = [
  'harshAcceleration',
  'harshBraking',
  'sharpTurn',
  'speedingLight',
  'speedingModerate',
  'speedingSevere',
  'fatigue',
  'distraction',
  'night',
] as const;
export type WeightKey = (typeof WEIGHT_KEYS)[number];
export type SafetyWeights = Record<WeightKey, number>;

/**
 * Samsara's defaults: 1 for harsh events and speeding, 2 for fatigue and distraction (their
 * distracted-driving tier); night driving off.
 */
export const DEFAULT_WEIGHTS: SafetyWeights = {
  harshAcceleration: 1,
  harshBraking: 1,
  sharpTurn: 1,
  speedingLight: 1,
  speedingModerate: 1,
  speedingSevere: 1,
  fatigue: 2,
  distraction: 2,
  night: 0,
};

/** Rows saved before speeding had severities carry one `speeding` weight: it stands for all three. */
const LEGACY_SPEEDING = ['speedingLight', 'speedingModerate', 'speedingSevere'] as const;

export interface BehaviourThresholds {
  /** km/h gained within `withinS` seconds (≈ 26 km/h in 2 s, Samsara's +16 mph). */
  harshAccelerationKmh: number;
  /** km/h lost within `withinS` seconds. */
  harshBrakingKmh: number;
  /** Reports further apart than this say nothing about acceleration or turning. */
  withinS: number;
  /** Lateral acceleration speed × turn rate, m/s² (≈ 0.4 g). */
  sharpTurnMs2: number;
  /** Below this speed a turn is manoeuvring, never sharp. */
  sharpTurnMinKmh: number;
  /** Local hours of the night, [from, to) across midnight. */
  nightFromHour: number;
  nightToHour: number;
}

export const DEFAULT_THRESHOLDS: BehaviourThresholds = {
  harshAccelerationKmh: 26,
  harshBrakingKmh: 26,
  withinS: 2,
  sharpTurnMs2: 4,
  sharpTurnMinKmh: 20,
  nightFromHour: 22,
  nightToHour: 6,
};

export const THRESHOLD_LIMITS: Record<keyof BehaviourThresholds, [number, number]> = {
  harshAccelerationKmh: [5, 100],
  harshBrakingKmh: [5, 100],
  withinS: [1, 10],
  sharpTurnMs2: [1, 15],
  sharpTurnMinKmh: [0, 100],
  nightFromHour: [0, 23],
  nightToHour: [0, 23],
};

export interface SafetySettings {
  weights: SafetyWeights;
  thresholds: BehaviourThresholds;
  /** The organisation whose row applies, null for the defaults. */
  from: number | null;
}

const objectOf = (raw: unknown): Record<string, unknown> => {
  const o = typeof raw === 'string' ? (JSON.parse(raw) as unknown) : raw;
  return o && typeof o === 'object' ? (o as Record<string, unknown>) : {};
};

/** Defaults overlaid with the numeric keys of a stored row (anything else was refused on write). */
export function settingsOf(weights: unknown, thresholds: unknown): Pick<SafetySettings, 'weights' | 'thresholds'> {
  const w = objectOf(weights);
  if (typeof w.speeding === 'number') for (const k of LEGACY_SPEEDING) if (!(k in w)) w[k] = w.speeding;
  const t = objectOf(thresholds);
  const pick = <T extends object>(base: T, o: Record<string, unknown>): T =>
    Object.fromEntries(Object.entries(base).map(([k, v]) => [k, typeof o[k] === 'number' && Number.isFinite(o[k]) ? o[k] : v])) as T;
  return { weights: pick(DEFAULT_WEIGHTS, w), thresholds: pick(DEFAULT_THRESHOLDS, t) };
}

/** The settings in force for the organisation at `orgPath` (its own row or the nearest ancestor's). */
export async function safetySettingsFor(db: Kysely<DB>, orgPath: string): Promise<SafetySettings> {
  const r = await sql<{ org_id: number; weights: unknown; thresholds: unknown }>`
    SELECT s.org_id, s.weights, s.thresholds FROM safety_setting s JOIN organisation a ON a.id = s.org_id
    WHERE ${pathAbove('a.path', orgPath)} ORDER BY length(a.path) DESC LIMIT 1`.execute(db);
  const row = r.rows[0];
  return row
    ? { ...settingsOf(row.weights, row.thresholds), from: row.org_id }
    : { weights: { ...DEFAULT_WEIGHTS }, thresholds: { ...DEFAULT_THRESHOLDS }, from: null };
}
