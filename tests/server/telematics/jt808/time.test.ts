import fc from 'fast-check';
import { isoFromEpochMs, readBcdTime, writeBcdTime } from '../../../../server/telematics/jt808/time';

describe('BCD time', () => {
  const bcd = (s: string): Buffer => Buffer.from(s, 'hex');

  it('reads YYMMDDhhmmss in GMT+8 by default and other offsets on request', () => {
    expect(new Date(readBcdTime(bcd('240229235959'), 0, 480)).toISOString()).toBe('2024-02-29T15:59:59.000Z');
    expect(new Date(readBcdTime(bcd('250101000000'), 0, 480)).toISOString()).toBe('2024-12-31T16:00:00.000Z');
    expect(new Date(readBcdTime(bcd('250101000000'), 0, -300)).toISOString()).toBe('2025-01-01T05:00:00.000Z');
  });

  it.each(['000000000000', '231301000000', '230230000000', '230229000000', '231231240000', '2312312359a0', '231231235960'])(
    'rejects %s',
    (s) => {
      expect(readBcdTime(bcd(s), 0, 480)).toBeNaN();
    },
  );

  it('writes what it reads', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 2), max: Date.UTC(2099, 11, 30) }), fc.integer({ min: -720, max: 840 }), (ms, tz) => {
        const t = ms - (ms % 1000);
        const b = Buffer.alloc(6);
        writeBcdTime(b, 0, t, tz);
        expect(readBcdTime(b, 0, tz)).toBe(t);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('isoFromEpochMs', () => {
  it('matches Date#toISOString, including across its same-day cache', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2110, 0, 1) }), { minLength: 1, maxLength: 20 }), (xs) => {
        for (const x of xs) {
          const whole = x - (x % 1000);
          expect(isoFromEpochMs(whole)).toBe(new Date(whole).toISOString());
          expect(isoFromEpochMs(whole + 1000)).toBe(new Date(whole + 1000).toISOString());
          expect(isoFromEpochMs(x)).toBe(new Date(x).toISOString());
        }
      }),
      { numRuns: 500 },
    );
  });
});
