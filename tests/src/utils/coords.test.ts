import { convertCoord, convertCoordsInPlace, convertTrack, type CoordSystem, type LngLat } from '../../../src/utils/coords';

/** Great-circle distance in metres, to express tolerances physically. */
function metres(a: LngLat, b: LngLat): number {
  const R = 6_371_000;
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

const BEIJING: LngLat = { lng: 116.403988, lat: 39.914266 };
const SHANGHAI: LngLat = { lng: 121.473701, lat: 31.230416 };
const LONDON: LngLat = { lng: -0.127758, lat: 51.507351 };
const TOKYO: LngLat = { lng: 139.691706, lat: 35.689487 };

describe('convertCoord', () => {
  it('matches the published gcoord examples', () => {
    // From the gcoord README: WGS84 → BD09 and GCJ02 → WGS84.
    const bd = convertCoord(BEIJING, 'WGS84', 'BD09');
    expect(bd.lng).toBeCloseTo(116.41661560068297, 9);
    expect(bd.lat).toBeCloseTo(39.92196580126834, 9);
    const wgs = convertCoord({ lng: 123, lat: 45 }, 'GCJ02', 'WGS84');
    expect(wgs.lng).toBeCloseTo(122.99395597, 6);
    expect(wgs.lat).toBeCloseTo(44.99804071, 6);
  });

  it('shifts WGS84 → GCJ02 by the expected few hundred metres in Beijing', () => {
    const gcj = convertCoord(BEIJING, 'WGS84', 'GCJ02');
    expect(gcj.lng).toBeCloseTo(116.41023, 4);
    expect(gcj.lat).toBeCloseTo(39.91567, 4);
    const shift = metres(BEIJING, gcj);
    expect(shift).toBeGreaterThan(300);
    expect(shift).toBeLessThan(800);
  });

  it.each([
    ['Beijing', BEIJING],
    ['Shanghai', SHANGHAI],
  ])('round-trips %s through every system within 1 m', (_name, p) => {
    const systems: CoordSystem[] = ['WGS84', 'GCJ02', 'BD09'];
    for (const from of systems) {
      for (const to of systems) {
        const back = convertCoord(convertCoord(p, from, to), to, from);
        expect(metres(p, back)).toBeLessThan(1);
      }
    }
  });

  it('leaves points outside China unchanged between WGS84 and GCJ02', () => {
    for (const p of [LONDON, TOKYO, { lng: -74.006, lat: 40.7128 }]) {
      expect(convertCoord(p, 'WGS84', 'GCJ02')).toEqual(p);
      expect(convertCoord(p, 'GCJ02', 'WGS84')).toEqual(p);
    }
  });

  it('still applies the BD09 formula outside China (gcoord behaviour)', () => {
    const bd = convertCoord(LONDON, 'WGS84', 'BD09');
    expect(metres(LONDON, bd)).toBeGreaterThan(100);
  });

  it('returns a copy for identity conversions and passes non-finite points through', () => {
    const out = convertCoord(BEIJING, 'GCJ02', 'GCJ02');
    expect(out).toEqual(BEIJING);
    expect(out).not.toBe(BEIJING);
    expect(convertCoord({ lng: Number.NaN, lat: 39 }, 'WGS84', 'BD09')).toEqual({ lng: Number.NaN, lat: 39 });
  });
});

describe('convertTrack', () => {
  interface TrackPoint extends LngLat {
    time: number;
    speed: number;
  }
  const track: TrackPoint[] = [
    { ...BEIJING, time: 1, speed: 10 },
    { lng: Number.NaN, lat: Number.NaN, time: 2, speed: 0 },
    { ...SHANGHAI, time: 3, speed: 20 },
    { ...LONDON, time: 4, speed: 30 },
  ];

  it('matches point-wise conversion and keeps extra fields', () => {
    const out = convertTrack(track, 'WGS84', 'GCJ02');
    expect(out).toHaveLength(4);
    expect(out[0]).toEqual({ ...convertCoord(BEIJING, 'WGS84', 'GCJ02'), time: 1, speed: 10 });
    expect(out[1]).toEqual({ lng: Number.NaN, lat: Number.NaN, time: 2, speed: 0 });
    expect(out[2]).toEqual({ ...convertCoord(SHANGHAI, 'WGS84', 'GCJ02'), time: 3, speed: 20 });
    expect(out[3]).toEqual({ ...LONDON, time: 4, speed: 30 });
  });

  it('does not mutate the input', () => {
    const copy = track.map((p) => ({ ...p }));
    const out = convertTrack(track, 'WGS84', 'BD09');
    expect(track).toEqual(copy);
    expect(out[0]).not.toBe(track[0]);
  });

  it('handles empty and identity conversions', () => {
    expect(convertTrack([], 'WGS84', 'BD09')).toEqual([]);
    const same = convertTrack(track, 'BD09', 'BD09');
    expect(same).toEqual(track);
    expect(same[0]).not.toBe(track[0]);
  });
});

describe('convertCoordsInPlace', () => {
  it('converts interleaved lng/lat pairs in place', () => {
    const flat = new Float64Array([BEIJING.lng, BEIJING.lat, SHANGHAI.lng, SHANGHAI.lat]);
    const result = convertCoordsInPlace(flat, 'WGS84', 'BD09');
    expect(result).toBe(flat);
    const b = convertCoord(BEIJING, 'WGS84', 'BD09');
    const s = convertCoord(SHANGHAI, 'WGS84', 'BD09');
    expect(Array.from(flat)).toEqual([b.lng, b.lat, s.lng, s.lat]);
  });

  it('skips non-finite pairs and an odd trailing value', () => {
    const arr = [Number.NaN, 30, LONDON.lng, LONDON.lat, 7];
    convertCoordsInPlace(arr, 'GCJ02', 'WGS84');
    expect(arr).toEqual([Number.NaN, 30, LONDON.lng, LONDON.lat, 7]);
  });
});
