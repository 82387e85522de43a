/**
 * The simulated fleet follows a temporary tracking asked from the platform (0x8202): a report every
 * `interval` seconds beside its usual ones, through the real gateway, until it is stopped.
 */

import { Fleet } from '../../../server/simulator/fleet';
import { ADMIN_PASSWORD } from '../../helpers/testServer';
import { demoTerminal, startGateway, storedTimes, terminalIdOf, until, type GatewayHarness } from '../telematics/gateway/harness';

describe('temporary tracking in the simulated fleet', () => {
  let h: GatewayHarness;
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    h = await startGateway('pglite', { routes: { commandTimeoutMs: 2000 } });
  });
  afterAll(async () => {
    await fleet?.stop(1000);
    await h.close();
  });

  it('reports every second while tracked, and the stop is answered', async () => {
    const admin = await h.s.login('admin', ADMIN_PASSWORD);
    const phone = demoTerminal(4);
    const id = await terminalIdOf(h.s, phone);
    // Its own reports a minute apart: the first at once, the next long after this test.
    fleet = new Fleet({ host: '127.0.0.1', port: h.port, terminals: [{ phone }], intervalMs: 60_000, outageChance: 0 });
    await fleet.start();
    await until(async () => (await storedTimes(h.s, id)).length === 1);
    const start = await h.s.call(admin, 'POST', `/api/vehicle/terminal/${id}/command/tracking`, {
      interval: 1,
      duration: 60,
      waitMs: 5000,
    });
    expect(start.body.status).toBe('acked');
    await until(async () => (await storedTimes(h.s, id)).length >= 4, 10_000);
    const stop = await h.s.call(admin, 'POST', `/api/vehicle/terminal/${id}/command/tracking`, { interval: 0, duration: 0, waitMs: 5000 });
    expect(stop.body.status).toBe('acked');
    expect(fleet.terminals[0].tracking).toBeNull();
  });
});
