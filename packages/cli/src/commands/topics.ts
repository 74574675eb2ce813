import type { ExpiryAction, Topic, TopicSettings, TopicStats } from '@fermata/sdk';
import { type Command, Option } from 'commander';
import { globals, withClient } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { duration, fields, isoTime, printJson, table, timeWithRelative } from '../format.js';
import { parseDuration, parseInteger } from '../parse.js';

interface SettingsFlags {
  maxAttempts?: string;
  lease?: string;
  deadLetterTopic?: string;
  expiry?: string;
  timeBucket?: string;
  dedupWindow?: string;
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
    .option('--dedup-window <duration>', 'how long a key stays reserved after its message ends');
}

function settingsFrom(f: SettingsFlags): TopicSettings {
  const s: TopicSettings = {};
  if (f.maxAttempts !== undefined) s.maxAttempts = parseInteger(f.maxAttempts, '--max-attempts', 1, 2 ** 31);
  if (f.lease !== undefined) s.defaultLeaseMs = parseDuration(f.lease, '--lease');
  if (f.deadLetterTopic !== undefined) s.deadLetterTopic = f.deadLetterTopic;
  if (f.expiry !== undefined) s.expiryAction = f.expiry as ExpiryAction;
  if (f.timeBucket !== undefined) s.timeBucketMs = parseDuration(f.timeBucket, '--time-bucket');
  if (f.dedupWindow !== undefined) s.dedupWindowMs = parseDuration(f.dedupWindow, '--dedup-window');
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
      ['created', isoTime(t.createdAtMs)],
    ]),
  );
}

export function printStats(stats: TopicStats): void {
  process.stdout.write(
    table(
      ['GROUP', 'PENDING', 'IN FLIGHT', 'DEAD-LETTERED', 'NEXT DUE'],
      stats.groups.map((g) => [
        g.group,
        String(g.pending),
        String(g.inFlight),
        String(g.deadLettered),
        timeWithRelative(g.nextDueMs),
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

/** `fermata topics ls|create|update|delete|stats`. */
export function registerTopics(program: Command): void {
  const topics = program.command('topics').description('list, create, change, delete topics; topic stats');

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

  topics
    .command('stats')
    .argument('<topic>', 'topic name')
    .description('pending, in-flight and dead-lettered counts and the next due time, per group')
    .action(async (name: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const stats = await client.topicStats(name);
        if (globals(cmd).json) printJson(stats);
        else printStats(stats);
      });
    });
}

/** `fermata groups ls|create|delete`. */
export function registerGroups(program: Command): void {
  const groups = program.command('groups').description('consumer groups of a topic');

  groups
    .command('ls')
    .alias('list')
    .argument('<topic>', 'topic name')
    .description("a topic's groups with their counts (same as topics stats)")
    .action(async (topic: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const stats = await client.topicStats(topic);
        if (globals(cmd).json) printJson(stats.groups);
        else printStats(stats);
      });
    });

  groups
    .command('create')
    .argument('<topic>', 'topic name')
    .argument('<group>', 'group name')
    .description('add a group; it receives every message published from now on')
    .action(async (topic: string, group: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const t = await client.createGroup(topic, group);
        if (globals(cmd).json) printJson(t);
        else
          process.stdout.write(`created group ${group} of topic ${topic} (groups: ${t.groups.join(', ')})\n`);
      });
    });

  groups
    .command('delete')
    .alias('rm')
    .argument('<topic>', 'topic name')
    .argument('<group>', 'group name')
    .description("remove a group and its copies of the topic's messages")
    .action(async (topic: string, group: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const removed = await client.deleteGroup(topic, group);
        if (globals(cmd).json) printJson({ topic, group, removedMessages: removed });
        else process.stdout.write(`deleted group ${group} of topic ${topic} (${removed} messages removed)\n`);
      });
    });
}
