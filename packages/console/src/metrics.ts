/**
 * Rates and lateness from samples of a node's `/metrics`, taken by the
 * Cluster page while it is open: no reader of the API keeps a history, so the
 * charts start when the page does. A counter's rate is its growth between two
 * samples (a node's restart, which sets it back, reads as no growth); lateness
 * quantiles are read from the growth of the delivery-lateness histogram's
 * buckets, as Prometheus' histogram_quantile does.
 */

export interface Sample {
  readonly atMs: number;
  /** Each counter summed over its labels. */
  readonly counters: ReadonlyMap<string, number>;
  /** `fermata_delivery_lateness_ms` cumulative bucket counts by upper bound (Infinity last). */
  readonly latenessBuckets: readonly (readonly [number, number])[];
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)/;

export function parseMetrics(text: string, atMs: number): Sample {
  const counters = new Map<string, number>();
  const buckets = new Map<number, number>();
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const [, name = '', labels = '', raw = ''] = m;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (name === 'fermata_delivery_lateness_ms_bucket') {
      const le = /le="([^"]+)"/.exec(labels)?.[1];
      if (le === undefined) continue;
      const bound = le === '+Inf' ? Number.POSITIVE_INFINITY : Number(le);
      buckets.set(bound, (buckets.get(bound) ?? 0) + value);
    } else if (name.endsWith('_total')) {
      counters.set(name, (counters.get(name) ?? 0) + value);
    }
  }
  return { atMs, counters, latenessBuckets: [...buckets].sort((a, b) => a[0] - b[0]) };
}

/** Growth per second of counter `name` from `a` to `b`. */
export function rate(a: Sample, b: Sample, name: string): number {
  const seconds = (b.atMs - a.atMs) / 1000;
  const grown = (b.counters.get(name) ?? 0) - (a.counters.get(name) ?? 0);
  return seconds > 0 && grown > 0 ? grown / seconds : 0;
}

/** The `q` quantile (0..1) of the lateness of deliveries made between `a` and `b`, in ms; null if none. */
export function latenessQuantile(a: Sample, b: Sample, q: number): number | null {
  const before = new Map(a.latenessBuckets);
  const grown = b.latenessBuckets.map(([le, n]) => [le, Math.max(0, n - (before.get(le) ?? 0))] as const);
  const total = grown.at(-1)?.[1] ?? 0;
  if (total === 0) return null;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const [le, n] of grown) {
    if (n >= rank) {
      if (le === Number.POSITIVE_INFINITY) return lower;
      return lower + ((le - lower) * (rank - below)) / Math.max(1, n - below);
    }
    lower = le;
    below = n;
  }
  return lower;
}
