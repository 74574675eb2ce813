/** Helpers every benchmark scenario shares: JSON lines out, percentiles, flags. */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';

/** What `--record` stamps on each line it appends to the record of runs (scripts/bench/results). */
export interface RunStamp {
  /** YYYY-MM-DD */
  readonly date: string;
  /** What followed `npm run bench --`, without `--record`. */
  readonly command: string;
  readonly commit: string;
}

let recording: { readonly dir: string; readonly stamp: RunStamp; readonly lines: object[] } | undefined;

/** From now on every emitted line is kept, to be appended by `saveRecordedRun` once the run ends well. */
export function recordRuns(dir: string, stamp: RunStamp): void {
  recording = { dir, stamp, lines: [] };
}

/** Appends the lines of a run that finished to `<dir>/<scenario>.jsonl`, stamped; a failed run adds nothing. */
export function saveRecordedRun(): number {
  if (!recording) return 0;
  for (const line of recording.lines)
    appendRun(recording.dir, recording.stamp, line as Record<string, unknown>);
  return recording.lines.length;
}

const json = (record: Record<string, unknown>): string =>
  JSON.stringify(record, (_k, v) => (typeof v === 'bigint' ? v.toString() : v));

/** Appends one line to the record of runs: the stamp first, then the line as the scenario printed it. */
export function appendRun(dir: string, stamp: RunStamp, record: Record<string, unknown>): void {
  const scenario = record['scenario'];
  if (typeof scenario !== 'string') throw new Error(`--record: a line without a scenario: ${json(record)}`);
  appendFileSync(join(dir, `${scenario}.jsonl`), `${json({ ...stamp, ...record })}\n`);
}

export function emit(record: Record<string, unknown>): void {
  process.stdout.write(`${json(record)}\n`);
  if (recording) recording.lines.push(JSON.parse(json(record)));
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

/** One target (docs/benchmarks.md) next to the figure a run measured. */
export interface TargetLine {
  readonly figure: string;
  readonly value: number | null;
  /** e.g. "<= 50" */
  readonly target: string;
  /** null: the figure was not measured (or not at the target's size) in this run. */
  readonly met: boolean | null;
}

/**
 * A target line: `value` against `op limit`. `atSize` false marks a run smaller than the
 * target's (a --quick run, a smaller burst): printed, but not judged.
 */
export function target(
  figure: string,
  value: number | null | undefined,
  op: '<=' | '>=',
  limit: number,
  atSize = true,
): TargetLine {
  const v = value === undefined || value === null || Number.isNaN(value) ? null : value;
  const met = v === null || !atSize ? null : op === '<=' ? v <= limit : v >= limit;
  return { figure, value: v, target: `${op} ${limit}`, met };
}

/** A figure reported without a target (a ratio to a peer). */
export function reported(figure: string, value: number | null | undefined): TargetLine {
  const v = value === undefined || value === null || Number.isNaN(value) ? null : value;
  return { figure, value: v, target: 'reported', met: null };
}

/** Prints the targets as a table on stderr: target, figure, met yes/no. */
export function printTargets(scenario: string, lines: readonly TargetLine[]): void {
  const width = Math.max(...lines.map((l) => l.figure.length));
  for (const l of lines) {
    const met =
      l.target === 'reported'
        ? '(no target)'
        : l.value === null
          ? 'n/a (not measured)'
          : l.met === null
            ? 'n/a (run smaller than the target)'
            : l.met
              ? 'yes'
              : 'NO';
    const value = l.value === null ? '-' : String(l.value);
    summary(
      `target ${scenario}: ${l.figure.padEnd(width)}  target ${l.target.padEnd(10)} figure ${value.padStart(10)}  met ${met}`,
    );
  }
}
