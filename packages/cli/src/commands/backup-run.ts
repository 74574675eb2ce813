import { resolve } from 'node:path';
import { BackupFileError, BackupWriter } from '@fermata/broker';
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

/** `fermata backup`'s work (see backup.ts), loaded only when the command runs. */
export async function backup(opts: { out: string; progress?: boolean }, cmd: Command): Promise<void> {
  const out = resolve(opts.out);
  await withClient(cmd, async (client: FermataClient) => {
    // The backup can take long: the deadline bounds reaching the leader, not the transfer.
    const stream = await client.backup();
    const { info } = stream;
    const writer = await BackupWriter.create(out, {
      ...info,
      term: Number(info.term),
      appliedIndex: Number(info.appliedIndex),
    });
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
      term: Number(info.term),
      appliedIndex: Number(info.appliedIndex),
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
}
