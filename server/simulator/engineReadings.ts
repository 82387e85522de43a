/**
 * Engine readings of a simulated vehicle that behave like a real one's, from its state alone (no
 * random numbers are drawn, so the routes a seed gives stay as they were): the coolant warms from
 * the air's temperature to about 85 °C over the first minutes after ignition, rises a few degrees
 * under load and cools back towards the air once the engine is off; the supply voltage reads the
 * alternator's charge (about 28 V on a 24 V truck) with the engine running and the battery's rest
 * voltage, slowly sagging, with it off. A vehicle's own offset (from its seed) keeps two vehicles
 * from reading alike.
 */

/** The air the engine starts from and cools back to (°C). */
const AMBIENT_C = 18;
/** The thermostat's regulated temperature (°C) and how fast a cold engine reaches it (s). */
const REGULATED_C = 85;
const WARM_UP_S = 240;
const COOL_DOWN_S = 1800;

const round1 = (v: number) => Math.round(v * 10) / 10;

/** Coolant temperature `sinceS` seconds after the ignition went on (acc) or off, at `speedKmh`. */
export function coolantTempC(acc: boolean, sinceS: number, speedKmh: number, nowMs: number, offset: number): number {
  if (!acc) return round1(AMBIENT_C + offset + (REGULATED_C - AMBIENT_C) * Math.exp(-sinceS / COOL_DOWN_S));
  const warm = AMBIENT_C + offset + (REGULATED_C - AMBIENT_C - offset) * (1 - Math.exp(-sinceS / WARM_UP_S));
  // Load: a few degrees at highway speed; the thermostat's hunting as a slow swing of about a degree.
  const load = Math.min(1, speedKmh / 90) * 6;
  const swing = Math.sin(nowMs / 97_000 + offset) * 1.2;
  return round1(warm + (sinceS > WARM_UP_S ? load + swing : 0));
}

/** Supply voltage `sinceS` seconds after the ignition went on (acc) or off. */
export function supplyV(acc: boolean, sinceS: number, nowMs: number, offset: number): number {
  if (acc) return round1(27.9 + offset / 20 + Math.sin(nowMs / 53_000 + offset) * 0.3);
  // At rest the battery settles from its surface charge and sags slowly with the vehicle's standing load.
  return round1(Math.max(23.8, 25.4 + offset / 25 + 0.5 * Math.exp(-sinceS / 600) - sinceS / 86_400));
}
