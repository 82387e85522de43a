/**
 * readBcdTime counts days itself and isoFromEpochMs reuses the last minute's text: both against
 * the built-ins on every day of 2000-2099 and across minute, day and year boundaries.
 */
import { isoFromEpochMs, readBcdTime } from '../../../../server/telematics/jt808/time';

const bcd = (v: number) => ((v / 10) | 0) * 16 + (v % 10);
const bcdTime = (yy: number, mo: number, dd: number, hh: number, mi: number, ss: number) => Buffer.from([yy, mo, dd, hh, mi, ss].map(bcd));

describe('BCD time arithmetic', () => {
  it('matches Date.UTC on every day of 2000-2099, in three timezones, and rejects impossible days', () => {
    for (const tz of [480, 0, -300]) {
      for (let yy = 0; yy < 100; yy++) {
        for (let mo = 1; mo <= 12; mo++) {
          for (let dd = 1; dd <= 31; dd++) {
            const real = new Date(Date.UTC(2000 + yy, mo - 1, dd)).getUTCDate() === dd;
            const ms = readBcdTime(bcdTime(yy, mo, dd, 23, 59, 58), 0, tz);
            const expected = real ? Date.UTC(2000 + yy, mo - 1, dd, 23, 59, 58) - tz * 60_000 : NaN;
            if (!Object.is(ms, expected)) throw new Error(`20${yy}-${mo}-${dd} tz ${tz}: ${ms} != ${expected}`);
          }
        }
      }
    }
  });

  it('formats like toISOString across second, minute, day and year boundaries', () => {
    const start = Date.UTC(2025, 11, 31, 23, 58, 0);
    for (let ms = start; ms < start + 4 * 60_000; ms += 1000) expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
    for (const ms of [start + 123, 0, -1000, Date.UTC(2024, 1, 29, 12, 0, 0), Date.UTC(2100, 0, 1), start, start + 1]) {
      expect(isoFromEpochMs(ms)).toBe(new Date(ms).toISOString());
    }
  });
});
