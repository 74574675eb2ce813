import type {
  DeadlineAction,
  ExpiryAction,
  GroupSettingsView,
  GroupStats,
  Ordering,
  Topic,
  TopicSettings,
  TopicStats,
} from '@fermata/sdk';
import { type Command, Option } from 'commander';
import { globals, withClient } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { duration, fields, isoTime, printJson, table, timeWithRelative } from '../format.js';
import { parseDuration, parseInteger } from '../parse.js';
import { registerForecast } from './forecast.js';

interface SettingsFlags {
  maxAttempts?: string;
  lease?: string;
  deadLetterTopic?: string;
  expiry?: string;
  timeBucket?: string;
  dedupWindow?: string;
  ordering?: string;
  orderingKeyFromKey?: boolean;
  maxLateness?: string;
  deadlineAction?: string;
}

function addSettingsOptions(cmd: Command): Command {
  return cmd
    .option('--max-attempts <n>', 'deliveries before a message is dead-lettered')
    .option('--lease <duration>', 'default lease of a delivery (e.g. 30s)')
    .option('--dead-letter-topic <topic>', 'where dead letters go (default <topic>.dlq)')
    .addOption(
      new Option('--expiry <action>', 'what happens to an expired message').choices(['drop', 'dead-letter']),
    )
    .option('--time-bucket <duration>', 'granularity of the time index (0 = exact ms)')
    .option('--dedup-window <duration>', 'how long a key stays reserved after its message ends')
    .addOption(orderingOption('the ordering of groups that set none'))
    .option('--ordering-key-from-key', "a message's dedup key is its ordering key when it names none")
    .option('--no-ordering-key-from-key', 'a message without an ordering key has none')
    .option('--max-lateness <duration>', "a message's default deadline: its due time plus this (0 = none)")
    .addOption(
      new Option('--deadline-action <action>', 'what becomes of a message past its deadline').choices([
        'dead-letter',
        'drop',
      ]),
    );
}

/** `--ordering key|none`, for topics and groups. */
export function orderingOption(what: string): Option {
  return new Option('--ordering <ordering>', what).choices(['key', 'none']);
}

function settingsFrom(f: SettingsFlags): TopicSettings {
  const s: TopicSettings = {};
  if (f.maxAttempts !== undefined) s.maxAttempts = parseInteger(f.maxAttempts, '--max-attempts', 1, 2 ** 31);
  if (f.lease !== undefined) s.defaultLeaseMs = parseDuration(f.lease, '--lease');
  if (f.deadLetterTopic !== undefined) s.deadLetterTopic = f.deadLetterTopic;
  if (f.expiry !== undefined) s.expiryAction = f.expiry as ExpiryAction;
  if (f.timeBucket !== undefined) s.timeBucketMs = parseDuration(f.timeBucket, '--time-bucket');
  if (f.dedupWindow !== undefined) s.dedupWindowMs = parseDuration(f.dedupWindow, '--dedup-window');
  if (f.ordering !== undefined) s.ordering = f.ordering as Ordering;
  if (f.orderingKeyFromKey !== undefined) s.orderingKeyFromKey = f.orderingKeyFromKey;
  if (f.maxLateness !== undefined) s.maxLatenessMs = parseDuration(f.maxLateness, '--max-lateness');
  if (f.deadlineAction !== undefined) s.deadlineAction = f.deadlineAction as DeadlineAction;
  return s;
}

const TOPIC_HEADER = ['NAME', 'GROUPS', 'MAX ATTEMPTS', 'LEASE', 'DEAD-LETTER TOPIC', 'EXPIRY', 'CREATED'];

function topicRow(t: Topic): string[] {
  return [
    t.name,
    t.groups.join(','),
    String(t.settings.maxAttempts),
    duration(t.settings.defaultLeaseMs),
    t.settings.deadLetterTopic || `${t.name}.dlq`,
    t.settings.expiryAction,
    isoTime(t.createdAtMs),
  ];
}

export function printTopic(t: Topic): void {
  process.stdout.write(
    fields([
      ['topic', t.name],
      ['groups', t.groups.join(', ')],
      ['max attempts', String(t.settings.maxAttempts)],
      ['default lease', duration(t.settings.defaultLeaseMs)],
      ['dead-letter topic', t.settings.deadLetterTopic || `${t.name}.dlq`],
      ['expiry action', t.settings.expiryAction],
      ['time bucket', t.settings.timeBucketMs === 0 ? 'exact ms' : duration(t.settings.timeBucketMs)],
      ['dedup window', duration(t.settings.dedupWindowMs)],
      [
        'ordering',
        t.settings.ordering + (t.settings.orderingKeyFromKey ? ' (dedup key is ordering key)' : ''),
      ],
      ['max lateness', t.settings.maxLatenessMs === 0 ? 'none' : duration(t.settings.maxLatenessMs)],
      ['deadline action', t.settings.deadlineAction],
      ['paused', t.settings.paused ? 'yes' : 'no'],
      ...t.groups.map((g): [string, string] => [
        `group ${g}`,
        groupSettingsText(t.groupSettings[g], t.settings.ordering),
      ]),
      ['created', isoTime(t.createdAtMs)],
    ]),
  );
}

/** A group's limits, ordering and pause in a few words ('-' for a limit that is not set). */
export function groupSettingsText(s: GroupSettingsView | undefined, topicOrdering?: Ordering): string {
  const rate =
    s && s.maxDeliveriesPerSecond > 0
      ? `${s.maxDeliveriesPerSecond}/s (burst ${s.burst || s.maxDeliveriesPerSecond})`
      : 'no rate limit';
  const inFlight = s && s.maxInFlight > 0 ? `at most ${s.maxInFlight} in flight` : 'no in-flight limit';
  const ordering = s?.ordering ? `ordering ${s.ordering}` : `ordering ${topicOrdering ?? 'none'} (topic's)`;
  const push = s?.push ? [`pushed to ${s.push.endpoint} (at most ${s.push.concurrency} at once)`] : [];
  return [rate, inFlight, ordering, ...(s?.paused ? ['paused'] : []), ...push].join(', ');
}

function limitsCell(g: GroupStats): string {
  const s = g.settings;
  const parts = [
    ...(s.maxDeliveriesPerSecond > 0 ? [`${s.maxDeliveriesPerSecond}/s burst ${s.burst}`] : []),
    ...(s.maxInFlight > 0 ? [`${s.maxInFlight} in flight`] : []),
    ...(s.push ? [`push x${s.push.concurrency}`] : []),
  ];
  return parts.length > 0 ? parts.join(', ') : '-';
}

export function printStats(stats: TopicStats): void {
  process.stdout.write(
    table(
      [
        'GROUP',
        'PENDING',
        'IN FLIGHT',
        'DEAD-LETTERED',
        'NEXT DUE',
        'PAUSED',
        'LIMITS',
        'ORDERING',
        'THROTTLED',
      ],
      stats.groups.map((g) => [
        g.group,
        String(g.pending),
        String(g.inFlight),
        String(g.deadLettered),
        timeWithRelative(g.nextDueMs),
        g.paused ? 'yes' : 'no',
        limitsCell(g),
        g.settings.ordering ?? 'none',
        String(g.throttled),
      ]),
    ),
  );
  // Deletions whose records the leader is still removing in steps.
  for (const d of stats.deletions ?? []) {
    const what = d.group === '' ? 'topic' : `group ${d.group}`;
    process.stdout.write(
      `deleting ${what}: ${d.removedEntries} of ${d.entriesAtStart} queue entries removed, ` +
        `${d.removedRecords} other records, since ${isoTime(d.startedAtMs)}\n`,
    );
  }
}

/** `fermata topics ls|create|update|delete|pause|resume|stats|forecast`. */
export function registerTopics(program: Command): void {
  const topics = program
    .command('topics')
    .description('list, create, change, delete topics; topic stats and due-load forecast');

  topics
    .command('ls')
    .alias('list')
    .description('list topics with their groups and settings')
    .action(async (_opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const list = await client.listTopics();
        if (globals(cmd).json) printJson(list);
        else if (list.length === 0) process.stderr.write('no topics\n');
        else process.stdout.write(table(TOPIC_HEADER, list.map(topicRow)));
      });
    });

  addSettingsOptions(
    topics
      .command('create')
      .argument('<topic>', 'topic name')
      .description('create a topic (with its default group); omitted settings take the server defaults'),
  ).action(async (name: string, flags: SettingsFlags, cmd: Command) => {
    const settings = settingsFrom(flags);
    await withClient(cmd, async (client) => {
      const t = await client.createTopic(name, settings);
      if (globals(cmd).json) printJson(t);
      else printTopic(t);
    });
  });

  addSettingsOptions(
    topics
      .command('update')
      .argument('<topic>', 'topic name')
      .description('change the settings given; the others stay as they are'),
  ).action(async (name: string, flags: SettingsFlags, cmd: Command) => {
    const settings = settingsFrom(flags);
    if (Object.keys(settings).length === 0) throw new UsageError('topics update: give at least one setting');
    await withClient(cmd, async (client) => {
      const t = await client.updateTopic(name, settings);
      if (globals(cmd).json) printJson(t);
      else printTopic(t);
    });
  });

  topics
    .command('delete')
    .alias('rm')
    .argument('<topic>', 'topic name')
    .description('delete a topic with all its messages')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const removed = await client.deleteTopic(name);
        if (globals(cmd).json) printJson({ topic: name, removedMessages: removed });
        else process.stdout.write(`deleted topic ${name} (${removed} messages removed)\n`);
      });
    });

  // Through UpdateTopic / UpdateGroup's `paused`: one replicated setting, the same permission.
  for (const [verb, paused] of [
    ['pause', true],
    ['resume', false],
  ] as const) {
    topics
      .command(verb)
      .argument('<topic>', 'topic name')
      .option('-g, --group <group>', 'only this group (default: every group of the topic)')
      .description(
        paused
          ? 'stop delivering: nothing new is leased (deliveries in flight finish; publishes are taken)'
          : 'deliver again what a pause held back',
      )
      .action(async (name: string, flags: { group?: string }, cmd: Command) => {
        await withClient(cmd, async (client) => {
          const t =
            flags.group === undefined
              ? await client.updateTopic(name, { paused })
              : await client.updateGroup(name, flags.group, { paused });
          if (globals(cmd).json) printJson(t);
          else {
            const what =
              flags.group === undefined ? `topic ${name}` : `group ${flags.group} of topic ${name}`;
            // A group of a paused topic stays paused by the topic: say so.
            const still =
              !paused && flags.group !== undefined && t.settings.paused ? ' (the topic is still paused)' : '';
            process.stdout.write(`${paused ? 'paused' : 'resumed'} ${what}${still}\n`);
          }
        });
      });
  }

  topics
    .command('stats')
    .argument('<topic>', 'topic name')
    .description('per group: counts, next due time, and the settings in effect (pause, limits, ordering)')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const stats = await client.topicStats(name);
        if (globals(cmd).json) printJson(stats);
        else printStats(stats);
      });
    });

  registerForecast(topics);
}
