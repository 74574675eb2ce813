import type { PushSettings } from '@fermata/sdk';
import type { Command } from 'commander';
import { globals, withClient } from '../context.js';
import { CliError, ExitCode, UsageError } from '../exit-codes.js';
import { printJson } from '../format.js';
import { parseDuration, parseHeaders, parseInteger } from '../parse.js';

interface PushFlags {
  endpoint?: string;
  secretFile?: string;
  caFile?: string;
  concurrency?: string;
  timeout?: string;
  backoffInitial?: string;
  backoffMultiplier?: string;
  backoffMax?: string;
  header?: string[];
}

function addPushOptions(cmd: Command): Command {
  return cmd
    .option('--endpoint <url>', 'http:// or https:// URL the leader POSTs each message to')
    .option('--secret-file <path>', 'absolute path, on every node, of the HMAC signing secret')
    .option('--ca-file <path>', "absolute path, on every node, of a PEM CA bundle for the endpoint's TLS")
    .option('--concurrency <n>', 'most requests in flight at once (default 8)')
    .option('--timeout <duration>', 'how long a request may take (default 10s)')
    .option('--backoff-initial <duration>', 'delay of the first retry (default 1s)')
    .option('--backoff-multiplier <x>', "each retry's delay is the last one times this (default 2)")
    .option('--backoff-max <duration>', 'longest retry delay (default 5m)')
    .option(
      '-H, --header <name=value>',
      'a header added to every request (repeat for more)',
      (v: string, p: string[] = []) => [...p, v],
    );
}

/** The push settings the flags give; the server checks their bounds and names the field it refuses. */
function pushSettingsFrom(f: PushFlags): PushSettings {
  const p: PushSettings = {};
  if (f.endpoint !== undefined) p.endpoint = f.endpoint;
  if (f.secretFile !== undefined) p.secretFile = f.secretFile;
  if (f.caFile !== undefined) p.caFile = f.caFile;
  if (f.concurrency !== undefined) p.concurrency = parseInteger(f.concurrency, '--concurrency', 1, 1_000);
  if (f.timeout !== undefined) p.timeoutMs = parseDuration(f.timeout, '--timeout');
  if (f.backoffInitial !== undefined)
    p.backoffInitialMs = parseDuration(f.backoffInitial, '--backoff-initial');
  if (f.backoffMax !== undefined) p.backoffMaxMs = parseDuration(f.backoffMax, '--backoff-max');
  if (f.backoffMultiplier !== undefined) {
    const x = Number(f.backoffMultiplier);
    if (!Number.isFinite(x) || x < 1)
      throw new UsageError(`--backoff-multiplier: expected a number >= 1, got "${f.backoffMultiplier}"`);
    p.backoffMultiplier = x;
  }
  const headers = parseHeaders(f.header ?? []);
  if (headers) p.headers = headers;
  return p;
}

function describe(p: Required<PushSettings> | undefined): string {
  if (!p) return 'not a push group';
  const h = Object.keys(p.headers);
  return (
    `${p.endpoint} (concurrency ${p.concurrency}, timeout ${p.timeoutMs} ms, backoff ${p.backoffInitialMs} ms x${p.backoffMultiplier} up to ${p.backoffMaxMs} ms` +
    `${p.secretFile ? `, signed with ${p.secretFile}` : ', unsigned'}${p.caFile ? `, CAs ${p.caFile}` : ''}${h.length > 0 ? `, headers ${h.join(', ')}` : ''})`
  );
}

/** `fermata push create|update|test`. */
export function registerPush(program: Command): void {
  const push = program
    .command('push')
    .description('push groups: the leader POSTs their messages to an HTTP endpoint');

  addPushOptions(
    push
      .command('create')
      .argument('<topic>', 'topic name')
      .argument('<group>', 'group name')
      .description('add a push group: each message published from now on is POSTed to --endpoint'),
  ).action(async (topic: string, group: string, flags: PushFlags, cmd: Command) => {
    if (flags.endpoint === undefined) throw new UsageError('push create: --endpoint is required');
    const settings = pushSettingsFrom(flags);
    await withClient(cmd, async (client) => {
      const t = await client.createGroup(topic, group, { push: settings });
      if (globals(cmd).json) printJson(t);
      else
        process.stdout.write(
          `created push group ${group} of topic ${topic}: ${describe(t.groupSettings[group]?.push)}\n`,
        );
    });
  });

  addPushOptions(
    push
      .command('update')
      .argument('<topic>', 'topic name')
      .argument('<group>', 'group name')
      .description('change the push settings given; the others stay as they are')
      .option('--off', 'end the push: the group becomes one that consumers subscribe to'),
  ).action(async (topic: string, group: string, flags: PushFlags & { off?: boolean }, cmd: Command) => {
    const settings = pushSettingsFrom(flags);
    if (flags.off && Object.keys(settings).length > 0)
      throw new UsageError('push update: --off takes no other setting');
    if (!flags.off && Object.keys(settings).length === 0)
      throw new UsageError('push update: give at least one setting (or --off)');
    await withClient(cmd, async (client) => {
      const t = await client.updateGroup(topic, group, { push: flags.off ? null : settings });
      if (globals(cmd).json) printJson(t);
      else
        process.stdout.write(`group ${group} of topic ${topic}: ${describe(t.groupSettings[group]?.push)}\n`);
    });
  });

  push
    .command('test')
    .argument('<topic>', 'topic name')
    .argument('<group>', 'group name')
    .description("have the leader send the group's endpoint a signed test request, and print its answer")
    .action(async (topic: string, group: string, _opts: unknown, cmd: Command) => {
      await withClient(cmd, async (client) => {
        const r = await client.testPush(topic, group);
        if (globals(cmd).json) printJson(r);
        else if (r.status === 0) process.stdout.write(`no answer after ${r.latencyMs} ms: ${r.error}\n`);
        else
          process.stdout.write(
            `HTTP ${r.status} in ${r.latencyMs} ms${r.body !== '' ? `\n${r.body}` : ''}\n`,
          );
        // An endpoint that does not accept the test fails the command, so a script can check it.
        if (r.status < 200 || r.status >= 300)
          throw new CliError(`push test: the endpoint did not answer 2xx`, ExitCode.SERVER_ERROR);
      });
    });
}
