import type { ListedMessage, MessageDetails, MessageRef, Schedule } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { ExitCode, QuietExit, UsageError } from '../exit-codes.js';
import {
  fields,
  hex,
  isoTime,
  payloadCell,
  payloadJson,
  printJson,
  table,
  timeWithRelative,
} from '../format.js';
import { parseDuration, parseId, parseInteger, parseTime } from '../parse.js';

/** The message named by a positional id or `--key`. */
function refOf(id: string | undefined, key: string | undefined): MessageRef {
  if (id !== undefined && key !== undefined)
    throw new UsageError('name the message by <id> or --key, not both');
  if (key !== undefined) {
    if (key === '') throw new UsageError('--key: must not be empty');
    return { key };
  }
  if (id === undefined) throw new UsageError('name the message: <id> or --key <key>');
  return parseId(id);
}

function listedJson(m: ListedMessage) {
  return {
    id: m.message.id,
    topic: m.message.topic,
    key: m.message.key,
    state: m.state,
    dueAtMs: m.dueAtMs,
    attempt: m.attempt,
    enqueuedAtMs: m.message.enqueuedAtMs,
    expireAtMs: m.message.expireAtMs,
    headers: m.message.headers,
    ...payloadJson(m.message.payload),
    tag: hex(m.tag),
  };
}

function detailsJson(d: MessageDetails) {
  const { payload: _payload, ...rest } = d.message;
  return { ...rest, ...payloadJson(d.message.payload), groups: d.groups };
}

function printDetails(d: MessageDetails): void {
  const m = d.message;
  const headerText = Object.entries(m.headers)
    .map(([k, v]) => `${k}=${v}`)
    .join(', ');
  process.stdout.write(
    fields([
      ['id', m.id.toString()],
      ['topic', m.topic],
      ['key', m.key || '-'],
      ['published', isoTime(m.enqueuedAtMs)],
      ['due', timeWithRelative(m.dueAtMs)],
      ['expires', m.expireAtMs === 0 ? 'never' : timeWithRelative(m.expireAtMs)],
      ['headers', headerText || '-'],
      ['payload', `${payloadCell(m.payload, 200)} (${m.payload.byteLength} bytes)`],
    ]),
  );
  process.stdout.write('\n');
  process.stdout.write(
    table(
      ['GROUP', 'STATE', 'DUE', 'ATTEMPT'],
      d.groups.map((g) => [g.group, g.state, timeWithRelative(g.dueAtMs), String(g.attempt)]),
    ),
  );
}

interface LsFlags {
  group?: string;
  from?: string;
  to?: string;
  limit: string;
}

/** `fermata messages ls|get|cancel|reschedule`. */
export function registerMessages(program: Command): void {
  const messages = program.command('messages').description('inspect, cancel and reschedule stored messages');

  messages
    .command('ls')
    .alias('list')
    .argument('<topic>', 'topic name')
    .description("a group's messages in due order (pending and in flight), optionally within a due range")
    .option('-g, --group <group>', 'consumer group', 'default')
    .option('--from <time>', 'due at or after (ISO 8601, epoch ms, now, +10m, -1h)')
    .option('--to <time>', 'due before (same forms)')
    .option('-n, --limit <n>', 'most messages to show', '100')
    .action(async (topic: string, flags: LsFlags, cmd: Command) => {
      const now = Date.now();
      const fromDueMs = flags.from === undefined ? undefined : parseTime(flags.from, '--from', now);
      const toDueMs = flags.to === undefined ? undefined : parseTime(flags.to, '--to', now);
      const limit = parseInteger(flags.limit, '--limit', 1, 10_000_000);
      const json = globals(cmd).json === true;
      await withClient(cmd, async (client) => {
        const found: ListedMessage[] = [];
        let more = false;
        for await (const m of client.iterateMessages(topic, {
          group: flags.group,
          ...(fromDueMs !== undefined ? { fromDueMs } : {}),
          ...(toDueMs !== undefined ? { toDueMs } : {}),
          limit: Math.min(limit + 1, 1000),
        })) {
          if (found.length === limit) {
            more = true;
            break;
          }
          found.push(m);
        }
        if (json) {
          printJson(found.map(listedJson));
        } else {
          process.stdout.write(
            table(
              ['ID', 'DUE', 'STATE', 'ATTEMPT', 'KEY', 'PAYLOAD'],
              found.map((m) => [
                m.message.id.toString(),
                timeWithRelative(m.dueAtMs, now),
                m.state,
                String(m.attempt),
                m.message.key || '-',
                payloadCell(m.message.payload),
              ]),
            ),
          );
        }
        if (more) process.stderr.write(`(more than ${limit} messages; raise --limit to see more)\n`);
      });
    });

  messages
    .command('get')
    .argument('<topic>', 'topic name')
    .argument('[id]', 'message id')
    .option('-k, --key <key>', 'name the message by its key instead of its id')
    .description('one message and its state in every group')
    .action(async (topic: string, id: string | undefined, flags: { key?: string }, cmd: Command) => {
      const ref = refOf(id, flags.key);
      await withClient(cmd, async (client) => {
        const d = await client.getMessage(topic, ref);
        if (globals(cmd).json) printJson(detailsJson(d));
        else printDetails(d);
      });
    });

  messages
    .command('cancel')
    .argument('<topic>', 'topic name')
    .argument('[id]', 'message id')
    .option('-k, --key <key>', 'name the message by its key instead of its id')
    .description('cancel a pending message (exit 3 if not found, 5 if in flight or already done)')
    .action(async (topic: string, id: string | undefined, flags: { key?: string }, cmd: Command) => {
      const ref = refOf(id, flags.key);
      await withClient(cmd, async (client) => {
        const r = await client.cancel(topic, ref);
        if (globals(cmd).json) printJson(r);
        else process.stdout.write(`${r.status}${r.id > 0n ? ` (id ${r.id})` : ''}\n`);
        failUnless(r.status, 'cancelled');
      });
    });

  messages
    .command('reschedule')
    .argument('<topic>', 'topic name')
    .argument('[id]', 'message id')
    .option('-k, --key <key>', 'name the message by its key instead of its id')
    .option('-d, --delay <duration>', 'new due time: this long after the leader accepts the call')
    .option('--at <time>', 'new due time: ISO 8601, epoch ms or +10m (by this machine’s clock)')
    .description('move a pending message to a new due time (exit 3 if not found, 5 if in flight or done)')
    .action(
      async (
        topic: string,
        id: string | undefined,
        flags: { key?: string; delay?: string; at?: string },
        cmd: Command,
      ) => {
        const ref = refOf(id, flags.key);
        if ((flags.delay === undefined) === (flags.at === undefined)) {
          throw new UsageError('reschedule: give exactly one of --delay or --at');
        }
        const schedule: Schedule =
          flags.delay !== undefined
            ? { delayMs: parseDuration(flags.delay, '--delay') }
            : { deliverAt: parseTime(flags.at!, '--at') };
        await withClient(cmd, async (client) => {
          const r = await client.reschedule(topic, ref, schedule);
          if (globals(cmd).json) printJson(r);
          else
            process.stdout.write(
              r.status === 'rescheduled'
                ? `rescheduled (id ${r.id}) to ${timeWithRelative(r.dueAtMs)}\n`
                : `${r.status}${r.id > 0n ? ` (id ${r.id})` : ''}\n`,
            );
          failUnless(r.status, 'rescheduled');
        });
      },
    );
}

/** A definite answer other than success still ends with a code scripts can test. */
function failUnless(status: string, ok: string): void {
  if (status === ok) return;
  if (status === 'not-found') throw new QuietExit(ExitCode.NOT_FOUND);
  throw new QuietExit(ExitCode.CONFLICT);
}
