/**
 * A superior platform for tests, from JT/T 809: it listens for lower platforms' main links,
 * answers 0x1001 (checking user, password and access code) and 0x1005, keeps every message it
 * receives, and can open the sub link to the address the login named (0x9001 with the verify code),
 * send the sub link's heartbeat and ask for a vehicle's static information (0x9600 / 0x9601).
 */

import net from 'node:net';
import {
  FrameSplitter,
  LOGIN_RESULT,
  MSG,
  SUB,
  decodeMessage,
  decodePacket,
  encodeLoginResponse,
  encodePacket,
  encodeVehicleEnvelope,
  encodeVerifyCode,
  type Jt809Cipher,
  type Jt809Edition,
  type Jt809Header,
  type Jt809Message,
  type LoginRequest,
  type Vehicle,
} from '../../../server/forwarding/jt809';

export interface Received {
  header: Jt809Header;
  message: Jt809Message;
}

export interface SuperiorOptions {
  port?: number;
  edition: Jt809Edition;
  userId: number;
  password: string;
  accessCode: number;
  cipher?: Jt809Cipher;
  /** Encrypts what the superior sends with this key. */
  key?: number;
}

export class Superior {
  readonly received: Received[] = [];
  /** Frames on the sub link, as the lower platform answered. */
  readonly subReceived: Received[] = [];
  logins: LoginRequest[] = [];
  verifyCode = 0x5a5b5d5e;
  port = 0;
  private server: net.Server | null = null;
  private sockets = new Set<net.Socket>();
  private sub: net.Socket | null = null;
  private sn = 0;

  constructor(private readonly o: SuperiorOptions) {}

  async start(): Promise<void> {
    const server = net.createServer((s) => this.accept(s));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.o.port ?? this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.server = server;
  }

  /** Stops as a crashed platform does: every connection cut, the port closed. */
  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    this.sub?.destroy();
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  messages(kind: Jt809Message['kind']): Received[] {
    return this.received.filter((r) => r.message.kind === kind);
  }

  private frame(msgId: number, body: Buffer): Buffer {
    return encodePacket({ sn: ++this.sn, msgId, accessCode: this.o.accessCode, key: this.o.key }, body, this.o);
  }

  private read(f: Buffer): Received {
    const p = decodePacket(f, this.o);
    return { header: p.header, message: decodeMessage(p.header.msgId, p.body, this.o.edition) };
  }

  private accept(s: net.Socket): void {
    this.sockets.add(s);
    s.on('close', () => this.sockets.delete(s));
    s.on('error', () => undefined);
    const splitter = new FrameSplitter();
    s.on('data', (chunk) => {
      for (const f of splitter.push(chunk)) {
        const r = this.read(f);
        this.received.push(r);
        const m = r.message;
        if (m.kind === 'loginRequest') {
          this.logins.push(m.login);
          const ok =
            m.login.userId === this.o.userId &&
            m.login.password === this.o.password &&
            r.header.accessCode === this.o.accessCode &&
            (this.o.edition === 2011 || m.login.accessCode === this.o.accessCode);
          s.write(
            this.frame(
              MSG.UP_CONNECT_RSP,
              encodeLoginResponse({ result: ok ? LOGIN_RESULT.OK : LOGIN_RESULT.BAD_PASSWORD, verifyCode: this.verifyCode }),
            ),
          );
        } else if (m.kind === 'empty' && m.msgId === MSG.UP_LINKTEST_REQ) {
          s.write(this.frame(MSG.UP_LINKTEST_RSP, Buffer.alloc(0)));
        }
      }
    });
  }

  /** Opens the sub link to where the last login said, logging in with `verifyCode`. */
  async openSubLink(verifyCode = this.verifyCode): Promise<void> {
    const login = this.logins.at(-1);
    if (!login) throw new Error('no login yet');
    const s = net.createConnection({ host: login.downLinkIp, port: login.downLinkPort });
    this.sub = s;
    s.on('error', () => undefined);
    const splitter = new FrameSplitter();
    s.on('data', (chunk) => {
      for (const f of splitter.push(chunk)) this.subReceived.push(this.read(f));
    });
    await new Promise<void>((resolve, reject) => {
      s.once('connect', resolve);
      s.once('error', reject);
    });
    s.write(this.frame(MSG.DOWN_CONNECT_REQ, encodeVerifyCode(verifyCode)));
  }

  subHeartbeat(): void {
    this.sub?.write(this.frame(MSG.DOWN_LINKTEST_REQ, Buffer.alloc(0)));
  }

  askCarInfo(v: Vehicle): void {
    this.sub?.write(
      this.frame(MSG.DOWN_BASE_MSG, encodeVehicleEnvelope({ ...v, dataType: SUB.DOWN_BASE_MSG_VEHICLE_ADDED, data: Buffer.alloc(0) })),
    );
  }
}
