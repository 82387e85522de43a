import { daysExpired, isExpired, localToday, proposedEnd } from '../../../../src/pages/fleet/service/serviceDates';

describe('service dates', () => {
  it("takes today from the browser's own calendar", () => {
    expect(localToday(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localToday(new Date(2026, 10, 22, 0, 0))).toBe('2026-11-22');
  });

  it('calls a service expired when it ended before today, not on its last day', () => {
    const today = '2026-11-22';
    expect(isExpired('2026-11-21', today)).toBe(true);
    expect(isExpired('2026-01-31', today)).toBe(true);
    expect(isExpired('2026-11-22', today)).toBe(false);
    expect(isExpired('2027-12-31', today)).toBe(false);
    // No end, or something that is no date, is not "expired".
    for (const v of [undefined, null, '', 'soon', 20261121, '21/11/2026']) expect(isExpired(v, today)).toBe(false);
    expect(isExpired('2026-11-21T00:00:00.000Z', today)).toBe(true);
  });

  it('counts whole days since the end', () => {
    expect(daysExpired('2026-11-21', '2026-11-22')).toBe(1);
    expect(daysExpired('2026-01-31', '2026-11-22')).toBe(295);
    expect(daysExpired('2024-02-28', '2024-03-01')).toBe(2); // a leap year
    expect(daysExpired('2026-11-22', '2026-11-22')).toBe(0);
    expect(daysExpired(null, '2026-11-22')).toBe(0);
  });

  it('proposes a year on from today, or from an end still ahead', () => {
    expect(proposedEnd('2026-01-31', '2026-11-22')).toBe('2027-11-22');
    expect(proposedEnd(null, '2026-11-22')).toBe('2027-11-22');
    expect(proposedEnd('2027-12-31', '2026-11-22')).toBe('2028-12-31');
    expect(proposedEnd('2028-02-29', '2026-11-22')).toBe('2029-02-28');
  });
});
