/**
 * A finite number as String(v) writes it, faster for what terminals report: coordinates in
 * millionths of a degree, speeds, mileage and fuel in tenths. Such a value is k / 10^6 for an
 * integer k, and its shortest round-trip text is k's digits with the point put back, which integer
 * arithmetic writes several times faster than V8's double-to-text (String(31.234567) ~0.5 µs: the
 * largest single cost of writing a batch as COPY text or as JSON; docs/benchmarks.md). Any other
 * value is written by String itself.
 */

const SCALE = 1e6;
const DIGITS = 6;
/** Below 2^31 / 10^6 (~2,147) the decimals of k / 10^6 are far coarser than the double's spacing. */
const LIMIT = 2 ** 31 - 1;

/** String(v) for a finite v (callers handle null, NaN and infinities as their format needs). */
export function decimalText(v: number): string {
  if (Number.isInteger(v)) return String(v);
  const k = Math.round(v * SCALE);
  if (k / SCALE !== v || k > LIMIT || k < -LIMIT) return String(v);
  const a = k < 0 ? -k : k;
  const whole = Math.floor(a / SCALE);
  let frac = a - whole * SCALE;
  let digits = DIGITS;
  while (frac % 10 === 0) {
    frac /= 10;
    digits--;
  }
  return `${k < 0 ? '-' : ''}${whole}.${String(frac).padStart(digits, '0')}`;
}
