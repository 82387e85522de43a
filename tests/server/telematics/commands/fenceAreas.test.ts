/**
 * A platform fence as a terminal-side area (server/telematics/commands/fenceAreas.ts), pure: the
 * hemisphere bits and corners where the signs are not those of China, and what cannot be sent.
 */

import { AppError } from '../../../../server/platform/http/errors';
import { deleteAreaMessage, setAreaMessage, type FenceRow } from '../../../../server/telematics/commands/fenceAreas';
import { MsgId } from '../../../../server/telematics/jt808/codec';

const row = (fence_type: string, geometry: unknown, more: Partial<FenceRow> = {}): FenceRow => ({
  id: 7,
  name: 'F',
  fence_type,
  geometry,
  alarm_on_enter: true,
  alarm_on_exit: true,
  speed_limit: null,
  ...more,
});

const refusal = (f: FenceRow): string => {
  try {
    setAreaMessage(f);
  } catch (e) {
    if (e instanceof AppError) return e.key;
    throw e;
  }
  throw new Error('sent');
};

describe('fence → terminal area', () => {
  it('a rectangle south and west of Greenwich: bits 6 and 7, corners by magnitude', () => {
    // Buenos Aires: -58.5…-58.3 E, -34.7…-34.5 N.
    const m = setAreaMessage(
      row('rectangle', {
        points: [
          [-58.5, -34.7],
          [-58.3, -34.7],
          [-58.3, -34.5],
          [-58.5, -34.5],
        ],
      }),
    );
    expect(m.msgId).toBe(MsgId.SetRectangleAreas);
    expect(m).toMatchObject({
      body: {
        areas: [
          {
            attributes: 0x3c | 0x40 | 0x80,
            topLeft: { latitude: 34.5, longitude: 58.5 },
            bottomRight: { latitude: 34.7, longitude: 58.3 },
          },
        ],
      },
    });
  });

  it('a circle just south of the equator carries the south bit', () => {
    expect(setAreaMessage(row('circle', { center: [121, -0.0001], radius: 10 }))).toMatchObject({
      body: { areas: [{ attributes: 0x3c | 0x40, centre: { latitude: -0.0001, longitude: 121 } }] },
    });
  });

  it('no alarms and no speed limit: attributes 0; a speed limit sets bit 1 with 10 s', () => {
    const plain = setAreaMessage(row('circle', { center: [121, 31], radius: 10 }, { alarm_on_enter: false, alarm_on_exit: false }));
    expect(plain).toMatchObject({ body: { areas: [{ attributes: 0, radius: 10 }] } });
    const limited = setAreaMessage(
      row(
        'polygon',
        {
          points: [
            [121, 31],
            [121.1, 31],
            [121, 31.1],
            [121, 31],
          ],
        },
        { speed_limit: 60 },
      ),
    );
    // The closing point is not sent again.
    expect(limited).toMatchObject({ body: { attributes: 0x3e, maxSpeed: 60, overspeedSeconds: 10 } });
    expect(limited.msgId === MsgId.SetPolygonArea && limited.body.vertices).toHaveLength(3);
  });

  it('refuses a district, a fence across the equator, a route wider than a BYTE and a polygon past one packet', () => {
    expect(refusal(row('district', { districtCode: '330106' }))).toBe('telematics.fenceNotForTerminal');
    expect(
      refusal(
        row('polygon', {
          points: [
            [121, -1],
            [121.1, 1],
            [121, 1],
          ],
        }),
      ),
    ).toBe('telematics.fenceAcrossHemispheres');
    expect(
      refusal(
        row('route', {
          path: [
            [121, 31],
            [121.1, 31],
          ],
          width: 256,
        }),
      ),
    ).toBe('telematics.fenceRouteTooWide');
    const ring = Array.from({ length: 130 }, (_, i) => [121 + Math.cos(i / 20), 31 + Math.sin(i / 20)]);
    expect(refusal(row('polygon', { points: ring }))).toBe('telematics.fenceTooLarge');
  });

  it('deletes by the fence’s type and id', () => {
    expect(deleteAreaMessage({ id: 9, fence_type: 'route' })).toEqual({ msgId: MsgId.DeleteRoutes, body: { ids: [9] } });
    expect(deleteAreaMessage({ id: 9, fence_type: 'circle' })).toEqual({ msgId: MsgId.DeleteCircleAreas, body: { ids: [9] } });
    expect(() => deleteAreaMessage({ id: 9, fence_type: 'district' })).toThrow(AppError);
  });
});
