import net from 'node:net';
import { sql } from 'kysely';
import { startForwarding, type ForwardingService, type LinkView } from '../../../server/forwarding';
import { parseTargetAllow } from '../../../server/notify/target';
import { createBus } from '../../../server/platform/bus';
import { encodeMessage, MsgId, type Jt808BodyInput } from '../../../server/telematics/jt808/codec';
import { BACKENDS } from '../../helpers/testServer';
import { demoTerminal, RawClient, startGateway, until, type GatewayHarness } from '../telematics/gateway/harness';

/** A partner platform: keeps every JT/T 808 wire frame it receives, per connection, as received. */
class Partner {
  frames: Buffer[] = [];
  connections = 0;
  port = 0;
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();

  async start(port = 0): Promise<void> {
    const server = net.createServer((s) => {
      this.connections++;
      this.sockets.add(s);
      s.on('close', () => this.sockets.delete(s));
      let open: number[] | null = null;
      s.on('data', (chunk) => {
        for (const b of chunk) {
          if (b !== 0x7e) open?.push(b);
          else if (open && open.length) {
            this.frames.push(Buffer.from([0x7e, ...open, 0x7e]));
            open = null;
          } else open = [];
        }
      });
    });
    await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }
}

/**
 * Raw JT/T 808 forwarding through the real gateway: a terminal of the link's organisation has its
 * frames passed on byte for byte once authenticated, one of another organisation has none; while
 * the partner is down the newest frames wait within the backlog (the oldest dropped and counted)
 * and arrive once it is back.
 */
describe.each(BACKENDS)('raw JT/T 808 forwarding on %s', (backend) => {
  let h: GatewayHarness;
  let fwd: ForwardingService | undefined;
  let partner: Partner;
  const hd = demoTerminal(3); // HD-SH
  const hn = demoTerminal(18); // HN-SZ
  const link = (): LinkView => fwd!.links()[0];
  /** The partner runs on this machine: the outbound address guard refuses loopback unless allowed. */
  const LOOPBACK = parseTargetAllow('127.0.0.1');

  beforeAll(async () => {
    h = await startGateway(backend, { gateway: { frameTap: (t, p) => fwd?.tapFrame(t, p) } });
    partner = new Partner();
    await partner.start();
    await sql`
      INSERT INTO forward_link (org_id, name, protocol, host, port, backlog_limit)
      VALUES (${await h.s.orgId('HD')}, 'partner', 'jt808', '127.0.0.1', ${partner.port}, 3)`.execute(h.s.database.db);
    fwd = await startForwarding(createBus(), { db: h.s.database.db, backoffMinMs: 50, backoffMaxMs: 200, allow: LOOPBACK });
  });
  afterAll(async () => {
    await fwd?.stop();
    await partner?.stop();
    await h?.close();
  });

  /** A terminal signed in over a raw connection, so the test knows each byte it sends. */
  const codes = new Map<string, string>();
  const session = async (phone: string) => {
    let code = codes.get(phone);
    if (!code) {
      const t = h.terminal(phone);
      await t.connect();
      code = t.authCode!;
      codes.set(phone, code);
      await t.end();
    }
    const raw = await RawClient.open(h.port);
    const frames: Buffer[] = [];
    const send = (m: Jt808BodyInput) => {
      const serial = raw.send(phone, m);
      frames.push(encodeMessage({ phone, serial, version: 2013 }, m));
    };
    send({ msgId: MsgId.Auth, body: { code } });
    await raw.waitFor(1);
    return { raw, frames, send };
  };
  const fix = (i: number): Jt808BodyInput => ({
    msgId: MsgId.Location,
    body: { latitude: 31.2 + i / 1000, longitude: 121.4, speed: 40, direction: 90, time: Date.UTC(2026, 11, 7, 6, 0, i) },
  });

  it("passes on the link's terminals' frames as they were sent, and no other's", async () => {
    const a = await session(hd);
    const b = await session(hn);
    for (const i of [1, 2, 3]) {
      a.send(fix(i));
      b.send(fix(i));
    }
    await a.raw.waitFor(4);
    await b.raw.waitFor(4);
    await until(() => partner.frames.length >= a.frames.length && partner.frames.slice(-4).every((f, i) => f.equals(a.frames[i])));
    expect(partner.frames.slice(-4)).toEqual(a.frames);
    expect(partner.frames.filter((f) => b.frames.some((x) => x.equals(f)))).toEqual([]);
    expect(link()).toMatchObject({ protocol: 'jt808', state: 'up', backlog: 0, connections: 1 });
    a.raw.destroy();
    b.raw.destroy();
  });

  it('keeps the newest frames while the partner is down and sends them when it is back', async () => {
    await partner.stop();
    const before = link().counters.sent.frame;
    const a = await session(hd);
    for (const i of [4, 5, 6, 7, 8]) a.send(fix(i));
    await a.raw.waitFor(6);
    await until(() => link().backlog === 3);
    expect(link()).toMatchObject({ state: 'down', counters: { dropped: 3 } });
    partner.frames = [];
    await partner.start(partner.port);
    await until(() => partner.frames.length === 3 && link().backlog === 0, 10_000);
    // The auth frame and the first two positions were dropped; the last three arrive in order.
    expect(partner.frames).toEqual(a.frames.slice(-3));
    expect(link().counters.sent.frame).toBe(before + 3);
    a.raw.destroy();
  });
});
