import type { RedriveResult } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { ExitCode, QuietExit, UsageError } from '../exit-codes.js';
import { printJson, table } from '../format.js';
import { collect, parseId } from '../parse.js';

interface RedriveFlags {
  ids?: string[];
  all?: boolean;
}

/** `fermata dlq redrive <topic> (--ids <id>... | --all)`. */
export function registerDlq(program: Command): void {
  const dlq = program
    .command('dlq')
    .description("a topic's dead letters (its dead-letter topic, default <topic>.dlq)");

  dlq
    .command('redrive')
    .argument('<topic>', 'the topic whose dead letters go back to it')
    .option(
      '--ids <id...>',
      'ids of dead letters (messages of the dead-letter topic), space- or comma-separated; repeatable',
      (v: string, prev: string[] | undefined) => collect(v, prev),
    )
    .option('--all', 'every dead letter of the topic, in batches')
    .description(
      'move dead letters back to their topic: each a new message due now, attempt 0, to the group it was dead-lettered from',
    )
    .action(async (topic: string, flags: RedriveFlags, cmd: Command) => {
      const ids = (flags.ids ?? []).flatMap((v) => v.split(/[\s,]+/)).filter((v) => v !== '');
      if (flags.all && ids.length > 0) throw new UsageError('give --ids or --all, not both');
      if (!flags.all && ids.length === 0)
        throw new UsageError('name the dead letters: --ids <id>... or --all');
      await withClient(cmd, async (client) => {
        const results = flags.all
          ? await client.redrive(topic, { all: true })
          : await client.redrive(topic, { ids: ids.map((id) => parseId(id)) });
        printResults(results, globals(cmd).json === true, flags.all === true);
        if (!flags.all && results.some((r) => r.status !== 'redriven'))
          throw new QuietExit(ExitCode.CONFLICT);
      });
    });
}

function printResults(results: RedriveResult[], json: boolean, all: boolean): void {
  if (json) {
    printJson(results);
    return;
  }
  if (all) {
    process.stdout.write(`redriven ${results.length} dead letters\n`);
    return;
  }
  process.stdout.write(
    table(
      ['DEAD LETTER', 'STATUS', 'NEW ID'],
      results.map((r) => [r.id.toString(), r.status, r.newId?.toString() ?? '-']),
    ),
  );
}
