import { fromMapLatLng, toMapLatLng } from '../../../../src/components/map/projection';

describe('map projection', () => {
  it('leaves WGS-84 tiles alone and shifts onto GCJ-02 tiles inside China, and back', () => {
    expect(toMapLatLng(22.54, 114.05, 'WGS84')).toEqual([22.54, 114.05]);
    const [lat, lng] = toMapLatLng(22.54, 114.05, 'GCJ02');
    // Shenzhen: GCJ-02 lies a few hundred metres off WGS-84.
    expect(Math.abs(lat - 22.54)).toBeGreaterThan(0.001);
    expect(Math.abs(lng - 114.05)).toBeGreaterThan(0.001);
    const back = fromMapLatLng(lat, lng, 'GCJ02');
    expect(back.latitude).toBeCloseTo(22.54, 5);
    expect(back.longitude).toBeCloseTo(114.05, 5);
    // Outside China GCJ-02 equals WGS-84.
    expect(toMapLatLng(48.85, 2.35, 'GCJ02')).toEqual([48.85, 2.35]);
  });
});
