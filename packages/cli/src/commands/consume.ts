import type { Message } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { CliError, ExitCode, QuietExit } from '../exit-codes.js';
import { hex, payloadJson, toJson } from '../format.js';
import { parseDuration, parseInteger } from '../parse.js';

interface ConsumeFlags {
  group: string;
  prefetch: string;
  lease?: string;
  ack: boolean;
  count?: string;
  timeout?: string;
}

type StopReason = 'done' | 'signal' | 'timeout' | 'unavailable';

/** How often consume checks whether its first subscribe has succeeded. */
const SUBSCRIBE_POLL_MS = 50;

/** Default window of the CLI consumer (unsettled deliveries held at once). */
export const DEFAULT_CLI_PREFETCH = 16;

function deliveryJson(m: Message) {
  return {
    id: m.id,
    topic: m.topic,
    group: m.group,
    key: m.key,
    headers: m.headers,
    ...payloadJson(m.payload),
    dueAtMs: m.dueAtMs,
    enqueuedAtMs: m.enqueuedAtMs,
    attempt: m.attempt,
    tag: hex(m.tag),
    leaseExpiresAtMs: m.leaseExpiresAtMs,
  };
}

/** `fermata consume <topic>`: prints deliveries as they fall due, acking each after printing it. */
export function registerConsume(program: Command): void {
  program
    .command('consume')
    .alias('sub')
    .argument('<topic>', 'topic name (created on first use)')
    .description('print deliveries as they fall due: the payload per line, or JSON lines with --json')
    .option('-g, --group <group>', 'consumer group', 'default')
    .option('--prefetch <n>', 'most unacked deliveries held at once', String(DEFAULT_CLI_PREFETCH))
    .option('--lease <duration>', 'lease of each delivery (default: the topic’s)')
    .option('--ack', 'ack each delivery after printing it (the default)', true)
    .option('--no-ack', 'leave deliveries unacked: each comes back when its lease runs out')
    .option('-n, --count <n>', 'stop after printing this many deliveries')
    .option('--timeout <duration>', 'stop after this long (exit 3 if --count was not reached)')
    .action(async (topic: string, flags: ConsumeFlags, cmd: Command) => {
      const g = globals(cmd);
      const json = g.json === true;
      const deadlineMs = parseDuration(g.deadline, '--deadline');
      const limit = flags.count === undefined ? undefined : parseInteger(flags.count, '--count', 1, 2 ** 31);
      const prefetchWanted = parseInteger(flags.prefetch, '--prefetch', 1, 100_000);
      const leaseMs = flags.lease === undefined ? undefined : parseDuration(flags.lease, '--lease');
      const timeoutMs = flags.timeout === undefined ? undefined : parseDuration(flags.timeout, '--timeout');
      const prefetch = limit === undefined ? prefetchWanted : Math.min(prefetchWanted, limit);

      await withClient(cmd, async (client) => {
        let printed = 0;
        let stopping = false;
        let stop!: (reason: StopReason) => void;
        const stopped = new Promise<StopReason>((resolve) => (stop = resolve));

        const sub = client.subscribe(
          topic,
          {
            group: flags.group,
            prefetch,
            concurrency: 1,
            mode: 'manual',
            ...(leaseMs !== undefined ? { leaseMs } : {}),
          },
          async (m: Message) => {
            if (stopping) {
              // Beyond --count: hand it back at once for the next consumer.
              await m.nack({ delayMs: 0 });
              return;
            }
            const line = json
              ? `${toJson(deliveryJson(m))}\n`
              : Buffer.concat([m.payload, Buffer.from('\n')]);
            await new Promise<void>((resolve) => process.stdout.write(line, () => resolve()));
            printed++;
            if (flags.ack) {
              await m.ack().catch((e: unknown) => {
                process.stderr.write(
                  `fermata: warning: message ${m.id} printed but not acked: ${String(e)}\n`,
                );
              });
            }
            if (limit !== undefined && printed >= limit) {
              stopping = true;
              stop('done');
            } else if (limit !== undefined && limit - printed < sub.prefetch) {
              sub.setPrefetch(limit - printed);
            }
          },
        );

        const onSignal = () => stop('signal');
        process.once('SIGINT', onSignal);
        process.once('SIGTERM', onSignal);
        const timer = timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), timeoutMs);
        // The first subscribe must succeed within --deadline; after that, failovers are followed for good.
        const subscribeBy = Date.now() + deadlineMs;
        const watch = setInterval(() => {
          if (sub.connected) clearInterval(watch);
          else if (Date.now() > subscribeBy) stop('unavailable');
        }, SUBSCRIBE_POLL_MS);
        const failed = sub.done.then(
          () => undefined,
          (e: unknown) => e,
        );
        const outcome = await Promise.race([stopped, failed.then((e) => ({ error: e }))]);
        stopping = true;
        clearTimeout(timer);
        clearInterval(watch);
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
        await sub.close();
        if (typeof outcome === 'object' && outcome.error !== undefined) throw outcome.error;
        if (outcome === 'unavailable') {
          throw new CliError(
            `UNAVAILABLE: could not subscribe to ${topic} within --deadline ${g.deadline} (endpoints ${g.endpoints})`,
            ExitCode.UNAVAILABLE,
          );
        }
        if (outcome === 'timeout' && limit !== undefined && printed < limit) {
          process.stderr.write(`fermata: ${printed} of ${limit} deliveries before --timeout\n`);
          throw new QuietExit(ExitCode.NOT_FOUND);
        }
      });
    });
}
