/**
 * A finite number as String(v) writes it, faster for what terminals report: coordinates in
 * millionths of a degree, speeds, mileage and fuel in tenths. Such a value is k / 10^6 for an
 * integer k, and its shortest round-trip text is k's digits with the point put back, which integer
 * arithmetic writes faster than V8's double-to-text for values it has not written lately (the
 * COPY text of a batch of fresh positions in 0.78x the time; docs/benchmarks.md). Any other value
 * is written by String itself.
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
