import { addressAllowed, ipv6Bytes, literalTargetProblem, NO_ALLOW, parseTargetAllow } from '../../../server/notify/target';
import { loadConfig } from '../../../server/config';

describe('the webhook target guard', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '192.0.0.8',
    '198.18.0.1',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '[::1]',
    '::7f00:1',
    'fc00::1',
    'fdff::1',
    'fe80::1',
    'fe80::1%eth0',
    'fec0::1',
    'ff02::1',
    '64:ff9b:1::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::7f00:1',
    '64:ff9b::10.0.0.1',
    '2002:c0a8:0101::1',
    '2002:7f00:0001::',
  ])('refuses %s', (ip) => expect(addressAllowed(ip, NO_ALLOW)).toBe(false));

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.1',
    '172.32.0.1',
    '192.169.0.1',
    '2001:4860:4860::8888',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
  ])('lets %s through', (ip) => expect(addressAllowed(ip, NO_ALLOW)).toBe(true));

  it('reads IPv6 addresses to their bytes, dotted tails and zones included', () => {
    expect(ipv6Bytes('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 1, 2, 3, 4]);
    expect(ipv6Bytes('fe80::1%eth0')).toEqual([0xfe, 0x80, ...new Array(13).fill(0), 1]);
    expect(ipv6Bytes('1:2:3:4:5:6:7:8')).toEqual([0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8]);
    expect(ipv6Bytes('127.0.0.1')).toBeNull();
  });

  it('judges a URL as written: scheme, every spelling of a literal address, localhost names when asked', () => {
    for (const url of [
      'http://127.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0177.0.0.1/',
      'http://[::ffff:127.0.0.1]/',
      'http://0.0.0.0:80/',
      'https://[::1]:8443/x',
      'http://169.254.169.254/',
    ])
      expect({ url, problem: literalTargetProblem(url, NO_ALLOW) }).toEqual({ url, problem: 'address' });
    for (const url of ['http://localhost:8000/', 'http://LOCALHOST./', 'http://api.localhost/']) {
      expect(literalTargetProblem(url, NO_ALLOW)).toBe('address');
      // A delivery leaves names to the connect-time lookup.
      expect(literalTargetProblem(url, NO_ALLOW, { localNames: false })).toBeNull();
    }
    for (const url of ['ftp://example.com/', 'file:///etc/passwd', 'gopher://x/', 'http://[zz]/', 'not a url'])
      expect(literalTargetProblem(url, NO_ALLOW)).toBe('scheme');
    expect(literalTargetProblem('https://hooks.example.com/fleet?x=1', NO_ALLOW)).toBeNull();
  });

  it('lets the operator allow hosts, name suffixes, addresses and ranges', () => {
    const allow = parseTargetAllow(' 127.0.0.2, 10.20.0.0/16 *.corp.example hooks.internal [fd00::]/8 ::1');
    expect(addressAllowed('127.0.0.2', allow)).toBe(true);
    expect(addressAllowed('127.0.0.1', allow)).toBe(false);
    expect(addressAllowed('10.20.3.4', allow)).toBe(true);
    expect(addressAllowed('10.21.3.4', allow)).toBe(false);
    expect(addressAllowed('fd00::5', allow)).toBe(true);
    expect(addressAllowed('::1', allow)).toBe(true);
    expect(literalTargetProblem('http://a.b.corp.example/', allow)).toBeNull();
    expect(literalTargetProblem('http://HOOKS.internal./', allow)).toBeNull();
    expect(literalTargetProblem('http://127.0.0.2:9/', allow)).toBeNull();
    expect(literalTargetProblem('http://localhost/', parseTargetAllow('localhost'))).toBeNull();
    expect(parseTargetAllow('').names.size + parseTargetAllow(undefined).suffixes.length).toBe(0);
  });

  it.each(['10.0.0.0/33', '10.0.0.0/8/1', '1.2.3.4/x', 'a_b', 'http://x', '*.'])('refuses "%s" in WEBHOOK_ALLOW, naming it', (entry) => {
    expect(() => parseTargetAllow(entry)).toThrow(`WEBHOOK_ALLOW: "${entry}"`);
    expect(() => loadConfig({ WEBHOOK_ALLOW: `127.0.0.2,${entry}` })).toThrow(`WEBHOOK_ALLOW: "${entry}"`);
  });

  it('is read from WEBHOOK_ALLOW, nothing allowed by default', () => {
    expect(loadConfig({}).webhookAllow.text).toBe('');
    expect(addressAllowed('192.168.1.10', loadConfig({ WEBHOOK_ALLOW: '192.168.1.0/24' }).webhookAllow)).toBe(true);
  });
});
