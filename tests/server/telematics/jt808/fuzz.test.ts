import fc from 'fast-check';
import {
  decodeFrame,
  decodePacket,
  encodeMessage,
  FrameSplitter,
  Jt808DecodeError,
  MsgId,
  SubpackageAssembler,
  encodeMessageFrames,
  type DecodedMessage,
  type LocationInput,
} from '../../../../server/telematics/jt808/codec';
import { hex, REAL } from './fixtures';

/** Decode and accept only success or a Jt808DecodeError. */
function decodesOrTypedError(fn: () => DecodedMessage): void {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof Jt808DecodeError)) throw e;
  }
}

const VALID_FRAMES: Buffer[] = [
  ...Object.entries(REAL)
    .filter(([k]) => k !== 'badChecksum' && k !== 'strayFlag')
    .map(([, h]) => hex(h)),
  encodeMessage({ phone: '57', serial: 0x2b }, { msgId: MsgId.Heartbeat }),
  encodeMessage(
    { phone: '13912345678901234567', serial: 9, version: 2019 },
    { msgId: MsgId.Auth, body: { code: 'c0de', imei: '861234567890123', softwareVersion: '1.0' } },
  ),
  encodeMessage(
    { phone: '1', serial: 2 },
    {
      msgId: MsgId.SetParams,
      body: {
        params: [
          { id: 1, type: 'u32', value: 30 },
          { id: 0x10, type: 'string', value: 'cmnet' },
        ],
      },
    },
  ),
  encodeMessage({ phone: '1', serial: 3 }, { msgId: MsgId.Text, body: { flag: 8, text: '注意安全' } }),
];

const mutation = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), at: fc.nat(), bit: fc.integer({ min: 0, max: 7 }) }),
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 0, max: 255 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), bytes: fc.uint8Array({ minLength: 1, maxLength: 8 }) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 8 }) }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
);
type Mutation = typeof mutation extends fc.Arbitrary<infer T> ? T : never;

function mutate(frame: Buffer, ms: Mutation[]): Buffer {
  let b = Buffer.from(frame);
  for (const m of ms) {
    if (b.length === 0) break;
    const at = m.at % b.length;
    switch (m.kind) {
      case 'flip':
        b[at] ^= 1 << m.bit;
        break;
      case 'set':
        b[at] = m.value;
        break;
      case 'insert':
        b = Buffer.concat([b.subarray(0, at), Buffer.from(m.bytes), b.subarray(at)]);
        break;
      case 'delete':
        b = Buffer.concat([b.subarray(0, at), b.subarray(at + m.count)]);
        break;
      case 'truncate':
        b = b.subarray(0, at);
        break;
    }
  }
  return b;
}

/** Bytes biased towards the protocol's special values. */
const protocolByte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x7e, 0x7d, 0x01, 0x02, 0x00, 0xff));
const protocolBytes = (maxLength: number) => fc.array(protocolByte, { maxLength }).map((a) => Buffer.from(a));

describe('property: malformed input never escapes as anything but Jt808DecodeError', () => {
  it('random garbage to decodeFrame and decodePacket', () => {
    fc.assert(
      fc.property(protocolBytes(300), (b) => {
        decodesOrTypedError(() => decodeFrame(b));
        decodesOrTypedError(() => decodePacket(b));
        decodesOrTypedError(() => decodeFrame(Buffer.concat([hex('7e'), b, hex('7e')]), { verifyChecksum: false }));
      }),
      { numRuns: 3000 },
    );
  });

  it('mutations of valid frames', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...VALID_FRAMES),
        fc.array(mutation, { minLength: 1, maxLength: 4 }),
        fc.boolean(),
        (frame, ms, verify) => {
          const bad = mutate(frame, ms);
          decodesOrTypedError(() => decodeFrame(bad, { verifyChecksum: verify }));
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('a mutated stream through the splitter, then the decoder: bounded buffer, typed errors only', () => {
    const max = 600;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom(...VALID_FRAMES), fc.array(mutation, { maxLength: 2 })), { maxLength: 8 }),
        protocolBytes(2000),
        fc.array(fc.integer({ min: 1, max: 200 }), { minLength: 1, maxLength: 20 }),
        (framesAndMutations, garbage, cuts) => {
          const stream = Buffer.concat([...framesAndMutations.map(([f, ms]) => mutate(f, ms)), garbage]);
          const s = new FrameSplitter({ maxFrameBytes: max });
          let o = 0;
          let c = 0;
          while (o < stream.length) {
            const n = cuts[c++ % cuts.length];
            for (const packet of s.push(stream.subarray(o, o + n))) {
              expect(packet.length).toBeLessThanOrEqual(max);
              decodesOrTypedError(() => decodePacket(packet, { maxFrameBytes: max }));
            }
            expect(s.bufferedBytes).toBeLessThanOrEqual(max);
            expect(s.capacity).toBeLessThanOrEqual(max);
            o += n;
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('unmutated frames always come out of the splitter intact, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...VALID_FRAMES), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1 }),
        (frames, cuts) => {
          const stream = Buffer.concat(frames);
          const s = new FrameSplitter();
          const out: Buffer[] = [];
          let o = 0;
          let c = 0;
          while (o < stream.length) {
            const n = cuts[c++ % cuts.length];
            out.push(...s.push(stream.subarray(o, o + n)));
            o += n;
          }
          expect(out.map((p) => decodePacket(p).serial)).toEqual(frames.map((f) => decodeFrame(f).serial));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('random fragments to the assembler stay under its memory bound', () => {
    const maxBytes = 4096;
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            phone: fc.constantFrom('1', '2', '3'),
            serial: fc.integer({ min: 0, max: 0xffff }),
            count: fc.integer({ min: 2, max: 12 }),
            index: fc.integer({ min: 1, max: 12 }),
            size: fc.integer({ min: 0, max: 1023 }),
          }),
          { maxLength: 60 },
        ),
        (frags) => {
          const a = new SubpackageAssembler({ maxBytes });
          for (const f of frags) {
            const m = decodeFrame(
              encodeMessageFrames(
                { phone: f.phone, serial: f.serial, packet: { count: f.count, index: Math.min(f.index, f.count) } },
                { msgId: MsgId.Transparent, body: { type: 0xf1, content: '00'.repeat(Math.max(0, f.size - 1)) } },
              )[0],
            );
            if (m.opaque === 'fragment') decodesOrTypedError(() => a.push(m) ?? m);
            expect(a.bufferedBytes).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe('property: location encode -> decode', () => {
  const location: fc.Arbitrary<LocationInput> = fc.record({
    alarm: fc.integer({ min: 0, max: 0xffffffff }),
    status: fc.integer({ min: 0, max: 0xffffffff }),
    latitude: fc.integer({ min: -90_000_000, max: 90_000_000 }).map((x) => x / 1e6),
    longitude: fc.integer({ min: -180_000_000, max: 180_000_000 }).map((x) => x / 1e6),
    altitude: fc.integer({ min: -32768, max: 32767 }),
    speed: fc.integer({ min: 0, max: 65535 }).map((x) => x / 10),
    direction: fc.integer({ min: 0, max: 359 }),
    time: fc.integer({ min: Date.UTC(2000, 0, 2), max: Date.UTC(2099, 11, 30) }).map((ms) => new Date(ms - (ms % 1000)).toISOString()),
    extras: fc.record(
      {
        mileageKm: fc.integer({ min: 0, max: 0xffffffff }).map((x) => x / 10),
        fuelL: fc.integer({ min: 0, max: 0x7fff }).map((x) => x / 10),
        satellites: fc.integer({ min: 0, max: 255 }),
        signalStrength: fc.integer({ min: 0, max: 255 }),
      },
      { requiredKeys: [] },
    ),
  });

  it('keeps every field', () => {
    fc.assert(
      fc.property(location, fc.constantFrom(2013 as const, 2019 as const), fc.integer({ min: -720, max: 840 }), (body, version, tz) => {
        const wire = encodeMessage({ phone: '13912345678', serial: 1, version, tzOffsetMinutes: tz }, { msgId: MsgId.Location, body });
        const m = decodeFrame(wire, { tzOffsetMinutes: tz });
        if (m.msgId !== MsgId.Location || m.opaque) throw new Error('not a location');
        expect(m.body.latitude).toBe(body.latitude === 0 ? m.body.latitude : body.latitude);
        expect(Math.abs(m.body.latitude)).toBe(Math.abs(body.latitude));
        expect(m.body.longitude === 0 ? 0 : m.body.longitude).toBe(body.longitude === 0 ? 0 : body.longitude);
        expect(m.body.altitude).toBe(body.altitude);
        expect(m.body.speed).toBe(body.speed);
        expect(m.body.direction).toBe(body.direction);
        expect(m.body.alarm.raw).toBe(body.alarm);
        expect(m.body.time).toBe(body.time);
        expect(m.body.extras).toEqual(body.extras);
        expect(encodeMessage({ phone: '13912345678', serial: 1, version, tzOffsetMinutes: tz }, m).equals(wire)).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
