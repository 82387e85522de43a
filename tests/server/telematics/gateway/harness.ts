import net from 'node:net';
import pino from 'pino';
import { sql } from 'kysely';
import { Jt808Gateway, type GatewayOptions } from '../../../../server/telematics/gateway/server';
import { PositionWriter, type WriterOptions } from '../../../../server/telematics/store/writer';
import { SimTerminal, type SimTerminalOptions } from '../../../../server/simulator/terminal';
import {
  decodePacket,
  encodeMessage,
  FrameSplitter,
  MsgId,
  type DecodedMessage,
  type Jt808BodyInput,
} from '../../../../server/telematics/jt808/codec';
import { startTestServer, type Backend, type TestServer } from '../../../helpers/testServer';
import type { AppOptions } from '../../../../server/app';
import { CommandService } from '../../../../server/telematics/commands/service';
import { LiveHub } from '../../../../server/telematics/live/hub';
import { SessionWatch } from '../../../../server/telematics/live/sessionWatch';
import { registerTelematicsRoutes } from '../../../../server/telematics/routes';

/** Demo terminal numbers (seeded by the demo fixtures): 8080 + 8 digits, 24 of them. */
export const demoTerminal = (n: number) => `8080${String(n).padStart(8, '0')}`;

export interface GatewayHarness {
  s: TestServer;
  gateway: Jt808Gateway;
  port: number;
  /** With `routes`: the command service, live hub and the app's HTTP address (for WebSockets). */
  commands?: CommandService;
  hub?: LiveHub;
  httpUrl?: string;
  terminal(phone: string, opts?: Partial<SimTerminalOptions>): SimTerminal;
  close(): Promise<void>;
}

export async function startGateway(
  backend: Backend,
  opts: {
    writer?: WriterOptions;
    gateway?: Partial<GatewayOptions>;
    routes?: { commandTimeoutMs: number };
    app?: Partial<AppOptions>;
  } = {},
): Promise<GatewayHarness> {
  const s = await startTestServer(backend, opts.app);
  const db = s.database.db;
  // On PostgreSQL the COPY path, as the server runs it.
  const writer = new PositionWriter(db, { copyPool: s.database.pool, ...opts.writer });
  const gateway = new Jt808Gateway({ db, log: pino({ level: 'silent' }), writer, ...opts.gateway });
  const port = await gateway.listen(0, '127.0.0.1');
  let commands: CommandService | undefined;
  let hub: LiveHub | undefined;
  let httpUrl: string | undefined;
  let watch: SessionWatch | undefined;
  if (opts.routes) {
    commands = new CommandService(db, gateway, opts.routes.commandTimeoutMs);
    hub = new LiveHub();
    writer.on('stored', hub.publish);
    watch = new SessionWatch(db, pino({ level: 'silent' }));
    await registerTelematicsRoutes(s.app, { db, commands, gateway, hub, watch, sessionDeps: { db, secret: 'test-secret', ttlHours: 12 } });
    httpUrl = await s.app.listen({ port: 0, host: '127.0.0.1' });
  }
  const terminals: SimTerminal[] = [];
  return {
    s,
    gateway,
    port,
    commands,
    hub,
    httpUrl,
    terminal(phone, o = {}) {
      const t = new SimTerminal({ host: '127.0.0.1', port, phone, keepAcked: true, ...o });
      terminals.push(t);
      return t;
    },
    async close() {
      for (const t of terminals) t.destroy();
      commands?.close();
      watch?.stop();
      await gateway.close();
      await s.close();
    },
  };
}

export async function terminalIdOf(s: TestServer, terminalNo: string): Promise<number> {
  const r = await sql<{ id: number }>`SELECT id FROM terminal WHERE terminal_no = ${terminalNo}`.execute(s.database.db);
  return r.rows[0].id;
}

/** Device times (ms, ascending) stored for a terminal. */
export async function storedTimes(s: TestServer, terminalId: number): Promise<number[]> {
  const r = await s.database.db
    .selectFrom('position')
    .select('device_time')
    .where('terminal_id', '=', terminalId)
    .orderBy('device_time')
    .execute();
  return r.map((x) => new Date(x.device_time).getTime());
}

/** A raw TCP client for what the simulator never does: garbage, wrong order, forged phones. */
export class RawClient {
  readonly received: DecodedMessage[] = [];
  private readonly splitter = new FrameSplitter();
  private serial = 0;
  closed = false;
  private constructor(readonly socket: net.Socket) {
    socket.on('data', (d: Buffer) => {
      for (const p of this.splitter.push(d)) this.received.push(decodePacket(p));
    });
    socket.on('close', () => (this.closed = true));
    socket.on('error', () => undefined);
  }
  /** `localAddress` (127.0.0.x) makes the client another source address than the simulator's. */
  static async open(port: number, localAddress?: string): Promise<RawClient> {
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    await new Promise((r) => socket.once('connect', r));
    return new RawClient(socket);
  }
  /** A client whose terminal has registered (0x0100) and authenticated (0x0102): two replies received. */
  static async registered(port: number, phone: string): Promise<RawClient> {
    const raw = await RawClient.open(port);
    raw.send(phone, {
      msgId: MsgId.Register,
      body: { province: 1, city: 1, makerId: 'VEND', model: 'CAM', terminalId: phone.slice(-7), plateColor: 1, plate: '' },
    });
    const [reg] = await raw.waitFor(1);
    if (reg.msgId !== MsgId.RegisterResponse || reg.opaque !== undefined || !reg.body.authCode) throw new Error('not registered');
    raw.send(phone, { msgId: MsgId.Auth, body: { code: reg.body.authCode } });
    const [, auth] = await raw.waitFor(2);
    if (auth.msgId !== MsgId.PlatformResponse || auth.opaque !== undefined || auth.body.result !== 0) throw new Error('not authenticated');
    return raw;
  }
  send(phone: string, message: Jt808BodyInput, version: 2013 | 2019 = 2013): number {
    this.serial++;
    this.socket.write(encodeMessage({ phone, serial: this.serial, version }, message));
    return this.serial;
  }
  sendBytes(b: Buffer): void {
    this.socket.write(b);
  }
  /** Waits until `count` messages have arrived in total. */
  async waitFor(count: number, timeoutMs = 5000): Promise<DecodedMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.received.length < count) {
      if (Date.now() > deadline) throw new Error(`got ${this.received.length} of ${count} replies`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.received;
  }
  async waitClosed(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('connection still open');
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  destroy(): void {
    this.socket.destroy();
  }
}

export async function until(check: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}
