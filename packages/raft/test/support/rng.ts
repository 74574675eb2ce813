/** A small seeded random source for fuzzers (mulberry32): a seed replays a run exactly. */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** Integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }
}

/** The seed of a fuzz run: FERMATA_TEST_FUZZ_SEED when set (to replay), else `fallback`. */
export function fuzzSeed(fallback: number): number {
  const env = process.env['FERMATA_TEST_FUZZ_SEED'];
  return env === undefined || env === '' ? fallback : Number(env) >>> 0;
}

/** Iterations of a fuzz run: FERMATA_TEST_FUZZ_ITERATIONS when set (the long run), else `fallback`. */
export function fuzzIterations(fallback: number): number {
  const env = process.env['FERMATA_TEST_FUZZ_ITERATIONS'];
  return env === undefined || env === '' ? fallback : Math.max(1, Number(env) | 0);
}
