/**
 * The NATS bus carries a committed batch in its packed form (storedWire.ts) and hands subscribers
 * the payload exactly as it was published; a subscription that is not active skips messages
 * without handling them. Through a nats-server of the test's own.
 */
import { createNatsBus, type NatsBus } from '../../../server/platform/natsBus';
import { packStored, unpackStored } from '../../../server/platform/storedWire';
import { startNatsServer, type NatsServer } from '../../helpers/natsServer';

interface Topics {
  'positions.stored': { inserted: Array<{ source: object; record: object }> };
  other: { n: number; inserted?: unknown };
}

const until = async (f: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!f()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

const identity = (i: number) => ({
  terminalId: i,
  terminalNo: `01380000${String(i).padStart(4, '0')}`,
  sim: `01380000${String(i).padStart(4, '0')}`,
  orgId: 4,
  orgPath: '/1/4/',
  vehicleId: i === 3 ? null : 100 + i,
  licence: i === 3 ? null : `沪A${i}`,
  vehicleOrgPath: i === 3 ? null : '/1/4/',
});
const position = (i: number, k: number) => ({
  terminalId: i,
  vehicleId: 100 + i,
  deviceTime: Date.UTC(2026, 11, 1, 8) + k * 1000,
  latitude: 31.2 + k * 1e-5,
  longitude: 121.4,
  altitude: 12,
  speed: 42.5,
  direction: 180,
  alarm: 0,
  status: 3,
  acc: true,
  fixed: true,
  mileageKm: null,
  fuelL: 40.2,
  blind: false,
  extras: k % 2 ? { frame: ['badChecksum'], signal: { rssi: 20 } } : null,
  dtcs: k % 3 ? null : ['P0101', 'C0300'],
});

describe('the packed form of a committed batch', () => {
  const sources = [1, 2, 3].map(identity);
  const batch = {
    inserted: [
      ...Array.from({ length: 6 }, (_, k) => ({ source: sources[k % 3], record: position(k % 3, k) })),
      // Keys in another order, one missing, one undefined, one more: each travels as its own object.
      { source: sources[0], record: { vehicleId: 101, terminalId: 1, deviceTime: 1 } },
      { source: sources[1], record: { ...position(2, 9), extras: undefined } },
      { source: sources[2], record: { ...position(3, 10), subtype: 2 } },
    ],
  };

  it('gives back the batch it packed, as JSON carries it', () => {
    const packed = JSON.parse(JSON.stringify(packStored(batch))) as unknown;
    expect(unpackStored(packed)).toEqual(JSON.parse(JSON.stringify(batch)));
    // Each identity once, not once per row.
    expect(JSON.stringify(packed).split('"terminalNo"').length - 1).toBe(3);
  });

  it('leaves any other payload as it is, both ways', () => {
    for (const p of [
      null,
      3,
      'x',
      [],
      { n: 1 },
      { inserted: [] },
      { inserted: [1, 2] },
      { inserted: [{ source: {}, record: {} }], n: 1 },
    ]) {
      expect(packStored(p)).toBe(p);
      expect(unpackStored(p)).toBe(p);
    }
  });
});

describe('the NATS bus', () => {
  let nats: NatsServer;
  let bus: NatsBus<Topics>;
  beforeAll(async () => {
    nats = await startNatsServer();
    bus = await createNatsBus<Topics>({ url: nats.url, stream: 'WIRE', prefix: 'wire' });
  });
  afterAll(async () => {
    await bus?.close();
    await nats?.stop();
  });

  it('delivers a committed batch, split or not, exactly as it was published', async () => {
    const small = await createNatsBus<Topics>({ url: nats.url, stream: 'WIRE', prefix: 'wire', maxPayloadBytes: 2048 });
    const got: Array<Topics['positions.stored']> = [];
    const stop = bus.subscribe('positions.stored', (b) => void got.push(b));
    await new Promise((r) => setTimeout(r, 300)); // the consumer bound
    const sources = [1, 2].map(identity);
    const batch = { inserted: Array.from({ length: 40 }, (_, k) => ({ source: sources[k % 2], record: position(1 + (k % 2), k) })) };
    small.publish('positions.stored', batch);
    await small.settle();
    await until(() => got.reduce((n, b) => n + b.inserted.length, 0) === 40);
    expect(got.length).toBeGreaterThan(1); // split below the payload limit
    expect(got.flatMap((b) => b.inserted)).toEqual(JSON.parse(JSON.stringify(batch.inserted)));
    // Large enough to be split from its first rows' size, before it is stringified whole.
    const large = { inserted: Array.from({ length: 400 }, (_, k) => ({ source: sources[k % 2], record: position(1 + (k % 2), 100 + k) })) };
    got.length = 0;
    small.publish('positions.stored', large);
    await small.settle();
    await until(() => got.reduce((n, b) => n + b.inserted.length, 0) === 400);
    expect(got.length).toBeGreaterThan(1);
    expect(got.flatMap((b) => b.inserted)).toEqual(JSON.parse(JSON.stringify(large.inserted)));
    stop();
    await small.close();
  });

  it('skips messages while a subscription is not active, and hands them over again once it is', async () => {
    let active = false;
    const got: number[] = [];
    const stop = bus.subscribe('other', (p) => void got.push(p.n), { active: () => active });
    const all: number[] = [];
    const stopAll = bus.subscribe('other', (p) => void all.push(p.n));
    await new Promise((r) => setTimeout(r, 300)); // both consumers bound
    bus.publish('other', { n: 1 });
    bus.publish('other', { n: 2 });
    await bus.settle();
    await until(() => all.length === 2);
    active = true;
    bus.publish('other', { n: 3 });
    await bus.settle();
    await until(() => all.length === 3);
    await until(() => got.length === 1);
    expect(got).toEqual([3]);
    stop();
    stopAll();
  });
});
