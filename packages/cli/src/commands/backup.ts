import { resolve } from 'node:path';
import type { FermataClient } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { CliError, ExitCode } from '../exit-codes.js';
import { fields, isoTime, printJson } from '../format.js';
import { count, ProgressLine } from '../progress.js';

/** `12.3 MB` */
function bytes(n: number): string {
  if (n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(1)} ${units[u]}`;
}

/**
 * `fermata backup --out FILE`: streams a consistent snapshot of the running
 * cluster from its leader into FILE (written as FILE.partial, checked against
 * the leader's SHA-256, synced, then renamed). Documented in docs/operations.md
 * ("Backups") and docs/cli.md.
 */
export function registerBackup(program: Command): void {
  program
    .command('backup')
    .description('write a consistent, checksummed backup of the running cluster to a file (needs admin on *)')
    .requiredOption('-o, --out <file>', 'the backup file to write (an existing file is replaced)')
    .option('--progress', 'print progress lines on stderr even when it is not a terminal')
    .action(async (opts: { out: string; progress?: boolean }, cmd: Command) => {
      const { BackupWriter, BackupFileError } = await import('@fermata/broker');
      const out = resolve(opts.out);
      await withClient(cmd, async (client: FermataClient) => {
        // The backup can take long: the deadline bounds reaching the leader, not the transfer.
        const stream = await client.backup();
        const { info } = stream;
        const writer = await BackupWriter.create(out, info);
        let dataBytes = 0;
        let records = 0;
        let messages = 0;
        const tty = process.stderr.isTTY === true;
        const progress =
          tty || opts.progress
            ? new ProgressLine(
                (ms) =>
                  `backup: ${bytes(dataBytes)}, ${count(records)} records, ${count(messages)} of ~${count(info.queueEntries)} messages, ${(ms / 1000).toFixed(1)} s`,
                tty,
              )
            : undefined;
        let totals: Awaited<ReturnType<typeof writer.finish>>;
        try {
          for await (const piece of stream.pieces()) {
            await writer.data(piece.data);
            dataBytes += piece.data.length;
            records = piece.records;
            messages = piece.messages;
          }
          const t = stream.totals;
          if (!t) throw new CliError('the backup stream ended without its totals', ExitCode.SERVER_ERROR);
          totals = await writer.finish(t);
        } catch (err) {
          await writer.abort();
          progress?.finish(`backup: failed after ${bytes(dataBytes)}`);
          if (err instanceof BackupFileError) throw new CliError(err.message, ExitCode.SERVER_ERROR);
          throw err;
        }
        progress?.finish(`backup: ${bytes(totals.dataBytes)}, ${count(totals.records)} records, done`);
        const result = {
          file: out,
          clusterId: info.clusterId,
          takenBy: info.nodeId,
          term: info.term,
          appliedIndex: info.appliedIndex,
          takenAtMs: info.takenAtMs,
          dataBytes: totals.dataBytes,
          records: totals.records,
          messages: totals.messages,
          sha256: totals.sha256,
        };
        if (globals(cmd).json) printJson(result);
        else {
          process.stdout.write(
            fields([
              ['file', out],
              ['cluster', info.clusterId],
              ['taken by', `${info.nodeId} (leader, term ${info.term})`],
              ['applied index', String(info.appliedIndex)],
              ['taken at', isoTime(info.takenAtMs)],
              ['messages', count(totals.messages)],
              ['records', count(totals.records)],
              ['size', bytes(totals.dataBytes)],
              ['sha256', totals.sha256],
            ]),
          );
        }
      });
    });
}
