import { CITIES, SimVehicle } from '../../../server/simulator/vehicle';

/**
 * The simulated vehicles' engine readings move as a real engine's do: coolant warming after the
 * ignition and cooling after it, varying with load; the supply voltage charging while running and
 * at rest otherwise; no two vehicles alike. (The readings draw no random numbers: routes stay.)
 */

interface Reading {
  acc: boolean;
  coolant: number;
  volts: number;
  lat: number;
}

/** Four simulated hours at 10 s reports. */
function drive(seed: number): Reading[] {
  const v = new SimVehicle(seed, CITIES[1]);
  const out: Reading[] = [];
  let now = Date.parse('2026-12-01T00:00:00Z');
  for (let i = 0; i < 1440; i++) {
    now += 10_000;
    const r = v.step(10, now);
    // The simulator always sets both readings (server/simulator/vehicle.ts report).
    const obd = r.extras?.obd as { coolantTempC: number; powerV: number };
    const acc = typeof r.status === 'object' && r.status.accOn === true;
    out.push({ acc, coolant: obd.coolantTempC, volts: obd.powerV, lat: r.latitude });
  }
  return out;
}

describe('simulated engine readings', () => {
  const a = drive(17);
  const b = drive(7936);

  it('vary: many distinct coolant and voltage values, each within what a running or parked truck reads', () => {
    expect(new Set(a.map((r) => r.coolant)).size).toBeGreaterThan(20);
    expect(new Set(a.map((r) => r.volts)).size).toBeGreaterThan(5);
    for (const r of a) {
      expect(r.coolant).toBeGreaterThanOrEqual(10);
      expect(r.coolant).toBeLessThanOrEqual(100);
      if (r.acc) expect(r.volts).toBeGreaterThanOrEqual(27);
      else expect(r.volts).toBeLessThan(26.5);
    }
  });

  it('warm after the ignition goes on and cool after it goes off', () => {
    const starts = a.flatMap((r, i) => (i > 0 && r.acc && !a[i - 1].acc ? [i] : []));
    const stops = a.flatMap((r, i) => (i > 0 && !r.acc && a[i - 1].acc ? [i] : []));
    expect(starts.length + stops.length).toBeGreaterThan(0);
    for (const i of starts) {
      const run = a.slice(i, i + 12).filter((r) => r.acc);
      if (run.length > 3) expect(run[run.length - 1].coolant).toBeGreaterThan(run[0].coolant);
    }
    for (const i of stops) {
      const rest = a.slice(i, i + 12).filter((r) => !r.acc);
      if (rest.length > 3) expect(rest[rest.length - 1].coolant).toBeLessThan(rest[0].coolant);
    }
  });

  it('differ between two vehicles', () => {
    expect(a.map((r) => r.coolant)).not.toEqual(b.map((r) => r.coolant));
    expect(a.map((r) => r.lat)).not.toEqual(b.map((r) => r.lat));
  });
});
