import { newestFirst } from '../../../../src/pages/vehicleDetail/detailModel';

describe("the vehicle detail's run-and-stop timeline", () => {
  it('lists the newest segment first, whatever order the answer came in', () => {
    const seg = (begin: string) => ({ kind: 'run', begin, end: begin, durationS: 0 });
    const answer = [seg('2026-11-20T00:00:00Z'), seg('2026-11-20T08:00:00Z'), seg('2026-11-20T03:00:00+08:00')];
    expect(newestFirst(answer).map((s) => s.begin)).toEqual(['2026-11-20T08:00:00Z', '2026-11-20T00:00:00Z', '2026-11-20T03:00:00+08:00']);
    expect(answer[0].begin).toBe('2026-11-20T00:00:00Z');
  });
});
