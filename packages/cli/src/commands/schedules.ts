import type { CatchUp, DstPolicy, RecurringSchedule, ScheduleDefinition } from '@fermata/sdk';
import { type Command, Option } from 'commander';
import { globals, withClient } from '../context.js';
import { ExitCode, QuietExit } from '../exit-codes.js';
import { duration, fields, isoTime, payloadCell, printJson, table } from '../format.js';
import { collect, parseDuration, parseHeaders, parseInteger, parseTime } from '../parse.js';

interface CreateFlags {
  spec: string;
  payload?: string;
  timeZone?: string;
  header?: string[];
  keyTemplate?: string;
  startAt?: string;
  endAt?: string;
  jitter?: string;
  catchUp?: string;
  dstPolicy?: string;
  misfireThreshold?: string;
  paused?: boolean;
}

/** "2026-03-29 03:00:00 GMT+2"-style local time of an instant in a zone. */
export function localTime(ms: number, zone: string): string {
  const f = new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'shortOffset',
  });
  return f.format(ms);
}

function definitionFrom(f: CreateFlags): ScheduleDefinition {
  const d: ScheduleDefinition = { spec: f.spec };
  if (f.payload !== undefined) d.payload = f.payload;
  if (f.timeZone !== undefined) d.timeZone = f.timeZone;
  const headers = parseHeaders(f.header ?? []);
  if (headers) d.headers = headers;
  if (f.keyTemplate !== undefined) d.keyTemplate = f.keyTemplate;
  if (f.startAt !== undefined) d.startAt = parseTime(f.startAt, '--start-at');
  if (f.endAt !== undefined) d.endAt = parseTime(f.endAt, '--end-at');
  if (f.jitter !== undefined) d.jitterMs = parseDuration(f.jitter, '--jitter');
  if (f.catchUp !== undefined) d.catchUp = f.catchUp as CatchUp;
  if (f.dstPolicy !== undefined) d.dstPolicy = f.dstPolicy as DstPolicy;
  if (f.misfireThreshold !== undefined)
    d.misfireThresholdMs = parseDuration(f.misfireThreshold, '--misfire-threshold');
  if (f.paused) d.paused = true;
  return d;
}

function printSchedule(s: RecurringSchedule): void {
  process.stdout.write(
    fields([
      ['schedule', `${s.topic}/${s.name}`],
      ['spec', s.spec],
      ['time zone', s.timeZone],
      ['state', stateOf(s)],
      ...(s.broken !== '' ? [['broken', s.broken] as [string, string]] : []),
      ['payload', payloadCell(s.payload)],
      ['key template', s.keyTemplate || '(none)'],
      ['start at', s.startAtMs > 0 ? isoTime(s.startAtMs) : '-'],
      ['end at', s.endAtMs > 0 ? isoTime(s.endAtMs) : '-'],
      ['jitter', duration(s.jitterMs)],
      ['catch up', s.catchUp],
      ['dst policy', s.dstPolicy],
      ['fired', String(s.fired)],
      ['skipped', String(s.skipped)],
      ['last fired', s.lastFiredMs > 0 ? isoTime(s.lastFiredMs) : '-'],
      ['next', s.nextFireMs[0] !== undefined ? isoTime(s.nextFireMs[0]) : '-'],
    ]),
  );
}

/** running, paused, or broken (its next occurrence cannot be computed: it fires nothing). */
function stateOf(s: { paused: boolean; broken: string }): string {
  return s.broken !== '' ? 'broken' : s.paused ? 'paused' : 'running';
}

function statusExit(status: string): void {
  if (status === 'not-found') throw new QuietExit(ExitCode.NOT_FOUND);
}

/** `fermata schedules create|list|get|next|pause|resume|trigger|delete`. */
export function registerSchedules(program: Command): void {
  const schedules = program
    .command('schedules')
    .description('recurring schedules: cron or intervals in IANA time zones, one message per occurrence');

  schedules
    .command('create')
    .argument('<topic>', 'topic of the messages (created on first use)')
    .argument('<name>', 'schedule name, unique in the topic')
    .description('create a schedule, or replace the definition of the one with this name')
    .requiredOption('--spec <spec>', "5- or 6-field cron ('0 9 * * 1-5') or an interval ('every 15m')")
    .option('-p, --payload <text>', 'payload of each message')
    .option('--time-zone <zone>', 'IANA time zone of a cron spec (default UTC)')
    .option('-H, --header <name=value>', 'a header of each message (repeat for more)', collect)
    .option('--key-template <template>', 'key of each message: {schedule}, {occurrence_ms}, {occurrence}')
    .option('--start-at <time>', 'no occurrence before: ISO 8601, epoch ms or +10m')
    .option('--end-at <time>', 'no occurrence after: ISO 8601, epoch ms or +10m')
    .option('--jitter <duration>', 'spread each message up to this much after its occurrence')
    .addOption(
      new Option('--catch-up <policy>', 'occurrences missed in an outage').choices(['none', 'latest', 'all']),
    )
    .addOption(
      new Option('--dst-policy <policy>', 'a local time that occurs twice fires').choices(['once', 'both']),
    )
    .option('--misfire-threshold <duration>', 'an occurrence later than this is missed (default 60s)')
    .option('--paused', 'create paused')
    .action(async (topic: string, name: string, flags: CreateFlags, cmd: Command) => {
      const definition = definitionFrom(flags);
      await withClient(cmd, async (client) => {
        const r = await client.upsertSchedule(topic, name, definition);
        if (globals(cmd).json) printJson(r);
        else {
          process.stdout.write(`${r.created ? 'created' : 'updated'} schedule ${topic}/${name}\n`);
          printSchedule(r.schedule);
        }
      });
    });

  schedules
    .command('list')
    .alias('ls')
    .argument('<topic>', 'topic name')
    .option('--after <name>', 'start after this schedule name (paging)')
    .option('--limit <n>', 'at most this many schedules')
    .description('the schedules of a topic with their next fire time')
    .action(async (topic: string, flags: { after?: string; limit?: string }, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const list = await client.listSchedules(topic, {
          ...(flags.after !== undefined ? { afterName: flags.after } : {}),
          ...(flags.limit !== undefined ? { limit: parseInteger(flags.limit, '--limit', 1, 100_000) } : {}),
        });
        if (globals(cmd).json) printJson(list);
        else if (list.length === 0) process.stderr.write('no schedules\n');
        else
          process.stdout.write(
            table(
              ['NAME', 'SPEC', 'TIME ZONE', 'STATE', 'FIRED', 'NEXT (UTC)'],
              list.map((s) => [
                s.name,
                s.spec,
                s.timeZone,
                stateOf(s),
                String(s.fired),
                s.nextFireMs[0] !== undefined ? isoTime(s.nextFireMs[0]) : '-',
              ]),
            ),
          );
      });
    });

  schedules
    .command('get')
    .argument('<topic>', 'topic name')
    .argument('<name>', 'schedule name')
    .description('one schedule (exit 3 if not found)')
    .action(async (topic: string, name: string, _flags: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const s = await client.getSchedule(topic, name);
        if (globals(cmd).json) printJson(s);
        else printSchedule(s);
      });
    });

  schedules
    .command('next')
    .argument('<topic>', 'topic name')
    .argument('<name>', 'schedule name')
    .option('-n, --count <n>', 'how many fire times (default 5, at most 100)')
    .description("the next fire times, in the schedule's time zone and in UTC")
    .action(async (topic: string, name: string, flags: { count?: string }, cmd: Command) => {
      const n = flags.count !== undefined ? parseInteger(flags.count, '--count', 1, 100) : 5;
      await withClient(cmd, async (client) => {
        const s = await client.getSchedule(topic, name, n);
        if (globals(cmd).json) {
          printJson(
            s.nextFireMs.map((ms) => ({ atMs: ms, utc: isoTime(ms), local: localTime(ms, s.timeZone) })),
          );
          return;
        }
        if (s.nextFireMs.length === 0)
          process.stderr.write(s.paused ? 'paused: no fire times\n' : 'no fire times\n');
        else
          process.stdout.write(
            table(
              [s.timeZone.toUpperCase() === 'UTC' ? 'LOCAL (UTC)' : `LOCAL (${s.timeZone})`, 'UTC'],
              s.nextFireMs.map((ms) => [localTime(ms, s.timeZone), isoTime(ms)]),
            ),
          );
      });
    });

  for (const [verb, what] of [
    ['pause', 'stop firing (unchanged if already paused; exit 3 if not found)'],
    ['resume', 'fire again from now (what fell due while paused does not fire; exit 3 if not found)'],
    ['delete', 'remove the schedule; messages already made stay (exit 3 if not found)'],
  ] as const) {
    schedules
      .command(verb)
      .argument('<topic>', 'topic name')
      .argument('<name>', 'schedule name')
      .description(what)
      .action(async (topic: string, name: string, _flags: unknown, cmd: Command) => {
        await withClient(cmd, async (client) => {
          const status =
            verb === 'pause'
              ? await client.pauseSchedule(topic, name)
              : verb === 'resume'
                ? await client.resumeSchedule(topic, name)
                : await client.deleteSchedule(topic, name);
          if (globals(cmd).json) printJson({ topic, name, status });
          else process.stdout.write(`${status}\n`);
          statusExit(status);
        });
      });
  }

  schedules
    .command('trigger')
    .argument('<topic>', 'topic name')
    .argument('<name>', 'schedule name')
    .description('publish one message of the schedule now, outside its occurrences (exit 3 if not found)')
    .action(async (topic: string, name: string, _flags: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const r = await client.triggerSchedule(topic, name);
        if (globals(cmd).json) printJson(r);
        else process.stdout.write(r.status === 'done' ? `triggered: message ${r.id}\n` : `${r.status}\n`);
        statusExit(r.status);
      });
    });
}
