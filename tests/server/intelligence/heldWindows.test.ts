import type { DeriveObdRecord, DerivePosition, DeriveWindow, VehicleContext } from '../../../server/intelligence/deriver';
import { heldFrom, HeldWindows, newestOf } from '../../../server/intelligence/heldWindows';
import { positionAt, T0 } from './positionAt';

const min = 60_000;
const p = (minute: number): DerivePosition => positionAt(minute);
const obd = (minute: number): DeriveObdRecord => ({
  time: T0 + minute * min,
  subtype: 1,
  latitude: null,
  longitude: null,
  readings: null,
  detail: null,
  dtcCount: 0,
});
const vehicle = (vehicleId: number) => ({ vehicleId }) as VehicleContext; // only the id is read
const windowOf = (vehicleId: number, minutes: number[], o: Partial<DeriveWindow> = {}): DeriveWindow => ({
  vehicle: vehicle(vehicleId),
  from: T0 + minutes[0] * min,
  to: Infinity,
  before: p(minutes[0] - 1),
  after: null,
  positions: minutes.map(p),
  obdRecords: [],
  ...o,
});
const at = (minute: number) => T0 + minute * min;

describe('held windows', () => {
  it('serve only a live pass that begins inside them, with the sequence this process wrote: whole after everything held, else up to its pending range', () => {
    const held = new HeldWindows({ maxPositions: 100, maxPerVehicle: 50 });
    held.keep(windowOf(1, [10, 11, 12]), at(12), 7);
    const pass = { from: at(10), to: Infinity, pendingFrom: at(13), derivedSeq: 7 };
    expect(held.usable(1, pass)).not.toBeNull();
    expect(held.usable(2, pass)).toBeNull();
    // A late report inside what is held (or writers committing out of order): only the part
    // before it serves, and the pass reads the rest again.
    held.keep(windowOf(1, [10, 11, 12], { obdRecords: [obd(10.5), obd(11.5)] }), at(12), 7);
    expect(held.usable(1, { ...pass, pendingFrom: at(11) })).toMatchObject({
      from: at(10),
      through: at(11) - 1,
      before: p(9),
      positions: [p(10)],
      obdRecords: [obd(10.5)],
    });
    expect(held.usable(1, { ...pass, pendingFrom: at(12) })).toMatchObject({
      through: at(12) - 1,
      positions: [p(10), p(11)],
      obdRecords: [obd(10.5), obd(11.5)],
    });
    // One at the window's start, a bounded pass, a window reaching back before it, another
    // process's derivation: each drops it.
    for (const bad of [{ pendingFrom: at(10) }, { to: at(20) }, { from: at(9) }, { derivedSeq: 8 }, { derivedSeq: null }]) {
      held.keep(windowOf(1, [10, 11, 12]), at(12), 7);
      expect(held.usable(1, { ...pass, ...bad })).toBeNull();
      expect(held.size).toBe(0);
      expect(held.usable(1, pass)).toBeNull();
    }
  });

  it('holds nothing of a bounded window, an empty one, or one longer than the limit, and drops the least recently derived beyond the total', () => {
    const held = new HeldWindows({ maxPositions: 5, maxPerVehicle: 3 });
    held.keep(windowOf(1, [1, 2, 3], { to: at(4) }), at(3), 1);
    held.keep(windowOf(2, [1, 2, 3, 4]), at(4), 1);
    held.keep({ ...windowOf(3, [1]), positions: [] }, -Infinity, 1);
    expect(held.size).toBe(0);
    held.keep(windowOf(1, [1, 2]), at(2), 1);
    held.keep(windowOf(2, [1, 2]), at(2), 1);
    held.keep(windowOf(1, [1, 2]), at(2), 2); // vehicle 1 derived again: now the most recent
    held.keep(windowOf(3, [1, 2]), at(2), 1);
    expect(held.positions).toBe(4);
    expect(held.usable(2, { from: at(1), to: Infinity, pendingFrom: at(3), derivedSeq: 1 })).toBeNull();
    expect(held.usable(1, { from: at(1), to: Infinity, pendingFrom: at(3), derivedSeq: 2 })).not.toBeNull();
    held.forget([1, 3, 99]);
    expect(held.positions).toBe(0);
  });

  it('answers the part from a later start with the position before it, and the newest time of positions and OBD records', () => {
    const w = windowOf(1, [10, 11, 12, 13], { obdRecords: [obd(10.5), obd(12.5)] });
    const h = { from: w.from, through: at(13), before: w.before, positions: w.positions, obdRecords: w.obdRecords, seq: 1 };
    expect(heldFrom(h, at(10))).toEqual({ before: p(9), positions: w.positions, obdRecords: w.obdRecords });
    expect(heldFrom(h, at(12))).toEqual({ before: p(11), positions: [p(12), p(13)], obdRecords: [obd(12.5)] });
    expect(heldFrom(h, at(14))).toEqual({ before: p(13), positions: [], obdRecords: [] });
    expect(newestOf(w)).toBe(at(13));
    expect(newestOf({ positions: [p(1)], obdRecords: [obd(2)] })).toBe(at(2));
    expect(newestOf({ positions: [], obdRecords: [] }, at(5))).toBe(at(5));
    expect(newestOf({ positions: [], obdRecords: [] })).toBe(-Infinity);
  });
});
