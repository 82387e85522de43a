import { catalogues } from '../../../../schemas/kit/catalogue';
import { LANGUAGES } from '../../../../schemas/kit/i18n';
import { COMPASS, compassPoint, coordText, positionCoords } from '../../../../src/pages/location/locationFormat';
import { convertCoord } from '../../../../src/utils/coords';

describe('shared location formatting', () => {
  it('names the nearest of eight compass points', () => {
    expect([0, 22, 23, 45, 90, 135, 180, 225, 270, 315, 337, 338, 359, 360, -90, 765].map(compassPoint)).toEqual([
      'n',
      'n',
      'ne',
      'ne',
      'e',
      'se',
      's',
      'sw',
      'w',
      'nw',
      'nw',
      'n',
      'n',
      'n',
      'w',
      'ne',
    ]);
    for (const lang of LANGUAGES) for (const c of COMPASS) expect(catalogues[lang][`console.location.compass.${c}`]).toBeTruthy();
  });

  it('gives WGS-84 and GCJ-02 coordinates, and puts the marker in the tiles’ system', () => {
    const p = { latitude: 31.2304, longitude: 121.4737, speed: 0, direction: 0, time: '2026-11-20T08:00:00Z' };
    const c = positionCoords(p);
    expect(c.wgs84).toEqual({ lat: 31.2304, lng: 121.4737 });
    expect(c.gcj02).toEqual(convertCoord({ lat: 31.2304, lng: 121.4737 }, 'WGS84', 'GCJ02'));
    // In Shanghai the offset is a few hundred metres.
    expect(Math.abs(c.gcj02.lat - 31.2304)).toBeGreaterThan(0.001);
    expect(c.marker).toEqual(c.wgs84);
    expect(positionCoords(p, 'GCJ02').marker).toEqual(c.gcj02);
    expect(coordText(c.wgs84)).toBe('31.230400, 121.473700');
  });
});
