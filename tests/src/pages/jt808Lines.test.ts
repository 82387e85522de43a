import { frameLineNumbers, frameLines } from '../../../src/pages/tools/jt808Format';

describe('JT/T 808 page: frames numbered by their line in the pasted text', () => {
  it('counts blank lines, so frame numbers point at the right line', () => {
    const text = '7e0002\n\n   \r\n7e0102\n7e0200\n\n';
    expect(frameLines(text)).toEqual(['7e0002', '7e0102', '7e0200']);
    expect(frameLineNumbers(text)).toEqual([1, 4, 5]);
  });
});
