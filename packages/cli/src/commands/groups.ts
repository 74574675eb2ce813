import type { GroupSettings, Ordering } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { printJson } from '../format.js';
import { parseInteger } from '../parse.js';
import { groupSettingsText, orderingOption, printStats } from './topics.js';

interface GroupFlags {
  maxDeliveriesPerSecond?: string;
  burst?: string;
  maxInFlight?: string;
  ordering?: string;
}

function addGroupOptions(cmd: Command): Command {
  return cmd
    .option(
      '--max-deliveries-per-second <n>',
      "most deliveries a second to the group's consumers (0 = unlimited)",
    )
    .option('--burst <n>', 'deliveries the rate lets through at once (0 = the rate)')
    .option('--max-in-flight <n>', 'most deliveries in flight at once across the group (0 = unlimited)')
    .addOption(orderingOption("the group's ordering (default: the topic's)"));
}

/** The settings the flags give; the server checks their bounds and names the field it refuses. */
function groupSettingsFrom(f: GroupFlags): GroupSettings {
  const s: GroupSettings = {};
  const count = (text: string, flag: string) => parseInteger(text, flag, 0, 2 ** 32 - 1);
  if (f.maxDeliveriesPerSecond !== undefined) {
    s.maxDeliveriesPerSecond = count(f.maxDeliveriesPerSecond, '--max-deliveries-per-second');
  }
  if (f.burst !== undefined) s.burst = count(f.burst, '--burst');
  if (f.maxInFlight !== undefined) s.maxInFlight = count(f.maxInFlight, '--max-in-flight');
  if (f.ordering !== undefined) s.ordering = f.ordering as Ordering;
  return s;
}

/** `fermata groups ls|create|update|delete`. */
export function registerGroups(program: Command): void {
  const groups = program.command('groups').description('consumer groups of a topic');

  groups
    .command('ls')
    .alias('list')
    .argument('<topic>', 'topic name')
    .description("a topic's groups with their counts and settings (same as topics stats)")
    .action(async (topic: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const stats = await client.topicStats(topic);
        if (globals(cmd).json) printJson(stats.groups);
        else printStats(stats);
      });
    });

  addGroupOptions(
    groups
      .command('create')
      .argument('<topic>', 'topic name')
      .argument('<group>', 'group name')
      .description('add a group; it receives every message published from now on'),
  ).action(async (topic: string, group: string, flags: GroupFlags, cmd: Command) => {
    const settings = groupSettingsFrom(flags);
    await withClient(cmd, async (client) => {
      const t = await client.createGroup(topic, group, settings);
      if (globals(cmd).json) printJson(t);
      else
        process.stdout.write(
          `created group ${group} of topic ${topic} (groups: ${t.groups.join(', ')}): ` +
            `${groupSettingsText(t.groupSettings[group], t.settings.ordering)}\n`,
        );
    });
  });

  addGroupOptions(
    groups
      .command('update')
      .argument('<topic>', 'topic name')
      .argument('<group>', 'group name')
      .description("change the group's settings given; the others stay as they are"),
  ).action(async (topic: string, group: string, flags: GroupFlags, cmd: Command) => {
    const settings = groupSettingsFrom(flags);
    if (Object.keys(settings).length === 0) throw new UsageError('groups update: give at least one setting');
    await withClient(cmd, async (client) => {
      const t = await client.updateGroup(topic, group, settings);
      if (globals(cmd).json) printJson(t);
      else
        process.stdout.write(
          `group ${group} of topic ${topic}: ${groupSettingsText(t.groupSettings[group], t.settings.ordering)}\n`,
        );
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
