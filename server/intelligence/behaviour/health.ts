/**
 * The daily health index (README "Health"), pure:
 *   index = 100 − faults − battery − coolant − alarms, clamped to 0–100, where
 *   faults  = Σ over trouble codes open during the day of their expert level's points
 *             (low 10, medium 20, high 30, critical 45; an unmatched code counts as medium);
 *   battery = 15 when the lowest resting voltage (engine off) is under 11.8 V;
 *   coolant = 20 when the coolant exceeded 105 °C;
 *   alarms  = 2 per other alarm that began that day (ignition and power-restored excepted), at most 20.
 * Bands: healthy ≥ 80, attention 60–79, fault < 60.
 */

export type HealthBand = 'healthy' | 'attention' | 'fault';

export interface HealthFault {
  code: string;
  level: string;
  name: string | null;
  resolvent: string | null;
}

export interface HealthInput {
  faults: HealthFault[];
  minBatteryV: number | null;
  maxCoolantC: number | null;
  alarmCount: number;
}

export const HEALTH_RULES = {
  faultPoints: { low: 10, medium: 20, high: 30, critical: 45 } as Record<string, number>,
  weakBatteryV: 11.8,
  batteryPoints: 15,
  hotCoolantC: 105,
  coolantPoints: 20,
  alarmPoints: 2,
  alarmCap: 20,
  healthyFrom: 80,
  attentionFrom: 60,
};

export function healthIndex(x: HealthInput): { index: number; band: HealthBand } {
  const r = HEALTH_RULES;
  let penalty = 0;
  for (const f of x.faults) penalty += r.faultPoints[f.level] ?? r.faultPoints.medium;
  if (x.minBatteryV !== null && x.minBatteryV < r.weakBatteryV) penalty += r.batteryPoints;
  if (x.maxCoolantC !== null && x.maxCoolantC > r.hotCoolantC) penalty += r.coolantPoints;
  penalty += Math.min(r.alarmCap, x.alarmCount * r.alarmPoints);
  const index = Math.max(0, Math.min(100, Math.round(100 - penalty)));
  return { index, band: bandOf(index) };
}

export const bandOf = (index: number): HealthBand =>
  index >= HEALTH_RULES.healthyFrom ? 'healthy' : index >= HEALTH_RULES.attentionFrom ? 'attention' : 'fault';
