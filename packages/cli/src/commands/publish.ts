import { createInterface } from 'node:readline';
import type { FermataClient, PublishInput, PublishOptions, PublishResult } from '@fermata/sdk';
import { type Command, Option } from 'commander';
import { globals, withClient } from '../context.js';
import { QuietExit, UsageError } from '../exit-codes.js';
import { timeWithRelative, toJson } from '../format.js';
import { parseDuration, parseHeaders, parseTime } from '../parse.js';
import { count, ProgressLine, rate } from '../progress.js';

interface PublishFlags {
  delay?: string;
  at?: string;
  ttl?: string;
  key?: string;
  orderingKey?: string;
  deliverBefore?: string;
  header?: string[];
  durability: 'quorum' | 'leader';
  progress?: boolean;
}

/** Prints publish results in input order, one line each, as they complete. */
class ResultPrinter {
  private readonly done = new Map<number, PublishResult | null>();
  private next = 0;
  printed = 0;

  constructor(private readonly json: boolean) {}

  record(index: number, r: PublishResult): void {
    this.done.set(index, r);
    this.flush();
  }

  /** Gives up waiting for an index that failed, so later results still print. */
  skip(index: number): void {
    this.done.set(index, null);
    this.flush();
  }

  private flush(): void {
    let out = '';
    while (this.done.has(this.next)) {
      const r = this.done.get(this.next);
      this.done.delete(this.next);
      this.next++;
      if (r === null || r === undefined) continue;
      this.printed++;
      out += this.json
        ? `${toJson({ id: r.id, deduplicated: r.deduplicated, dueAtMs: r.dueAtMs })}\n`
        : `id ${r.id}  due ${timeWithRelative(r.dueAtMs)}${r.deduplicated ? '  deduplicated (a live message has this key: nothing stored)' : ''}\n`;
    }
    if (out !== '') process.stdout.write(out);
  }
}

function optionsFrom(f: PublishFlags): PublishOptions {
  if (f.delay !== undefined && f.at !== undefined) throw new UsageError('give --delay or --at, not both');
  const o: PublishOptions = {};
  if (f.delay !== undefined) o.delayMs = parseDuration(f.delay, '--delay');
  if (f.at !== undefined) o.deliverAt = parseTime(f.at, '--at');
  if (f.ttl !== undefined) o.ttlMs = parseDuration(f.ttl, '--ttl');
  if (f.key !== undefined) {
    if (f.key === '') throw new UsageError('--key: must not be empty');
    o.key = f.key;
  }
  if (f.orderingKey !== undefined) {
    if (f.orderingKey === '') throw new UsageError('--ordering-key: must not be empty');
    o.orderingKey = f.orderingKey;
  }
  if (f.deliverBefore !== undefined) o.deliverBefore = parseTime(f.deliverBefore, '--deliver-before');
  const headers = parseHeaders(f.header ?? []);
  if (headers) o.headers = headers;
  return o;
}

/** `fermata publish <topic> [payload...]`: arguments as one atomic batch, or lines of stdin. */
export function registerPublish(program: Command): void {
  program
    .command('publish')
    .alias('pub')
    .argument('<topic>', 'topic name (created on first use)')
    .argument(
      '[payload...]',
      'one message per argument (one atomic batch); none = one message per line of stdin',
    )
    .description('publish messages, due now or after --delay / at --at')
    .option('-d, --delay <duration>', 'due this long after the leader accepts it (250ms, 5s, 10m, 2h, 1d)')
    .option('--at <time>', 'due at this time: ISO 8601, epoch ms or +10m (by this machine’s clock)')
    .option('--ttl <duration>', 'removed (or dead-lettered) if not acked this long after publishing')
    .option('-k, --key <key>', 'dedup / cancel handle (one message only)')
    .option(
      '--ordering-key <key>',
      'delivered one at a time, in due order, with the same key (groups ordered by key)',
    )
    .option(
      '--deliver-before <time>',
      'deadline: never delivered from then on, but dead-lettered or dropped (ISO 8601, epoch ms or +10m)',
    )
    .option('-H, --header <name=value>', 'a header (repeat for more)', (v: string, p: string[] = []) => [
      ...p,
      v,
    ])
    .addOption(
      new Option('--durability <level>', 'when the publish is answered')
        .choices(['quorum', 'leader'])
        .default('quorum'),
    )
    .option('--progress', 'show the progress line for stdin input even when stderr is not a terminal')
    .option('--no-progress', 'never show the progress line')
    .action(async (topic: string, payloads: string[], flags: PublishFlags, cmd: Command) => {
      const options = optionsFrom(flags);
      const json = globals(cmd).json === true;
      await withClient(cmd, async (client) => {
        if (payloads.length > 0) {
          if (options.key !== undefined && payloads.length > 1) {
            throw new UsageError('--key names one message; give one payload');
          }
          const results = await client.publishBatch(
            payloads.map((payload): PublishInput => ({ ...options, topic, payload })),
            { durability: flags.durability },
          );
          const printer = new ResultPrinter(json);
          results.forEach((r, i) => {
            printer.record(i, r);
          });
          return;
        }
        if (process.stdin.isTTY)
          process.stderr.write('reading messages from stdin, one per line (Ctrl-D ends)\n');
        await publishLines(client, topic, options, flags, json);
      });
    });
}

async function publishLines(
  client: FermataClient,
  topic: string,
  options: PublishOptions,
  flags: PublishFlags,
  json: boolean,
): Promise<void> {
  const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
  const printer = new ResultPrinter(json);

  if (options.key !== undefined) {
    // One keyed message: refuse a second line before anything is sent.
    const got: string[] = [];
    for await (const line of lines) {
      if (line === '') continue;
      got.push(line);
      if (got.length > 1) break;
    }
    lines.close();
    if (got.length !== 1)
      throw new UsageError(`--key names one message; stdin had ${got.length === 0 ? 'none' : 'more'}`);
    printer.record(
      0,
      await client.publishDetailed(topic, got[0]!, { ...options, durability: flags.durability }),
    );
    return;
  }

  const producer = client.producer({ durability: flags.durability });
  const showProgress = flags.progress ?? process.stderr.isTTY === true;
  let sent = 0;
  let stored = 0;
  let failures = 0;
  let firstError: { line: number; error: unknown } | undefined;
  const progress = showProgress
    ? new ProgressLine(
        (ms) =>
          `published ${count(stored)} of ${count(sent)} read (${rate(stored, ms)}/s), ${count(producer.bufferedMessages)} buffered`,
      )
    : undefined;
  const startedAtMs = Date.now();
  const settled: Promise<unknown>[] = [];
  // Ctrl-C stops reading; what was read is still sent and reported, then exit 130.
  let interrupted = false;
  const onSignal = () => {
    interrupted = true;
    lines.close();
  };
  process.once('SIGINT', onSignal);
  let lineNo = 0;
  for await (const line of lines) {
    lineNo++;
    if (line === '') continue;
    if (firstError !== undefined || interrupted) break;
    await producer.ready();
    const index = sent++;
    const at = lineNo;
    settled.push(
      producer.send(topic, line, options).then(
        (r) => {
          stored++;
          printer.record(index, r);
        },
        (error: unknown) => {
          failures++;
          firstError ??= { line: at, error };
          printer.skip(index);
        },
      ),
    );
  }
  lines.close();
  await producer.flush().catch(() => {});
  await Promise.all(settled);
  await producer.close().catch(() => {});
  const elapsed = Date.now() - startedAtMs;
  progress?.finish(
    `published ${count(stored)} messages in ${(elapsed / 1000).toFixed(1)}s (${rate(stored, elapsed)}/s)` +
      (failures > 0 ? `, ${count(failures)} failed` : ''),
  );
  process.off('SIGINT', onSignal);
  if (firstError !== undefined) {
    const e = firstError.error;
    const err = e instanceof Error ? e : new Error(String(e));
    err.message = `line ${firstError.line}: ${err.message}`;
    throw err;
  }
  if (interrupted) {
    process.stderr.write(`fermata: interrupted after ${count(stored)} messages\n`);
    throw new QuietExit(INTERRUPTED_EXIT_CODE);
  }
}

/** Exit code of a publish stopped by Ctrl-C (128 + SIGINT). */
export const INTERRUPTED_EXIT_CODE = 130;
