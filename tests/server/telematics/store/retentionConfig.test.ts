import { loadConfig } from '../../../../server/config';

describe('POSITION_RETENTION_MONTHS', () => {
  it('is off unless set to a number of months', () => {
    expect(loadConfig({}).positionRetentionMonths).toBeNull();
    expect(loadConfig({ POSITION_RETENTION_MONTHS: '' }).positionRetentionMonths).toBeNull();
    expect(loadConfig({ POSITION_RETENTION_MONTHS: '0' }).positionRetentionMonths).toBeNull();
    expect(loadConfig({ POSITION_RETENTION_MONTHS: '1' }).positionRetentionMonths).toBe(1);
    expect(loadConfig({ POSITION_RETENTION_MONTHS: '24' }).positionRetentionMonths).toBe(24);
    expect(loadConfig({ POSITION_RETENTION_MONTHS: '1200' }).positionRetentionMonths).toBe(1200);
  });

  it.each(['-1', '1.5', '12 months', 'abc', '1e2', ' 6', '1201', '0x10'])('refuses "%s" naming the setting', (bad) => {
    expect(() => loadConfig({ POSITION_RETENTION_MONTHS: bad })).toThrow(
      `POSITION_RETENTION_MONTHS must be a number of months (1-1200, or 0 to keep everything), got "${bad}"`,
    );
  });
});
