/**
 * The fence test's quick box (fences.ts: a report outside a box round the fence is outside it)
 * must never answer otherwise than the exact test: random circles, polygons and corridors over the
 * globe, points all round them and on their borders.
 */

import fc from 'fast-check';
import { lineString, polygon } from '@turf/helpers';
import { inside, insideExactly, type FenceArea } from '../../../../server/intelligence/alarms/detectors/fences';

const R = 6_371_008.8;
const rad = (d: number) => (d * Math.PI) / 180;
const deg = (r: number) => (r * 180) / Math.PI;

/** The point `metres` from [lon, lat] on `bearing` (degrees), on the sphere. */
function destination([lon, lat]: readonly number[], metres: number, bearing: number): [number, number] {
  const d = metres / R;
  const t = rad(bearing);
  const p1 = rad(lat);
  const p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(t));
  const l2 = rad(lon) + Math.atan2(Math.sin(t) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
  return [((deg(l2) + 540) % 360) - 180, deg(p2)];
}

const centre = fc.tuple(fc.double({ min: -179.5, max: 179.5, noNaN: true }), fc.double({ min: -85, max: 85, noNaN: true }));
const size = fc.double({ min: 5, max: 60_000, noNaN: true });
/** A scale around the size: far, near, and a hair either side of the border. */
const scale = fc.oneof(fc.double({ min: 0, max: 3, noNaN: true }), fc.constantFrom(1, 1 - 1e-9, 1 + 1e-9, 0.999, 1.001));

const areaArb: fc.Arbitrary<{ area: FenceArea; at: [number, number]; size: number; border: number; vertices: number[][] }> = fc.oneof(
  fc.record({ c: centre, r: size }).map(({ c, r }) => ({
    area: { kind: 'circle', center: [c[0], c[1]], radiusM: r } as FenceArea,
    at: c,
    size: r,
    border: r,
    vertices: [],
  })),
  fc
    .record({
      c: centre,
      r: size,
      n: fc.integer({ min: 3, max: 7 }),
      turns: fc.array(fc.double({ min: 0.3, max: 1, noNaN: true }), { minLength: 7, maxLength: 7 }),
    })
    .map(({ c, r, n, turns }) => {
      const ring = Array.from({ length: n }, (_, k) => destination(c, r * turns[k], (360 / n) * k));
      return { area: { kind: 'polygon', shape: polygon([[...ring, ring[0]]]) } as FenceArea, at: c, size: r, border: r, vertices: ring };
    }),
  fc
    .record({
      c: centre,
      r: size,
      n: fc.integer({ min: 2, max: 5 }),
      bearings: fc.array(fc.double({ min: 0, max: 360, noNaN: true }), { minLength: 5, maxLength: 5 }),
      w: fc.double({ min: 4, max: 1_000, noNaN: true }),
    })
    .map(({ c, r, n, bearings, w }) => {
      const path: number[][] = [c];
      for (let k = 1; k < n; k++) path.push(destination(path[k - 1], r, bearings[k]));
      return {
        area: { kind: 'route', line: lineString(path), halfWidthM: w / 2 } as FenceArea,
        at: c,
        size: r + w,
        border: w / 2,
        vertices: path,
      };
    }),
);

describe('the fence test’s quick box', () => {
  it('answers as the exact test does, all round and on the border', () => {
    let inCount = 0;
    let outCount = 0;
    fc.assert(
      fc.property(
        areaArb,
        fc.array(fc.tuple(scale, fc.double({ min: 0, max: 360, noNaN: true }), fc.nat()), { minLength: 20, maxLength: 20 }),
        ({ area, at, size, border, vertices }, probes) => {
          for (const [f, bearing, k] of probes) {
            // From the centre, or from a vertex (a polygon's corners, a corridor's bends and ends), as
            // far as the whole fence or its border (a corridor's half width) scaled.
            const from = vertices.length && k % 2 ? vertices[k % vertices.length] : at;
            const [longitude, latitude] = destination(from, (k % 3 === 2 ? border : size) * f, bearing);
            const p = { longitude, latitude };
            const exact = insideExactly(area, p);
            expect(inside(area, p)).toBe(exact);
            if (exact) inCount++;
            else outCount++;
          }
        },
      ),
      { numRuns: 1500 },
    );
    expect(inCount).toBeGreaterThan(3_000);
    expect(outCount).toBeGreaterThan(3_000);
  });

  it('answers for a circle and a corridor round their widest points, near the poles and by the antimeridian', () => {
    for (const [lon, lat] of [
      [121.5, 31.2],
      [179.99, 10],
      [-179.99, -10],
      [10, 75],
      [10, 88.5],
      [10, -88.5],
    ]) {
      const area: FenceArea = { kind: 'circle', center: [lon, lat], radiusM: 20_000 };
      for (const bearing of [0, 45, 90, 135, 180, 225, 270, 315])
        for (const f of [0.5, 1 - 1e-9, 1 + 1e-9, 1.5]) {
          const [longitude, latitude] = destination([lon, lat], 20_000 * f, bearing);
          expect(inside(area, { longitude, latitude })).toBe(insideExactly(area, { longitude, latitude }));
        }
      // A corridor east to west: its ends' caps reach furthest in longitude, most so far north or south.
      const route: FenceArea = { kind: 'route', line: lineString([[lon, lat], destination([lon, lat], 1_000, 90)]), halfWidthM: 100 };
      for (const end of route.kind === 'route' ? route.line.geometry.coordinates : [])
        for (const bearing of [0, 60, 90, 120, 180, 240, 270, 300])
          for (const f of [0.5, 0.99, 1.01, 1.5]) {
            const [longitude, latitude] = destination(end, 100 * f, bearing);
            expect(inside(route, { longitude, latitude })).toBe(insideExactly(route, { longitude, latitude }));
          }
    }
  });
});
