import { fenceGeometryProblem, openRing, selfIntersects } from '../../schemas/kit/fenceGeometry';
import { paramList, paramProblem, paramValues, TERMINAL_PARAMS } from '../../schemas/kit/terminalParams';

/** The fence rule the server and the map editor share, and the parameters form's checks. */
describe('fence geometry rule', () => {
  const square = [
    [121.4, 31.1],
    [121.5, 31.1],
    [121.5, 31.2],
    [121.4, 31.2],
  ];
  it('accepts each type in its own shape', () => {
    expect(fenceGeometryProblem('circle', { center: [121.4, 31.1], radius: 50 })).toBeNull();
    expect(fenceGeometryProblem('polygon', { points: square })).toBeNull();
    expect(fenceGeometryProblem('polygon', { points: [...square, square[0]] })).toBeNull();
    expect(fenceGeometryProblem('rectangle', { points: square })).toBeNull();
    expect(
      fenceGeometryProblem('route', {
        path: [
          [121.4, 31.1],
          [121.5, 31.1],
        ],
        width: 30,
      }),
    ).toBeNull();
    expect(fenceGeometryProblem('district', { districtCode: '310115' })).toBeNull();
  });
  it('names what is wrong', () => {
    const key = (t: Parameters<typeof fenceGeometryProblem>[0], g: Parameters<typeof fenceGeometryProblem>[1]) =>
      fenceGeometryProblem(t, g)?.key;
    expect(key('polygon', null)).toBe('validation.fence.missing');
    expect(key('polygon', { points: [square[0], square[2], square[1], square[3]] })).toBe('validation.fence.selfIntersecting');
    expect(key('polygon', { points: [square[0], square[1]] })).toBe('validation.fence.tooFewPoints');
    expect(key('rectangle', { points: [...square.slice(0, 3), [121.41, 31.2]] })).toBe('validation.fence.notRectangle');
    expect(key('circle', { center: [200, 31], radius: 5 })).toBe('validation.fence.outOfRange');
    expect(key('route', { path: [[121.4, 31.1]], width: 5 })).toBe('validation.fence.tooFewPoints');
    expect(key('district', {})).toBe('validation.fence.districtRequired');
    expect(key('district', null)).toBe('validation.fence.districtRequired');
  });
  it('finds crossing edges but not neighbours meeting at a corner', () => {
    expect(selfIntersects(openRing([...square, square[0]]))).toBe(false);
    expect(
      selfIntersects([
        [0, 0],
        [2, 2],
        [2, 0],
        [0, 2],
      ]),
    ).toBe(true);
  });
});

describe('terminal parameters', () => {
  const def = (name: string) => TERMINAL_PARAMS.find((d) => d.name === name)!;
  it('checks each value against its bounds and sends only what was filled in', () => {
    expect(paramProblem(def('maxSpeed'), 301)).toEqual({ key: 'validation.maximum', params: { limit: 300 } });
    expect(paramProblem(def('heartbeatInterval'), 0)).toEqual({ key: 'validation.minimum', params: { limit: 1 } });
    expect(paramProblem(def('heartbeatInterval'), 1.5)?.key).toBe('validation.integer');
    expect(paramProblem(def('apn'), 'x'.repeat(65))?.key).toBe('validation.maxLength');
    expect(paramProblem(def('apn'), 'cmnet')).toBeNull();
    expect(paramList({ heartbeatInterval: 30, apn: '', plate: null, maxSpeed: 90 })).toEqual([
      { id: 0x0001, type: 'u32', value: 30 },
      { id: 0x0055, type: 'u32', value: 90 },
    ]);
  });

  it('turns a terminal’s answer (0x0104) into the form’s values, leaving out what the form cannot show', () => {
    expect(
      paramValues([
        { id: 0x0001, type: 'u32', value: 30 },
        { id: 0x0010, type: 'string', value: 'cmnet' },
        { id: 0x0055, type: 'u16', value: 90 }, // another width, still a number
        { id: 0x0083, type: 'bytes', value: '00ff' }, // the plate as raw bytes: not text
        { id: 0x0027, type: 'string', value: '60' }, // a number field answered as text
        { id: 0xf001, type: 'u32', value: 7 }, // an id the form does not name
      ]),
    ).toEqual({ heartbeatInterval: 30, apn: 'cmnet', maxSpeed: 90 });
    expect(paramValues([])).toEqual({});
    // Round trip: what the form sends comes back as the same values.
    const values = { heartbeatInterval: 30, plate: '浙A12345', odometer: 123456 };
    expect(paramValues(paramList(values))).toEqual(values);
  });
});
