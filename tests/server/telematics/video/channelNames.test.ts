/**
 * Camera channel names: a vehicle model names its vehicles' channels, one a line; the vehicle's
 * video window lists at least the usual four channels, each with its model's name or none (the
 * console's default). Only those who see the vehicle get them.
 */

import { sql } from 'kysely';
import { parseChannelNames } from '../../../../server/telematics/video/channelNames';
import { startVideo, type Harness } from './harness';

describe('camera channel names', () => {
  it('reads a model’s lines as channel 1, 2, …; blank lines are no name', () => {
    expect(parseChannelNames(' 前方 \n\r\n车厢\n')).toEqual(['前方', null, '车厢']);
    expect(parseChannelNames(null)).toEqual([]);
    expect(parseChannelNames(Array.from({ length: 20 }, (_, i) => `c${i + 1}`).join('\n'))).toHaveLength(16);
  });

  describe('over the API', () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startVideo('pglite');
    }, 240_000);
    afterAll(() => h?.close());

    it('names a vehicle’s channels as its model does, else leaves them to the default', async () => {
      const db = h.s.database.db;
      const v = await sql<{ id: number; org_id: number }>`SELECT id, org_id FROM vehicle ORDER BY id LIMIT 1`.execute(db);
      const { id, org_id: orgId } = v.rows[0];
      const plain = await h.s.call(h.admin, 'GET', `/api/video/channels?vehicleId=${id}`);
      expect(plain.status).toBe(200);
      expect(plain.body.channels).toEqual([1, 2, 3, 4].map((channel) => ({ channel, name: null })));

      await sql`UPDATE vehicle SET model = 'City Bus 12' WHERE id = ${id}`.execute(db);
      await sql`INSERT INTO vehicle_model (org_id, model_name, camera_channels)
        VALUES (${orgId}, 'city bus 12', ${'前门\n\n车厢\n后门\n驾驶员\n'})`.execute(db);
      const named = await h.s.call(h.admin, 'GET', `/api/video/channels?vehicleId=${id}`);
      expect(named.body.channels).toEqual([
        { channel: 1, name: '前门' },
        { channel: 2, name: null },
        { channel: 3, name: '车厢' },
        { channel: 4, name: '后门' },
        { channel: 5, name: '驾驶员' },
      ]);

      // Another organisation's member does not see the vehicle.
      const org = await sql<{ code: string }>`
        SELECT o.code FROM organisation o, vehicle v JOIN organisation vo ON vo.id = v.org_id
        WHERE v.id = ${id} AND o.parent_id IS NOT NULL AND vo.path NOT LIKE o.path || '%' LIMIT 1`.execute(db);
      const stranger = await h.s.memberToken(org.rows[0].code, 'orgUser', []);
      expect((await h.s.call(stranger, 'GET', `/api/video/channels?vehicleId=${id}`)).status).toBe(404);
    });
  });
});
