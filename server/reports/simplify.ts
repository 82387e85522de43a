/**
 * Track simplification for replay with maxPoints: Douglas–Peucker run once to rank every point by
 * the tolerance at which it would still be kept, then the best-ranked points up to the budget.
 * Stops (where the vehicle comes to a standstill or sets off) and turns are kept first, so a
 * simplified replay still shows where it stood and where it turned. Linear memory, no re-runs.
 */

export interface TrackArrays {
  length: number;
  time: Float64Array;
  latitude: Float64Array;
  longitude: Float64Array;
  speed: Float32Array;
  direction: Float32Array;
}

const MOVING_KMH = 5;
const TURN_DEG = 45;

/** Indexes of standstill starts and ends and of turns sharper than TURN_DEG between moving points. */
export function landmarks(t: TrackArrays): number[] {
  const out: number[] = [];
  let lastHeading = -1;
  for (let i = 1; i < t.length - 1; i++) {
    const moving = t.speed[i] >= MOVING_KMH;
    if (moving !== t.speed[i - 1] >= MOVING_KMH) {
      out.push(i);
      continue;
    }
    if (!moving) continue;
    if (lastHeading >= 0) {
      const d = Math.abs(t.direction[i] - lastHeading) % 360;
      if (Math.min(d, 360 - d) > TURN_DEG) {
        out.push(i);
        lastHeading = t.direction[i];
      }
    } else lastHeading = t.direction[i];
  }
  return out;
}

/** Douglas–Peucker rank of every point (metres; Infinity for the ends). */
export function significance(t: TrackArrays): Float64Array {
  const n = t.length;
  const sig = new Float64Array(n);
  if (!n) return sig;
  const lat0 = (t.latitude[0] * Math.PI) / 180;
  const kx = 111_320 * Math.cos(lat0);
  const ky = 110_540;
  sig[0] = Infinity;
  sig[n - 1] = Infinity;
  const stack: number[] = [0, n - 1, Infinity];
  while (stack.length) {
    const cap = stack.pop()!;
    const b = stack.pop()!;
    const a = stack.pop()!;
    if (b - a < 2) continue;
    const ax = t.longitude[a] * kx;
    const ay = t.latitude[a] * ky;
    const dx = t.longitude[b] * kx - ax;
    const dy = t.latitude[b] * ky - ay;
    const len2 = dx * dx + dy * dy;
    let best = -1;
    let bestD = -1;
    for (let i = a + 1; i < b; i++) {
      const px = t.longitude[i] * kx - ax;
      const py = t.latitude[i] * ky - ay;
      let d2: number;
      if (len2 === 0) d2 = px * px + py * py;
      else {
        const u = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const ex = px - u * dx;
        const ey = py - u * dy;
        d2 = ex * ex + ey * ey;
      }
      if (d2 > bestD) {
        bestD = d2;
        best = i;
      }
    }
    // A child never ranks above its parent, so any threshold keeps a connected refinement.
    const s = Math.min(Math.sqrt(bestD), cap);
    sig[best] = s;
    stack.push(a, best, s, best, b, s);
  }
  return sig;
}

/** Indexes (ascending) of at most maxPoints points to keep. */
export function simplifyTrack(t: TrackArrays, maxPoints: number): number[] {
  const n = t.length;
  if (n <= maxPoints) return Array.from({ length: n }, (_, i) => i);
  const sig = significance(t);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  let kept = Math.min(n, 2);
  // Landmarks first, up to half the budget (a long stop-and-go day could have more).
  for (const i of landmarks(t)) {
    if (kept >= Math.max(2, maxPoints >> 1)) break;
    if (!keep[i]) {
      keep[i] = 1;
      kept++;
    }
  }
  const rest = maxPoints - kept;
  if (rest > 0) {
    const candidates: number[] = [];
    for (let i = 0; i < n; i++) if (!keep[i]) candidates.push(i);
    const ranks = Float64Array.from(candidates, (i) => sig[i]).sort();
    const threshold = ranks[Math.max(0, ranks.length - rest)];
    let added = 0;
    for (const i of candidates) {
      if (added >= rest) break;
      if (sig[i] > threshold) {
        keep[i] = 1;
        added++;
      }
    }
    for (const i of candidates) {
      if (added >= rest) break;
      if (!keep[i] && sig[i] === threshold) {
        keep[i] = 1;
        added++;
      }
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(i);
  return out;
}
