/**
 * `fermata topics forecast <topic>`: how many pending messages fall due per
 * bucket, as a bar chart in the terminal, or with `--json` a list of
 * `{startMs, endMs, count, scheduled}`.
 */
import type { DueForecast } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { isoTime, printJson } from '../format.js';
import { parseDuration, parseTime } from '../parse.js';

interface ForecastFlags {
  group?: string;
  from?: string;
  to?: string;
  bucket: string;
}

/** Widest bar, in terminal cells. */
const BAR_CELLS = 50;
/** A cell's eighths: a bar ends in a partial block so small counts still show. */
const EIGHTHS = ['', '▏', '▎', '▍', '▌', '▋', '▊', '▉'];

/** `value` of `max` as a bar of at most `cells` cells, in eighths; at least a sliver when value > 0. */
export function bar(value: number, max: number, cells: number): string {
  if (value <= 0 || max <= 0) return '';
  const eighths = Math.max(1, Math.round((value / max) * cells * 8));
  return '█'.repeat(Math.floor(eighths / 8)) + EIGHTHS[eighths % 8]!;
}

/** The forecast as a chart: a line per bucket, `█` messages and `░` scheduled occurrences, then the counts. */
export function chart(f: DueForecast, title: string): string {
  const max = Math.max(1, ...f.buckets.map((b) => b.count + b.scheduled));
  const inRange = f.buckets.reduce((n, b) => n + b.count, 0);
  const scheduled = f.buckets.reduce((n, b) => n + b.scheduled, 0);
  const out = [
    `${title}: ${f.pending} pending (${inRange} in the range, ${f.pending - inRange} before or after it), ${f.inFlight} in flight`,
  ];
  if (scheduled > 0) out.push(`░ ${scheduled} occurrences of schedules, not messages yet`);
  const countWidth = Math.max(5, ...f.buckets.map((b) => String(b.count).length));
  for (const b of f.buckets) {
    const cells = bar(b.count + b.scheduled, max, BAR_CELLS);
    const messages = bar(b.count, max, BAR_CELLS);
    // Occurrences show as at least one cell of their own, however few beside the messages.
    const shade = b.scheduled > 0 ? Math.max(1, cells.length - messages.length) : 0;
    const bars = (messages + '░'.repeat(shade)).padEnd(BAR_CELLS + 1);
    const extra = b.scheduled > 0 ? `  +${b.scheduled} scheduled` : '';
    out.push(`${isoTime(b.startMs)}  ${bars} ${String(b.count).padStart(countWidth)}${extra}`);
  }
  return `${out.join('\n')}\n`;
}

/** Says on stderr what a forecast could not count: never a wrong figure in silence. */
function warnings(f: DueForecast): string {
  return (
    (f.complete
      ? ''
      : 'warning: this group was created by a server version that kept no due-load histogram and has not drained since: the counts are 0, not a forecast\n') +
    (f.schedulesTruncated
      ? 'warning: the topic has more schedules or occurrences than one answer reads: scheduled counts are a lower bound\n'
      : '')
  );
}

export function registerForecast(topics: Command): void {
  topics
    .command('forecast')
    .argument('<topic>', 'topic name')
    .description('how many pending messages fall due per bucket of time (a bar chart; --json: the buckets)')
    .option('--group <group>', 'the group (default: default)')
    .option('--from <time>', 'start of the range: ISO 8601, epoch ms, now, +10m, -1h (default now)')
    .option('--to <time>', 'end of the range, exclusive (default: 60 buckets after --from)')
    .option('--bucket <duration>', 'width of a bucket: whole seconds, minutes, hours or days', '1m')
    .action(async (topic: string, flags: ForecastFlags, cmd: Command) => {
      const nowMs = Date.now();
      const bucketMs = parseDuration(flags.bucket, '--bucket');
      const from = flags.from === undefined ? nowMs : parseTime(flags.from, '--from', nowMs);
      const to = flags.to === undefined ? undefined : parseTime(flags.to, '--to', nowMs);
      await withClient(cmd, async (client) => {
        const f = await client.dueForecast(topic, {
          ...(flags.group !== undefined ? { group: flags.group } : {}),
          from,
          ...(to !== undefined ? { to } : {}),
          bucketMs,
        });
        process.stderr.write(warnings(f));
        if (globals(cmd).json) {
          printJson(
            f.buckets.map((b) => ({
              startMs: b.startMs,
              endMs: b.endMs,
              count: b.count,
              scheduled: b.scheduled,
            })),
          );
        } else {
          process.stdout.write(chart(f, `topic ${topic}, group ${flags.group ?? 'default'}`));
        }
      });
    });
}
