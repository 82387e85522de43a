/** The safety explanation page's pure parts: labels of an event, its colour on the map, the window choices. */

import type { SafetyEvent, SafetyEventKind } from '../../services/behaviour';

/** Rolling windows offered, in weeks (four by default, as the server's). */
export const WINDOW_WEEKS = [1, 4, 8, 12] as const;
export const DEFAULT_WINDOW_WEEKS = 4;

/** One colour per kind, so the map and the table read together. */
export const KIND_COLOURS: Record<SafetyEventKind, string> = {
  harshAcceleration: '#fa8c16',
  harshBraking: '#f5222d',
  sharpTurn: '#722ed1',
  speeding: '#1677ff',
  night: '#595959',
  fatigue: '#13c2c2',
  distraction: '#eb2f96',
};

/** The label key of the weight an event is scored with (a speeding run's by its severity). */
export function weightLabelKey(e: Pick<SafetyEvent, 'kind' | 'severity'>): string {
  if (e.kind !== 'speeding') return `behaviour.fields.${e.kind}`;
  const s = e.severity ?? 'light';
  return `behaviour.fields.speeding${s[0].toUpperCase()}${s.slice(1)}`;
}

/** The label key of what an event's weight is normalised by. */
export const normalisedKey = (e: Pick<SafetyEvent, 'normalisedBy'>) => `console.statistics.safetyExplain.per.${e.normalisedBy}`;

/** The events with a place, for the map. */
export const placedEvents = (events: readonly SafetyEvent[]) =>
  events.filter((e): e is SafetyEvent & { latitude: number; longitude: number } => e.latitude !== null && e.longitude !== null);

/** A stable row key: the event's natural key. */
export const eventKey = (e: Pick<SafetyEvent, 'kind' | 'at'>) => `${e.kind}@${e.at}`;

/** The vehicle asked for in the address (`?vehicleId=7`), or null. */
export function vehicleIdOf(search: string): number | null {
  const v = Number(new URLSearchParams(search).get('vehicleId'));
  return Number.isInteger(v) && v > 0 ? v : null;
}
