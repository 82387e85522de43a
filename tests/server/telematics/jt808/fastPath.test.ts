/**
 * The decoder's strict fast path (well-formed packets) against its tolerant path (everything):
 * wherever the fast path answers, both give the same message, field for field and in the same
 * field order; whatever it refuses, the tolerant path still decodes.
 */
import fc from 'fast-check';
import {
  decodePacket,
  encodeMessage,
  encodeMessageFrames,
  unframe,
  xorChecksum,
  MsgId,
  type DecodedMessage,
  type DecodeOptions,
} from '../../../../server/telematics/jt808/codec';
import { decodeTolerant, decodeWellFormed } from '../../../../server/telematics/jt808/decode';
import { hex, REAL } from './fixtures';
import { badChecksum, GATEWAY_DECODE, LOCATION_CORPUS, misdeclared } from './locationCorpus';

const packetOf = (wire: Buffer): Buffer => Buffer.from(unframe(wire));

/** Every key path in order, so two messages that are equal but built in another order differ. */
function keyPaths(v: unknown, at = ''): string[] {
  if (v === null || typeof v !== 'object' || Buffer.isBuffer(v)) return [];
  return Object.entries(v).flatMap(([k, x]) => [`${at}.${k}`, ...keyPaths(x, `${at}.${k}`)]);
}

function expectSame(fast: DecodedMessage | undefined, tolerant: DecodedMessage): void {
  expect(fast).toStrictEqual(tolerant);
  expect(keyPaths(fast)).toEqual(keyPaths(tolerant));
}

/** Both paths on one packet; the fast path must answer. */
function bothAnswer(p: Buffer, opts: DecodeOptions = GATEWAY_DECODE): DecodedMessage {
  const tolerant = decodeTolerant(p, 0, p.length, opts);
  const fast = decodeWellFormed(p, 0, p.length, opts);
  expect(fast).toBeDefined();
  expectSame(fast, tolerant);
  expectSame(decodePacket(p, opts), tolerant);
  return tolerant;
}

/** The fast path refuses the packet; the public decode gives what the tolerant path gives. */
function onlyTolerant(p: Buffer, opts: DecodeOptions = GATEWAY_DECODE): DecodedMessage {
  expect(decodeWellFormed(p, 0, p.length, opts)).toBeUndefined();
  const m = decodePacket(p, opts);
  expectSame(m, decodeTolerant(p, 0, p.length, opts));
  return m;
}

describe('fast path and tolerant path on the fixed 0x0200 corpus', () => {
  const wellFormed = LOCATION_CORPUS.filter((c) => c.kind !== 'sloppy' || c.name === '2019 version bit on a 2013 header');
  const sloppy = LOCATION_CORPUS.filter((c) => !wellFormed.includes(c));

  it.each(wellFormed.map((c) => [c.name, c.frame] as const))('%s: identical', (_name, frame) => {
    const m = bothAnswer(packetOf(frame));
    expect(m.msgId).toBe(MsgId.Location);
  });

  it.each(sloppy.map((c) => [c.name, c.frame] as const))('%s: refused by the fast path, decoded by the tolerant one', (_name, frame) => {
    const m = onlyTolerant(packetOf(frame));
    expect(m.msgId).toBe(MsgId.Location);
    expect(m.checksumMismatch === true || m.declaredLength !== undefined).toBe(true);
  });

  it('the corpus covers every vendor item id the decoder knows', () => {
    const ids = new Set<number>();
    for (const c of LOCATION_CORPUS) {
      const m = decodePacket(packetOf(c.frame), GATEWAY_DECODE);
      if (m.opaque !== undefined || m.msgId !== MsgId.Location) continue;
      const x = m.body.extras;
      for (const u of x.unknown ?? []) ids.add(u.id);
      for (const k of Object.keys(x.raw ?? {})) ids.add(Number.parseInt(k, 16));
    }
    for (const id of [0x02, 0x56, 0x61, 0x69, 0x80, 0xd3, 0xd4, 0xe4, 0xe6, 0xeb, 0xee, 0xf1, 0xf3, 0xf7])
      expect([id, ids.has(id)]).toEqual([id, true]);
  });
});

describe('fast path and tolerant path on the other messages', () => {
  const valid = Object.entries(REAL).filter(([k]) => k !== 'badChecksum' && k !== 'strayFlag');

  it.each(valid)('%s: identical', (_name, frame) => {
    bothAnswer(packetOf(hex(frame)));
  });

  it('a 2011 register, and a 2013 header read as 2011 by the session: identical', () => {
    expect(bothAnswer(packetOf(hex(REAL.register2011))).version).toBe(2011);
    expect(bothAnswer(packetOf(hex(REAL.heartbeat)), { ...GATEWAY_DECODE, assume2011: true }).version).toBe(2011);
  });
});

describe('what the fast path refuses, the tolerant path still decodes', () => {
  const location = packetOf(hex(REAL.locationIo));

  it('a bad checksum, flagged or unchecked', () => {
    expect(onlyTolerant(badChecksum(location))).toMatchObject({ msgId: MsgId.Location, checksumMismatch: true });
    expect(onlyTolerant(badChecksum(location), { verifyChecksum: false }).checksumMismatch).toBeUndefined();
    expect(() => onlyTolerant(badChecksum(location), {})).toThrow(/BAD_CHECKSUM/);
  });

  it('a body length that disagrees with the bytes', () => {
    expect(onlyTolerant(misdeclared(location, 2))).toMatchObject({ msgId: MsgId.Location, declaredLength: location.length - 13 + 2 });
    expect(() => onlyTolerant(misdeclared(location, -2), {})).toThrow(/BAD_LENGTH/);
  });

  it('a subpackage fragment, and a whole message sent as packet 1 of 1', () => {
    const frames = encodeMessageFrames(
      { phone: '13912345678', serial: 1 },
      { msgId: MsgId.Text, body: { flag: 8, text: '注意安全'.repeat(40) } },
      { maxPacketBody: 100 },
    );
    expect(frames.length).toBeGreaterThan(1);
    expect(onlyTolerant(packetOf(frames[0]))).toMatchObject({ opaque: 'fragment', packet: { count: frames.length, index: 1 } });
    const single = encodeMessage({ phone: '13912345678', serial: 2, packet: { count: 1, index: 1 } }, { msgId: MsgId.Heartbeat });
    expect(onlyTolerant(packetOf(single))).toMatchObject({ msgId: MsgId.Heartbeat, packet: { count: 1, index: 1 } });
  });

  it('an encrypted body and a vendor message id', () => {
    const encrypted = encodeMessage(
      { phone: '13912345678', serial: 3, encryption: 1 },
      { msgId: MsgId.Heartbeat, body: { extraHex: 'a1b2' } },
    );
    expect(onlyTolerant(packetOf(encrypted))).toMatchObject({ opaque: 'encrypted', encryption: 1 });
    const vendor = packetOf(encodeMessage({ phone: '13912345678', serial: 4 }, { msgId: MsgId.Heartbeat, body: { extraHex: 'a1b2c3' } }));
    vendor.writeUInt16BE(0x5501, 0);
    vendor[vendor.length - 1] = xorChecksum(vendor, 0, vendor.length - 1);
    expect(onlyTolerant(vendor)).toMatchObject({ msgId: 0x5501, opaque: 'unknown' });
  });

  it('a packet above the size limit is refused by both', () => {
    expect(() => onlyTolerant(location, { maxFrameBytes: location.length - 1 })).toThrow(/TOO_LONG/);
  });
});

// ---------------------------------------------------------------------------------------------
// Property: random 0x0200 bodies with random item sets.

const byte = fc.integer({ min: 0, max: 255 });
const bytesOf = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
const item = (id: number, len: fc.Arbitrary<number>) =>
  len.chain((n) => bytesOf(n).map((v) => Buffer.concat([Buffer.from([id, n]), Buffer.from(v)])));

/** Standard ids at the lengths the decoder reads. */
const standardItem = fc.oneof(
  item(0x01, fc.constant(4)),
  item(0x02, fc.constant(2)),
  item(0x03, fc.constant(2)),
  item(0x04, fc.constant(2)),
  item(0x05, fc.constant(30)),
  item(0x06, fc.constant(2)),
  item(0x11, fc.constantFrom(1, 5)),
  item(0x12, fc.constant(6)),
  item(0x13, fc.constant(7)),
  item(0x25, fc.constant(4)),
  item(0x2a, fc.constant(2)),
  item(0x2b, fc.constantFrom(2, 4)),
  item(0x30, fc.constant(1)),
  item(0x31, fc.constant(1)),
);
const POWER_LENGTHS: Record<number, number[]> = {
  0x56: [1, 2],
  0x61: [2],
  0x69: [2],
  0xd3: [2],
  0xd4: [1],
  0xe4: [2],
  0xee: [6],
  0xf1: [4],
  0xf7: [4, 6],
};
const vendorItem = fc.oneof(
  fc
    .constantFrom(...Object.keys(POWER_LENGTHS).map(Number))
    .chain((id) => item(id, fc.oneof(fc.constantFrom(...POWER_LENGTHS[id]), fc.integer({ min: 0, max: 8 })))),
  item(0xf3, fc.integer({ min: 0, max: 40 })),
  item(0xeb, fc.integer({ min: 0, max: 40 })),
  fc
    .constantFrom('$OBD-RT,13.8,2100,61,18,35,90,7.5,8.1,12.3,45678,1.1,3500', '$OBD-RT,1,2', 'xyz')
    .map((t) => Buffer.concat([Buffer.from([0xe6, t.length]), Buffer.from(t, 'latin1')])),
  // Nested 0x80: OBD items inside its value.
  fc
    .array(
      fc.tuple(byte, fc.integer({ min: 0, max: 6 })).chain(([id, n]) => item(id, fc.constant(n))),
      { maxLength: 4 },
    )
    .map((inner) => {
      const v = Buffer.concat(inner);
      return Buffer.concat([Buffer.from([0x80, v.length]), v]);
    }),
  item(0x80, fc.constant(1)),
  item(0x80, fc.integer({ min: 2, max: 6 })),
  // Any id, any length: standard ids at odd lengths, ids nobody documents.
  fc.tuple(byte, fc.integer({ min: 0, max: 12 })).chain(([id, n]) => item(id, fc.constant(n))),
);
const bcdTime = fc.oneof(
  fc
    .tuple(
      fc.integer({ min: 0, max: 99 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 0, max: 23 }),
      fc.integer({ min: 0, max: 59 }),
      fc.integer({ min: 0, max: 59 }),
    )
    .map((f) => Buffer.from(f.map((v) => ((v / 10) | 0) * 16 + (v % 10)))),
  bytesOf(6).map((b) => Buffer.from(b)),
);
const locationBody = fc
  .record({
    fixed: bytesOf(22),
    time: bcdTime,
    items: fc.array(fc.oneof({ weight: 3, arbitrary: standardItem }, { weight: 2, arbitrary: vendorItem }), { maxLength: 14 }),
    tail: fc.oneof(
      { weight: 4, arbitrary: fc.constant(new Uint8Array(0)) },
      { weight: 1, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 3 }) },
    ),
  })
  .map(({ fixed, time, items, tail }) => Buffer.concat([Buffer.from(fixed), time, ...items, Buffer.from(tail)]))
  .filter((b) => b.length <= 1023);

/** A 0x0200 packet around `body` with a correct checksum. */
function packet(body: Buffer, version: 2013 | 2019, phone: string, serial: number): Buffer {
  const header = packetOf(encodeMessage({ phone, serial, version }, { msgId: MsgId.Heartbeat }));
  const p = Buffer.concat([header.subarray(0, header.length - 1), body, Buffer.alloc(1)]);
  p.writeUInt16BE(MsgId.Location, 0);
  p.writeUInt16BE((p.readUInt16BE(2) & ~0x3ff) | body.length, 2);
  p[p.length - 1] = xorChecksum(p, 0, p.length - 1);
  return p;
}

const frameArgs = fc.record({
  body: locationBody,
  version: fc.constantFrom(2013 as const, 2019 as const),
  phone: fc.stringMatching(/^[0-9]{1,12}$/),
  serial: fc.integer({ min: 0, max: 0xffff }),
  tz: fc.constantFrom(480, 0, -300, 345),
});

describe('property: random 0x0200 bodies with random item sets', () => {
  it('decode identically on both paths', () => {
    fc.assert(
      fc.property(frameArgs, ({ body, version, phone, serial, tz }) => {
        const m = bothAnswer(packet(body, version, phone, serial), { ...GATEWAY_DECODE, tzOffsetMinutes: tz });
        expect(m).toMatchObject({ msgId: MsgId.Location, version, serial });
      }),
      { numRuns: 400 },
    );
  });

  it('made sloppy (checksum, length), are refused by the fast path and decoded by the tolerant one', () => {
    fc.assert(
      fc.property(
        frameArgs,
        fc.constantFrom('checksum', 'length', 'both'),
        fc.integer({ min: -8, max: 8 }).filter((d) => d !== 0 && d !== 5) /* +5 on a 2019 header is an exact 2013 one */,
        ({ body, version, phone, serial }, how, delta) => {
          let p = packet(body, version, phone, serial);
          if (how !== 'checksum') p = misdeclared(p, delta);
          if (how !== 'length') p = badChecksum(p);
          expect(decodeWellFormed(p, 0, p.length, GATEWAY_DECODE)).toBeUndefined();
          let tolerant: DecodedMessage | Error;
          try {
            tolerant = decodeTolerant(p, 0, p.length, GATEWAY_DECODE);
          } catch (e) {
            tolerant = e as Error; // a length that leaves no room for the header: refused alike
          }
          if (tolerant instanceof Error) expect(() => decodePacket(p, GATEWAY_DECODE)).toThrow(tolerant.message);
          else expectSame(decodePacket(p, GATEWAY_DECODE), tolerant);
        },
      ),
      { numRuns: 300 },
    );
  });
});
