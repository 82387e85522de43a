/**
 * Today's 0x0200 decoder against the project's first codec (commit a084ebc, taken from the
 * repository's history into a temporary folder at run time) over one fixed frame set, side by side in one run: standard
 * frames, vendor frames, and the sloppy frames field firmware sends (which the first codec refuses,
 * so only today's time is given for them). Both decode with the gateway's options.
 *
 * Rounds of the contenders alternate, their order rotating, so a busy machine slows both alike.
 * Per round: wall ns and CPU ns (user + system) per decode; the CPU figure is steadier when other
 * processes take the cores.
 *
 * Run: npx tsx bench/jt808-decode-pair.bench.ts  -> one JSON line per frame group.
 */

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeFrame } from '../server/telematics/jt808/codec';
import { GATEWAY_DECODE, LOCATION_CORPUS, type CorpusFrame } from '../tests/server/telematics/jt808/locationCorpus';
import { sampleLocationFrame } from './jt808-decode.bench';
import { runAsScript, type BenchResult } from './lib';

export interface Contender {
  name: string;
  /** Decodes one wire frame; throws when it refuses it. */
  decode: (frame: Buffer) => { serial: number };
}

export const TODAY: Contender = { name: 'today', decode: (f) => decodeFrame(f, GATEWAY_DECODE) };
/** The first codec's commit: the decode budget is "no slower than it". */
export const REFERENCE_COMMIT = 'a084ebc';

/**
 * The first codec as it was, checked out of git into a temporary folder (nothing is copied into the
 * tree); it had no tolerance options and ignores them. Needs the repository's history (not a
 * shallow clone).
 */
export async function referenceContender(commit = REFERENCE_COMMIT): Promise<Contender> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jt808-${commit}-`));
  const root = path.resolve(__dirname, '..');
  const tar = execFileSync('git', ['archive', commit, 'server/telematics/jt808'], { cwd: root, maxBuffer: 64 << 20 });
  execFileSync('tar', ['-x', '-C', dir], { input: tar });
  type ReferenceDecode = (frame: Buffer, opts: unknown) => { serial: number };
  const mod = (await import(path.join(dir, 'server/telematics/jt808/decode.ts'))) as { decodeFrame: ReferenceDecode };
  return { name: commit, decode: (f) => mod.decodeFrame(f, GATEWAY_DECODE) };
}

interface Group {
  name: string;
  frames: Buffer[];
}

/** The frame of bench/jt808-decode.bench.ts alone, then each kind of the corpus cycled. */
export function groups(corpus: readonly CorpusFrame[] = LOCATION_CORPUS): Group[] {
  const of = (kind: CorpusFrame['kind']) => corpus.filter((c) => c.kind === kind).map((c) => c.frame);
  return [
    { name: '12 standard items', frames: [sampleLocationFrame()] },
    { name: 'standard frames', frames: of('standard') },
    { name: 'vendor frames', frames: of('vendor') },
    { name: 'sloppy frames', frames: of('sloppy') },
  ];
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** Whether `c` decodes every frame (the first codec refuses sloppy ones). */
function decodesAll(c: Contender, frames: Buffer[]): string | null {
  for (const f of frames) {
    try {
      c.decode(f);
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }
  return null;
}

function timeRound(c: Contender, frames: Buffer[], n: number): { wallNs: number; cpuNs: number; sink: number } {
  let sink = 0;
  const k = frames.length;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) sink += c.decode(frames[i % k]).serial;
  const wall = Number(process.hrtime.bigint() - t0);
  const cpu = process.cpuUsage(cpu0);
  return { wallNs: wall / n, cpuNs: ((cpu.user + cpu.system) * 1000) / n, sink };
}

export interface CompareOptions {
  rounds?: number;
  perRound?: number;
}

/** Median ns per decode of each contender on each group; ratios against the last contender. */
export async function compare(contenders: Contender[], opts: CompareOptions = {}): Promise<BenchResult[]> {
  const rounds = opts.rounds ?? 15;
  const perRound = opts.perRound ?? 40_000;
  const results: BenchResult[] = [];
  let sink = 0;
  for (const g of groups()) {
    const able = contenders.map((c) => ({ c, refusal: decodesAll(c, g.frames) }));
    const running = able.filter((a) => a.refusal === null).map((a) => a.c);
    for (const c of running) for (let w = 0; w < 5; w++) sink += timeRound(c, g.frames, perRound).sink; // JIT warm-up
    const wall = new Map<string, number[]>(running.map((c) => [c.name, []]));
    const cpu = new Map<string, number[]>(running.map((c) => [c.name, []]));
    for (let r = 0; r < rounds; r++) {
      for (let j = 0; j < running.length; j++) {
        const c = running[(r + j) % running.length];
        const t = timeRound(c, g.frames, perRound);
        sink += t.sink;
        wall.get(c.name)?.push(t.wallNs);
        cpu.get(c.name)?.push(t.cpuNs);
      }
      await new Promise((resolve) => setImmediate(resolve)); // let GC and timers breathe between rounds
    }
    const result: BenchResult = { name: `jt808.decode.pair: ${g.name}`, frames: g.frames.length, rounds, perRound };
    for (const a of able) {
      if (a.refusal !== null) {
        result[a.c.name] = { refuses: a.refusal };
        continue;
      }
      result[a.c.name] = { medianNs: round1(median(wall.get(a.c.name) ?? [])), cpuMedianNs: round1(median(cpu.get(a.c.name) ?? [])) };
    }
    const base = contenders[contenders.length - 1];
    const baseCpu = cpu.get(base.name);
    const baseWall = wall.get(base.name);
    if (baseCpu && baseWall) {
      for (const c of running) {
        if (c === base) continue;
        result[`${c.name}/${base.name}`] = {
          wall: Math.round((median(wall.get(c.name) ?? []) / median(baseWall)) * 100) / 100,
          cpu: Math.round((median(cpu.get(c.name) ?? []) / median(baseCpu)) * 100) / 100,
        };
      }
    }
    results.push(result);
  }
  if (sink === 0) throw new Error('unreachable');
  return results;
}

export async function run(): Promise<BenchResult[]> {
  return compare([TODAY, await referenceContender()]);
}

if (require.main === module) runAsScript(run);
