import { isAttachRace, retryAttachRace } from '../../../../server/telematics/store/attachRace';

/** An error shaped as pg's DatabaseError. */
const dbError = (message: string, code: string, table?: string) => Object.assign(new Error(message), { code, table });
const race = () => dbError('new row for relation "position_default" violates partition constraint', '23514', 'position_default');

describe('a write that lost the race with a month partition attach', () => {
  it('is told apart from every other refusal', () => {
    expect(isAttachRace(race())).toBe(true);
    // The same check on a month partition, or a CHECK constraint of the default, is a real refusal.
    expect(
      isAttachRace(dbError('new row for relation "position_p209910" violates partition constraint', '23514', 'position_p209910')),
    ).toBe(false);
    expect(
      isAttachRace(dbError('new row for relation "position_default" violates check constraint "x"', '23514', 'position_default')),
    ).toBe(false);
    expect(isAttachRace(dbError('value "1099511627776" is out of range for type integer', '22003'))).toBe(false);
    expect(isAttachRace('position_default')).toBe(false);
  });

  it('is run again until it succeeds, at most three times, and any other error is thrown at once', async () => {
    let calls = 0;
    await expect(retryAttachRace(async () => (++calls < 3 ? Promise.reject(race()) : 'stored'))).resolves.toBe('stored');
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryAttachRace(async () => (++calls, Promise.reject(race())))).rejects.toThrow(/violates partition constraint/);
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryAttachRace(async () => (++calls, Promise.reject(dbError('deadlock detected', '40P01'))))).rejects.toThrow(/deadlock/);
    expect(calls).toBe(1);
  });
});
