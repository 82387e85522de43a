import { loadConfig } from '../../../../server/config';

describe('DERIVE_THREAD', () => {
  const url = 'postgres://postgres@127.0.0.1:5432/fleet';

  it('is on with DATABASE_URL and off on the embedded database unless set', () => {
    expect(loadConfig({}).deriveThread).toBe(false);
    expect(loadConfig({ DATABASE_URL: url }).deriveThread).toBe(true);
    expect(loadConfig({ DATABASE_URL: url, DERIVE_THREAD: '0' }).deriveThread).toBe(false);
    expect(loadConfig({ DATABASE_URL: url, DERIVE_THREAD: '1' }).deriveThread).toBe(true);
    expect(loadConfig({ DERIVE_THREAD: '0' }).deriveThread).toBe(false);
  });

  it('refuses other values, and a thread without PostgreSQL, naming the setting', () => {
    expect(() => loadConfig({ DATABASE_URL: url, DERIVE_THREAD: 'yes' })).toThrow('DERIVE_THREAD must be "1" or "0", got "yes"');
    expect(() => loadConfig({ DERIVE_THREAD: '1' })).toThrow(
      'DERIVE_THREAD=1 needs DATABASE_URL: the embedded database belongs to one thread',
    );
  });
});
