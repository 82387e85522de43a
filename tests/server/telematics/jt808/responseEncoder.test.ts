/** The gateway's 0x8001 encoder gives the generic encoder's bytes, frame after frame. */
import fc from 'fast-check';
import { encodeMessage, MsgId, ResponseEncoder, type Jt808Version } from '../../../../server/telematics/jt808/codec';

const u16 = fc.integer({ min: 0, max: 0xffff });
const header = fc.constantFrom<Jt808Version>(2011, 2013, 2019).chain((version) =>
  fc.record({
    version: fc.constant(version),
    phone: fc.stringMatching(version === 2019 ? /^[0-9]{1,20}$/ : /^[0-9]{1,12}$/),
    protocolVersion: version === 2019 ? fc.option(fc.integer({ min: 0, max: 255 }), { nil: undefined }) : fc.constant(undefined),
  }),
);
// Serials and ids of 0x7d / 0x7e bytes exercise the escaping.
const word = fc.oneof(u16, fc.constantFrom(0x7e7e, 0x7d7d, 0x7e00, 0x007d));
const response = fc.record({ serial: word, replySerial: word, replyMsgId: word, result: fc.integer({ min: 0, max: 4 }) });

describe('ResponseEncoder', () => {
  it('writes what encodeMessage writes, and earlier frames stay as they were', () => {
    fc.assert(
      fc.property(header, fc.array(response, { minLength: 1, maxLength: 5 }), (h, responses) => {
        const encoder = new ResponseEncoder(h);
        const frames = responses.map((r) => encoder.frame(r.serial, r.replySerial, r.replyMsgId, r.result));
        responses.forEach((r, i) => {
          const expected = encodeMessage(
            { phone: h.phone, serial: r.serial, version: h.version, protocolVersion: h.protocolVersion },
            { msgId: MsgId.PlatformResponse, body: { replySerial: r.replySerial, replyMsgId: r.replyMsgId, result: r.result } },
          );
          expect(frames[i].toString('hex')).toBe(expected.toString('hex'));
        });
      }),
      { numRuns: 300 },
    );
  });

  it('fits only the header it was made for', () => {
    const e = new ResponseEncoder({ phone: '13912345678', version: 2013 });
    expect(e.fits({ phone: '13912345678', version: 2013 })).toBe(true);
    expect(e.fits({ phone: '13912345679', version: 2013 })).toBe(false);
    expect(e.fits({ phone: '13912345678', version: 2011 })).toBe(false);
    expect(e.fits({ phone: '13912345678', version: 2019, protocolVersion: 1 })).toBe(false);
  });
});
