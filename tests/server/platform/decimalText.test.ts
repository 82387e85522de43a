/** decimalText writes every finite number exactly as String does. */
import { decimalText } from '../../../server/platform/decimalText';

describe('decimalText', () => {
  it('writes what terminals report as String does', () => {
    for (let i = 0; i < 20_000; i++) {
      const micro = Math.floor((Math.random() - 0.5) * 360e6) / 1e6;
      const tenth = Math.floor(Math.random() * 1e7) / 10;
      const hundredth = Math.floor(Math.random() * 1e6) / 100;
      for (const v of [micro, tenth, hundredth]) expect(decimalText(v)).toBe(String(v));
    }
  });

  it('writes any other finite number as String does', () => {
    const odd = [0, -0, 1, -1, 0.1, 0.2 + 0.1, 1 / 3, -2 / 3, 1e-7, 5e-324, 1e21, 123456789.123, 2147.483647, 2147.483648];
    for (let i = 0; i < 2000; i++) odd.push((Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 20 - 10));
    for (const v of odd) expect(decimalText(v)).toBe(String(v));
  });
});
