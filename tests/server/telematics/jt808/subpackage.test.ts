import {
  decodeFrame,
  encodeFrames,
  encodeMessageFrames,
  MAX_BODY_LENGTH,
  MsgId,
  SubpackageAssembler,
  unframe,
  type DecodedMessage,
  type LocationInput,
  type OpaqueMessage,
} from '../../../../server/telematics/jt808/codec';

const items: LocationInput[] = Array.from({ length: 40 }, (_, i) => ({
  latitude: 22.5 + i / 1e4,
  longitude: 114.05,
  speed: i,
  time: Date.UTC(2024, 4, 1, 0, 0, i),
  extras: { mileageKm: 1000 + i, satellites: 9, signalStrength: 20 },
}));

function fragments(frames: Buffer[]): OpaqueMessage[] {
  return frames.map((f) => {
    const m = decodeFrame(f);
    if (m.opaque !== 'fragment') throw new Error('expected a fragment');
    return m;
  });
}

function batchFrames(phone = '13912345678', serial = 100, maxPacketBody?: number): Buffer[] {
  return encodeMessageFrames({ phone, serial }, { msgId: MsgId.BatchLocation, body: { type: 1, items } }, { maxPacketBody });
}

function expectBatch(m: DecodedMessage | undefined, serial = 100): void {
  if (!m || m.msgId !== MsgId.BatchLocation || m.opaque) throw new Error('expected the reassembled batch');
  expect(m.serial).toBe(serial);
  expect(m.body.count).toBe(40);
  expect(m.body.items).toHaveLength(40);
  expect(m.body.items.map((x) => x.speed)).toEqual(items.map((x) => x.speed));
  expect(m.body.malformed).toBeUndefined();
}

describe('splitting on encode', () => {
  it('splits a body above 1023 bytes into packets numbered from 1 with consecutive serials', () => {
    const frames = batchFrames();
    expect(frames.length).toBeGreaterThan(1);
    const frags = fragments(frames);
    frags.forEach((f, i) => {
      expect(f.packet).toEqual({ count: frames.length, index: i + 1 });
      expect(f.serial).toBe(100 + i);
      expect(f.body.length).toBeLessThanOrEqual(MAX_BODY_LENGTH);
      expect(unframe(frames[i]).readUInt16BE(2) & 0x2000).toBe(0x2000);
    });
  });

  it('splits at a chosen size (the industry often uses multiples of 256)', () => {
    const frags = fragments(batchFrames('1', 0xfffe, 256));
    expect(frags.slice(0, -1).every((f) => f.body.length === 256)).toBe(true);
    expect(frags.map((f) => f.serial).slice(0, 3)).toEqual([0xfffe, 0xffff, 0]); // serial wraps
  });

  it('a body that fits stays one frame without packet fields', () => {
    const frames = encodeFrames({ msgId: 0x0900, phone: '1', serial: 1 }, Buffer.alloc(MAX_BODY_LENGTH));
    expect(frames).toHaveLength(1);
    expect(decodeFrame(frames[0]).packet).toBeUndefined();
  });
});

describe('SubpackageAssembler', () => {
  it('reassembles in order', () => {
    const a = new SubpackageAssembler();
    const frags = fragments(batchFrames());
    const results = frags.map((f) => a.push(f));
    expect(results.slice(0, -1).every((r) => r === undefined)).toBe(true);
    expectBatch(results[results.length - 1]);
    expect(a.pendingSets).toBe(0);
    expect(a.bufferedBytes).toBe(0);
    expect(a.stats.completed).toBe(1);
  });

  it('reassembles out of order, with duplicates, and interleaved with another terminal', () => {
    const a = new SubpackageAssembler();
    const one = fragments(batchFrames('111', 10, 300));
    const two = fragments(batchFrames('222', 500, 300));
    const order = [3, 0, 2, 0, 1, 4, 5, 6, 7, 8].filter((i) => i < one.length);
    let doneOne: DecodedMessage | undefined;
    let doneTwo: DecodedMessage | undefined;
    const rest = one.map((_, i) => i).filter((i) => !order.includes(i));
    for (const i of [...order, ...rest].reverse()) {
      doneOne = a.push(one[i]) ?? doneOne;
      if (two[i]) doneTwo = a.push(two[i]) ?? doneTwo;
    }
    for (let i = one.length; i < two.length; i++) doneTwo = a.push(two[i]) ?? doneTwo;
    expectBatch(doneOne, 10);
    expectBatch(doneTwo, 500);
    expect(doneOne?.phone).toBe('111');
    expect(a.stats.duplicates).toBe(2); // packet 1 twice, for each terminal
  });

  it('drops a set that times out', () => {
    let now = 0;
    const a = new SubpackageAssembler({ timeoutMs: 60_000, now: () => now });
    const frags = fragments(batchFrames());
    a.push(frags[0]);
    expect(a.pendingSets).toBe(1);
    now = 60_001;
    a.sweep();
    expect(a.pendingSets).toBe(0);
    expect(a.bufferedBytes).toBe(0);
    expect(a.stats.expired).toBe(1);
    // The remaining packets alone never complete the message.
    expect(frags.slice(1).map((f) => a.push(f))).toEqual(frags.slice(1).map(() => undefined));
  });

  it('keeps buffered bytes under the memory bound by evicting the oldest sets', () => {
    const a = new SubpackageAssembler({ maxBytes: 3000 });
    for (let t = 0; t < 20; t++) {
      const frags = fragments(batchFrames(String(1000 + t), 1, 256));
      a.push(frags[0]);
      a.push(frags[1]);
      expect(a.bufferedBytes).toBeLessThanOrEqual(3000);
    }
    expect(a.stats.evicted).toBeGreaterThan(0);
    // The newest set still completes.
    const last = fragments(batchFrames('1019', 1, 256));
    let done: DecodedMessage | undefined;
    for (const f of last.slice(2)) done = a.push(f) ?? done;
    expectBatch(done, 1);
  });

  it('refuses a set that could never fit, and bounds the number of sets', () => {
    const a = new SubpackageAssembler({ maxBytes: 1000 });
    expect(a.push(fragments(batchFrames())[0])).toBeUndefined();
    expect(a.stats.rejected).toBe(1);
    expect(a.pendingSets).toBe(0);
    const b = new SubpackageAssembler({ maxSets: 3 });
    for (let t = 0; t < 10; t++) b.push(fragments(batchFrames(String(t + 1), 1, 256))[0]);
    expect(b.pendingSets).toBe(3);
  });
});
