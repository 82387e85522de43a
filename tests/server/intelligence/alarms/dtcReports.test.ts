/**
 * The report-time Fault path reads only a stretch's trouble-code reports and the last one before it
 * of each source (recentDtcReports); the pass reads the whole window (dtcReports). Both must find
 * the same alarms beginning in the stretch, whatever the two sources interleave.
 */
import { faultIntervals } from '../../../../server/intelligence/alarms/detectors/obd';
import { dtcReports, recentDtcReports } from '../../../../server/intelligence/alarms/dtcReports';
import { loadObdRecords, loadPositions } from '../../../../server/intelligence/windowLoad';
import { insertObdRecords } from '../../../../server/telematics/store/obdWriter';
import type { ObdRecordRow } from '../../../../server/telematics/store/obdRecords';
import type { PositionRecord } from '../../../../server/telematics/store/records';
import { insertPositions } from '../../../../server/telematics/store/writer';
import { BACKENDS, startTestServer, type TestServer } from '../../../helpers/testServer';

const T0 = Date.parse('2026-11-26T08:00:00Z');
const CODES = ['P0301', 'P0420', 'U0100'];

/** A small deterministic generator, so a failure names its seed. */
function random(seed: number): () => number {
  let x = seed;
  return () => (x = (x * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

const position = (terminalId: number, vehicleId: number, time: number, extras: PositionRecord['extras']): PositionRecord => ({
  terminalId,
  vehicleId,
  deviceTime: time,
  latitude: 31.2,
  longitude: 121.4,
  altitude: 0,
  speed: 0,
  direction: 0,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: null,
  fuelL: null,
  blind: false,
  extras,
  dtcs: null,
});
const record = (terminalId: number, vehicleId: number, time: number, codes: string[]): ObdRecordRow => ({
  terminalId,
  vehicleId,
  deviceTime: time,
  subtype: 2,
  archive: false,
  vehicleType: 0,
  latitude: 31.2,
  longitude: 121.4,
  status: null,
  readings: null,
  detail: null,
  dtcs: codes.map((text, i) => ({ systemId: 1, dtc: i, status: 1, text })),
});

describe.each(BACKENDS)('trouble-code reports of a stretch on %s', (backend) => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer(backend);
  });
  afterAll(() => s.close());

  it('find the alarms beginning in the stretch that a read of the whole look-back finds', async () => {
    const db = s.database.db;
    // One fixed case first: the report before the stretch is two back, past a position whose list is JSON null.
    const fixed = 880_000;
    await insertPositions(db, [
      position(fixed, fixed, T0, { obd: { dtcs: [] } }),
      position(fixed, fixed, T0 + 10_000, { obd: { dtcs: null } } as PositionRecord['extras']),
      position(fixed, fixed, T0 + 20_000, { obd: { dtcs: ['P0301'] } }),
    ]);
    const spans = [{ vehicleId: fixed, from: T0 + 20_000, to: T0 + 20_000, back: T0 }];
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const vehicleId = 880_000 + seed;
      const positions: PositionRecord[] = [];
      const records: ObdRecordRow[] = [];
      for (let i = 0; i < 40; i++) {
        const time = T0 + i * 10_000;
        const codes = CODES.filter(() => next() < 0.35);
        const pick = next();
        // Positions with an OBD block, with none, with JSON null falling through to obdF3, and OBD records.
        if (pick < 0.3) positions.push(position(vehicleId, vehicleId, time, { obd: { dtcs: codes } }));
        else if (pick < 0.45) positions.push(position(vehicleId, vehicleId, time, null));
        else if (pick < 0.55)
          positions.push(position(vehicleId, vehicleId, time, { obd: { dtcs: null }, obdF3: { dtcs: codes } } as PositionRecord['extras']));
        else if (pick < 0.6) positions.push(position(vehicleId, vehicleId, time, { obd: { dtcs: 'P0301' } } as PositionRecord['extras']));
        else records.push(record(vehicleId, vehicleId, time, codes));
      }
      await insertPositions(db, positions);
      await insertObdRecords(db, records);
      const from = T0 + Math.floor(next() * 30) * 10_000;
      spans.push({ vehicleId, from, to: from + Math.floor(next() * 8) * 10_000, back: T0 });
    }
    const recent = await recentDtcReports(db, spans);
    const none = () => null;
    let alarms = 0;
    for (const [i, span] of spans.entries()) {
      const range = { from: span.back, to: span.to + 1 };
      const whole = dtcReports(await loadPositions(db, span.vehicleId, range), await loadObdRecords(db, span.vehicleId, range));
      const key = (a: { subject: string; begin: number }) => `${a.subject}@${a.begin}`;
      const begun = (reports: typeof whole) => {
        const first = Math.min(...reports.map((r) => r.time));
        return faultIntervals(reports, none)
          .filter((a) => a.begin >= span.from && a.begin > first)
          .map(key)
          .sort();
      };
      expect({ seed: i, alarms: begun(recent[i]) }).toEqual({ seed: i, alarms: begun(whole) });
      alarms += begun(whole).length;
      // Only the stretch and one report of each source before it were read.
      expect(recent[i].filter((r) => r.time < span.from).length).toBeLessThanOrEqual(2);
    }
    expect(recent[0].map((r) => r.codes)).toEqual([[], ['P0301']]);
    // The sequences are not so quiet that the comparison is empty.
    expect(alarms).toBeGreaterThan(5);
  });
});
