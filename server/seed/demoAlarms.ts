/**
 * Demo alarm settings, so a fresh demo shows alarms from its history and its live fleet: policies
 * for the two client organisations (speeding, fatigue, idling, trouble codes), a speed-limited
 * town fence around each team's city, and console notification rules that push those alarms to
 * every member whose scope holds the vehicle. The history's day script (server/simulator/history.ts)
 * has the long hauls, trouble codes and town driving these catch.
 */

import { sql, type Transaction } from 'kysely';
import type { DB } from '../platform/db/tables';
import { CITIES } from '../simulator/vehicle';

const POLICIES: Array<{ name: string; alarmType: string; threshold: number | null; durationMinutes: number | null }> = [
  { name: '超速 70 km/h', alarmType: 'OverSpeed', threshold: 70, durationMinutes: 1 },
  { name: '疲劳驾驶 4 小时', alarmType: 'Fatigue', threshold: null, durationMinutes: null },
  { name: '怠速 3 分钟', alarmType: 'Idle', threshold: null, durationMinutes: 3 },
  { name: '故障码', alarmType: 'Fault', threshold: null, durationMinutes: null },
];

/** Each team's city, fenced 6 km around its centre with a town speed limit. */
const TOWN_FENCES: Array<{ org: string; city: string; name: string }> = [
  { org: 'HD-SH', city: 'shanghai', name: '上海市区限速区' },
  { org: 'HD-HZ', city: 'hangzhou', name: '杭州市区限速区' },
  { org: 'HN-SZ', city: 'shenzhen', name: '深圳市区限速区' },
];
const TOWN_RADIUS_M = 6000;
const TOWN_LIMIT_KMH = 50;

const CONSOLE_TYPES = ['OverSpeed', 'Fatigue', 'Fault', 'FenceIn', 'FenceOut', 'Crash'];

export async function seedDemoAlarms(trx: Transaction<DB>, orgs: ReadonlyMap<string, { id: number }>): Promise<void> {
  for (const client of ['HD', 'HN']) {
    const org = orgs.get(client);
    if (!org) continue;
    for (const p of POLICIES)
      await sql`INSERT INTO policy (org_id, name, alarm_type, threshold, duration_minutes, notify_platform, enabled)
                VALUES (${org.id}, ${p.name}, ${p.alarmType}, ${p.threshold}, ${p.durationMinutes}, true, true)`.execute(trx);
    for (const type of CONSOLE_TYPES)
      await sql`INSERT INTO notify (org_id, name, alarm_type, channel, enabled) VALUES (${org.id}, ${`控制台 · ${type}`}, ${type}, 'platform', true)`.execute(
        trx,
      );
  }
  for (const f of TOWN_FENCES) {
    const org = orgs.get(f.org);
    const city = CITIES.find((c) => c.name === f.city);
    if (!org || !city) continue;
    const geometry = { center: [city.longitude, city.latitude], radius: TOWN_RADIUS_M };
    await sql`INSERT INTO fence (org_id, name, fence_type, geometry, dwell_seconds, speed_limit, status)
              VALUES (${org.id}, ${f.name}, 'circle', ${JSON.stringify(geometry)}::jsonb, 30, ${TOWN_LIMIT_KMH}, 'open')`.execute(trx);
  }
}
