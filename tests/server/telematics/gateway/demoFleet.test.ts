import { demoFleet } from '../../../../server/simulator/demo';
import { Fleet } from '../../../../server/simulator/fleet';
import { BACKENDS } from '../../../helpers/testServer';
import { demoTerminal, startGateway, until, type GatewayHarness } from './harness';

/**
 * A terminal registers once, so the demo fleet of a second `npm start` on the same database must
 * authenticate with the codes its terminals were issued before, not register again.
 */
describe.each(BACKENDS)('the demo fleet after a restart on %s', (backend) => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGateway(backend);
  });
  afterAll(() => h.close());

  it('reads the issued codes from the database and gets back in without registering', async () => {
    const before = await demoFleet(h.s.database.db, 2);
    expect(before.map((t) => t.authCode)).toEqual([undefined, undefined]); // never registered yet
    const first = new Fleet({ host: '127.0.0.1', port: h.port, terminals: before, intervalMs: 60_000, outageChance: 0 });
    await first.start();
    expect(first.stats()).toMatchObject({ online: 2, refused: 0 });
    const codes = first.terminals.map((t) => t.authCode);
    await first.stop(1000);

    const after = await demoFleet(h.s.database.db, 2);
    expect(after.map((t) => t.phone)).toEqual(before.map((t) => t.phone));
    expect(after.map((t) => t.authCode)).toEqual(codes);
    const registrations = h.gateway.stats.registrations;
    const second = new Fleet({ host: '127.0.0.1', port: h.port, terminals: after, intervalMs: 60_000, outageChance: 0 });
    try {
      await second.start();
      await until(() => second.stats().online === 2);
      expect(second.stats().refused).toBe(0);
      expect(h.gateway.stats.registrations).toBe(registrations); // authenticated, not registered
      expect(after.map((t) => t.phone)).toContain(demoTerminal(1));
    } finally {
      await second.stop(1000);
    }
  });
});
