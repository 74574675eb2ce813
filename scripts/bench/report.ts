/** Helpers every benchmark scenario shares: JSON lines out, percentiles, flags. */

export function emit(record: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(record, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n`);
}

export function summary(line: string): void {
  process.stderr.write(`${line}\n`);
}

export function flag(args: string[], name: string): boolean {
  return args.includes(`--${name}`);
}

export function option(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = Number(args[i + 1]);
  if (!Number.isFinite(value)) throw new Error(`--${name} needs a number, got ${args[i + 1]}`);
  return value;
}

/** Percentile (0..100) of an ascending-sorted array, nearest rank. */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

export const round = (x: number, digits = 1): number => Number(x.toFixed(digits));

export function stringOption(args: string[], name: string, fallback: string): string {
  const i = args.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const value = args[i + 1];
  if (value === undefined || value.startsWith('--')) throw new Error(`--${name} needs a value`);
  return value;
}
