import { decodeGbk, encodeGbk } from '../../../../server/telematics/jt808/codec';

describe('GBK', () => {
  it("Node's TextDecoder('gbk') is available (full ICU)", () => {
    expect(new TextDecoder('gbk').decode(Buffer.from('d4c1', 'hex'))).toBe('粤');
  });

  it.each(['粤B88888', '京A·12345', '苏BA68608', '新Q12345', '使014578', '注意安全，请勿疲劳驾驶！', 'plain ASCII'])(
    'round-trips %s',
    (text) => {
      expect(decodeGbk(encodeGbk(text))).toBe(text);
    },
  );

  it('encodes with the GBK codes devices send', () => {
    expect(encodeGbk('粤B').toString('hex')).toBe('d4c142');
    expect(encodeGbk('苏').toString('hex')).toBe('cbd5');
  });

  it('replaces characters outside GBK with ?', () => {
    expect(encodeGbk('A😀B').toString('latin1')).toBe('A?B');
  });

  it('decodes a slice without copying the rest', () => {
    const b = Buffer.from('00d4c14238383838383800', 'hex');
    expect(decodeGbk(b, 1, 10)).toBe('粤B888888');
  });
});
