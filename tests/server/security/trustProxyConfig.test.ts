import { loadConfig } from '../../../server/config';

/** TRUST_PROXY as Fastify takes it (issue 18 L2): none by default, and a clear refusal of anything else. */
describe('TRUST_PROXY', () => {
  const parse = (value?: string) => loadConfig({ TRUST_PROXY: value }).trustProxy;

  it('trusts no proxy unless told, and takes true, a hop count or a list of addresses and ranges', () => {
    expect(parse()).toBe(false);
    expect(parse('')).toBe(false);
    expect(parse('false')).toBe(false);
    expect(parse('true')).toBe(true);
    expect(parse('2')).toBe(2);
    expect(parse('127.0.0.1, 10.0.0.0/8,::1')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('refuses anything else, naming the variable', () => {
    for (const bad of ['yes', '11', 'proxy.example.com', '10.0.0.1;rm', ',']) expect(() => parse(bad)).toThrow(/TRUST_PROXY/);
  });
});
