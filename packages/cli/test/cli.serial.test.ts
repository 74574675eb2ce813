// The `fermata` CLI against a real three-node cluster: documented output
// (--json parsed), exit codes and one-line errors (docs/cli.md).

import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import {
  type CliOptions,
  freeBasePort,
  lines,
  NODE_CLOCK_LAG_MS,
  runCli,
  startCluster,
  type TestCluster,
} from './fixture.js';

// Each test runs several CLI processes next to a three-node cluster; on a loaded CI machine
// that can take a while. This is a liveness bound, not a speed check.
vi.setConfig({ testTimeout: 180_000 });

let cluster: TestCluster;
const cli = (args: string[], options: CliOptions = {}) =>
  runCli(args, { endpoints: cluster.endpoints, ...options });
const json = async <T = unknown>(args: string[], options: CliOptions = {}): Promise<T> => {
  const r = await cli([...args, '--json'], options);
  expect(r.stderr, `fermata ${args.join(' ')}`).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
};
const jsonLines = (text: string) => lines(text).map((l) => JSON.parse(l) as Record<string, unknown>);

interface Member {
  id: string;
  role: string;
  voter: boolean;
  address: string;
  lag: string;
}
interface Stats {
  topic: string;
  groups: { group: string; pending: number; inFlight: number; nextDueMs?: number }[];
}

beforeAll(async () => {
  cluster = await startCluster(3);
}, 120_000);

afterAll(async () => {
  const codes = await cluster?.stop();
  // Nodes stop cleanly on SIGTERM.
  expect(codes).toEqual([0, 0, 0]);
}, 60_000);

describe('fermata status', () => {
  test('--json names the leader, the term, the indexes and all three members with their roles', async () => {
    const info = await json<{
      leaderId: string;
      leaderAddress: string;
      term: string;
      commitIndex: string;
      appliedIndex: string;
      members: Member[];
    }>(['status']);
    expect(info.members.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3']);
    expect(info.members.filter((m) => m.role === 'leader').map((m) => m.id)).toEqual([info.leaderId]);
    expect(cluster.endpoints.split(',')).toContain(info.leaderAddress);
    // 64-bit values are decimal strings.
    expect(BigInt(info.term)).toBeGreaterThan(0n);
    expect(BigInt(info.appliedIndex)).toBeLessThanOrEqual(BigInt(info.commitIndex));
    expect(info.members.every((m) => m.voter && typeof m.lag === 'string')).toBe(true);
  });

  test('without --json it prints the leader and a member table', async () => {
    const r = await cli(['status']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^leader:\s+n\d at 127\.0\.0\.1:\d+$/m);
    expect(r.stdout).toMatch(/^ID\s+ROLE\s+VOTER\s+CLIENT\s+PEER\s+MATCH\s+LAG$/m);
    expect(r.stdout.match(/^n\d\*?\s+(leader|follower)\s+yes/gm)).toHaveLength(3);
  });

  test('any one endpoint is enough: a follower leads the CLI to the leader', async () => {
    const info = await json<{ leaderAddress: string }>(['status']);
    const follower = cluster.endpoints.split(',').find((e) => e !== info.leaderAddress)!;
    const r = await runCli(['status', '--json'], { endpoints: follower });
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { leaderAddress: string }).leaderAddress).toBe(info.leaderAddress);
  });
});

describe('fermata publish and consume', () => {
  test('arguments are published as one batch; each id is printed with its due time', async () => {
    const before = Date.now();
    const r = await cli(['publish', 'pub-args', 'one', 'two', 'three', '--delay', '1h']);
    expect(r.code).toBe(0);
    // Labelled, as a reader expects: `id N  due <time> (in 1h)`.
    const out = lines(r.stdout).map((l) => /^id (\d+) {2}due (\S+) \(in 1h\)$/.exec(l));
    expect(out, r.stdout).toHaveLength(3);
    expect(
      out.every((m) => m !== null),
      r.stdout,
    ).toBe(true);
    const ids = out.map((m) => BigInt(m![1]!));
    expect(ids[1]).toBe(ids[0]! + 1n);
    expect(ids[2]).toBe(ids[0]! + 2n);
    for (const m of out)
      expect(Date.parse(m![2]!)).toBeGreaterThanOrEqual(before + 3_600_000 - NODE_CLOCK_LAG_MS);
    const stats = await json<Stats>(['topics', 'stats', 'pub-args']);
    expect(stats.groups).toEqual([expect.objectContaining({ group: 'default', pending: 3, inFlight: 0 })]);
  });

  test('a key deduplicates: the second publish answers the same id, marked deduplicated', async () => {
    const first = jsonLines((await cli(['publish', 'pub-key', 'x', '--key', 'order-7', '--json'])).stdout);
    const second = await cli(['publish', 'pub-key', 'x', '--key', 'order-7', '--json']);
    expect(second.code).toBe(0);
    const [again] = jsonLines(second.stdout);
    expect(first[0]).toMatchObject({ deduplicated: false });
    expect(again).toMatchObject({ id: first[0]!['id'], deduplicated: true });
    const human = await cli(['publish', 'pub-key', 'x', '--key', 'order-7']);
    expect(human.stdout).toMatch(
      /^id \d+ {2}due \S+ \(.+\) {2}deduplicated \(a live message has this key: nothing stored\)$/m,
    );
  });

  test('lines of stdin are published through the batching producer, ids in input order, with a progress line', async () => {
    const n = 500;
    const input = Array.from({ length: n }, (_, i) => `line ${i}`).join('\n') + '\n\n';
    const r = await cli(['publish', 'pub-stdin', '--delay', '1d', '--progress', '--json'], { input });
    expect(r.code).toBe(0);
    const results = jsonLines(r.stdout);
    expect(results).toHaveLength(n); // the empty line is skipped
    const ids = results.map((x) => BigInt(x['id'] as string));
    expect(new Set(ids).size).toBe(n);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(r.stderr).toMatch(/^published 500 messages in [\d.]+s \([\d,]+\/s\)$/m);
    const first = await json<{ payload: string; key: string }>([
      'messages',
      'get',
      'pub-stdin',
      String(ids[0]),
    ]);
    expect(first.payload).toBe('line 0');
    // No key given: none stored (the SDK's idempotency key belongs to the request, not the message).
    expect(first.key).toBe('');
    const stats = await json<Stats>(['topics', 'stats', 'pub-stdin']);
    expect(stats.groups[0]!.pending).toBe(n);
  });

  test('consume --count N prints N payloads, acks them, and exits 0', async () => {
    await cli(['publish', 'con-count', 'alpha', 'beta']);
    const r = await cli(['consume', 'con-count', '--count', '2']);
    expect(r.code).toBe(0);
    expect(lines(r.stdout).sort()).toEqual(['alpha', 'beta']);
    const stats = await json<Stats>(['topics', 'stats', 'con-count']);
    expect(stats.groups[0]).toMatchObject({ pending: 0, inFlight: 0 });
  });

  test('consume --json prints one delivery per line with id, key, headers, attempt and due time; never early', async () => {
    const pub = jsonLines(
      (
        await cli([
          'publish',
          'con-json',
          'hi',
          '--delay',
          '1500ms',
          '-H',
          'lang=en',
          '--key',
          'k1',
          '--json',
        ])
      ).stdout,
    );
    const r = await cli(['consume', 'con-json', '--count', '1', '--json']);
    const doneAt = Date.now();
    expect(r.code).toBe(0);
    const [d] = jsonLines(r.stdout);
    expect(d).toMatchObject({
      id: pub[0]!['id'],
      topic: 'con-json',
      group: 'default',
      key: 'k1',
      headers: { lang: 'en' },
      payload: 'hi',
      payloadEncoding: 'utf8',
      attempt: 1,
    });
    expect(d!['dueAtMs'] as number).toBe((d!['enqueuedAtMs'] as number) + 1500);
    expect(doneAt).toBeGreaterThanOrEqual(d!['dueAtMs'] as number);
    expect(d!['tag']).toMatch(/^[0-9a-f]{40}$/); // the queue, the lease and the offset: 20 bytes
  });

  test('consume --no-ack leaves the delivery leased: it comes back, attempt 2, after the lease', async () => {
    await cli(['publish', 'con-noack', 'again']);
    const first = await cli(['consume', 'con-noack', '--count', '1', '--no-ack', '--lease', '1s', '--json']);
    expect(first.code).toBe(0);
    expect(jsonLines(first.stdout)[0]).toMatchObject({ payload: 'again', attempt: 1 });
    const second = await cli(['consume', 'con-noack', '--count', '1', '--json', '--timeout', '30s']);
    expect(second.code).toBe(0);
    expect(jsonLines(second.stdout)[0]).toMatchObject({ payload: 'again', attempt: 2 });
  });

  test('consume --timeout before --count is reached exits 3 with a note on stderr', async () => {
    expect((await cli(['topics', 'create', 'con-empty'])).code).toBe(0);
    const r = await cli(['consume', 'con-empty', '--count', '1', '--timeout', '500ms']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('fermata: 0 of 1 deliveries before --timeout\n');
  });

  test('consume in a named group gets its own copy', async () => {
    expect((await cli(['groups', 'create', 'con-group', 'audit'])).code).toBe(3); // no such topic yet
    expect((await cli(['topics', 'create', 'con-group'])).code).toBe(0);
    expect((await cli(['groups', 'create', 'con-group', 'audit'])).code).toBe(0);
    await cli(['publish', 'con-group', 'fan-out']);
    const a = await cli(['consume', 'con-group', '--count', '1']);
    const b = await cli(['consume', 'con-group', '--group', 'audit', '--count', '1']);
    expect([a.stdout, b.stdout]).toEqual(['fan-out\n', 'fan-out\n']);
  });
});

describe('fermata messages', () => {
  test('ls filters by due range and lists in due order', async () => {
    const now = Date.now();
    for (const [payload, delay] of [
      ['in-3h', '3h'],
      ['in-1h', '1h'],
      ['in-2h', '2h'],
    ]) {
      expect((await cli(['publish', 'msg-ls', payload!, '--delay', delay!])).code).toBe(0);
    }
    const all = await json<{ payload: string; dueAtMs: number; state: string }[]>([
      'messages',
      'ls',
      'msg-ls',
    ]);
    expect(all.map((m) => m.payload)).toEqual(['in-1h', 'in-2h', 'in-3h']);
    expect(all.every((m) => m.state === 'pending')).toBe(true);
    const mid = await json<{ payload: string }[]>([
      'messages',
      'ls',
      'msg-ls',
      '--from',
      String(now + 90 * 60_000),
      '--to',
      '+150m',
    ]);
    expect(mid.map((m) => m.payload)).toEqual(['in-2h']);
    const limited = await cli(['messages', 'ls', 'msg-ls', '--limit', '2']);
    expect(limited.code).toBe(0);
    expect(lines(limited.stdout)).toHaveLength(3); // header + 2
    expect(limited.stderr).toMatch(/more than 2 messages/);
  });

  test('get shows the message and its state per group; an unknown id exits 3', async () => {
    const [p] = jsonLines((await cli(['publish', 'msg-get', 'body', '--delay', '10m', '--json'])).stdout);
    const id = p!['id'] as string;
    const d = await json<{ id: string; payload: string; groups: { group: string; state: string }[] }>([
      'messages',
      'get',
      'msg-get',
      id,
    ]);
    expect(d).toMatchObject({ id, payload: 'body', groups: [{ group: 'default', state: 'pending' }] });
    const missing = await cli(['messages', 'get', 'msg-get', '999999999']);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toMatch(/^fermata: error: NOT_FOUND: .+\n$/);
  });

  test('cancel answers cancelled (0), then already-done (5); unknown is not-found (3)', async () => {
    await cli(['publish', 'msg-cancel', 'doomed', '--delay', '1h', '--key', 'c1']);
    const r = await cli(['messages', 'cancel', 'msg-cancel', '--key', 'c1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^cancelled \(id \d+\)$/m);
    const again = await cli(['messages', 'cancel', 'msg-cancel', '--key', 'c1', '--json']);
    expect(again.code).toBe(5);
    expect(JSON.parse(again.stdout)).toMatchObject({ status: 'already-done' });
    const unknown = await cli(['messages', 'cancel', 'msg-cancel', '424242424']);
    expect(unknown.code).toBe(3);
    expect(unknown.stdout).toBe('not-found\n');
  });

  test('reschedule moves the due time; the consumer gets it at the new time', async () => {
    const [p] = jsonLines((await cli(['publish', 'msg-resched', 'later', '--delay', '1d', '--json'])).stdout);
    const id = p!['id'] as string;
    const before = Date.now();
    const r = await json<{ status: string; dueAtMs: number; id: string }>([
      'messages',
      'reschedule',
      'msg-resched',
      id,
      '--delay',
      '200ms',
    ]);
    expect(r).toMatchObject({ status: 'rescheduled', id });
    expect(r.dueAtMs).toBeGreaterThanOrEqual(before + 200 - NODE_CLOCK_LAG_MS);
    expect(r.dueAtMs).toBeLessThan(before + 60_000);
    const c = await cli(['consume', 'msg-resched', '--count', '1', '--timeout', '30s']);
    expect(c.stdout).toBe('later\n');
  });
});

describe('fermata topics and groups', () => {
  test('create, update, ls, stats and delete a topic', async () => {
    const t = await json<{ name: string; settings: { maxAttempts: number; defaultLeaseMs: number } }>([
      'topics',
      'create',
      'adm-topic',
      '--max-attempts',
      '3',
      '--lease',
      '45s',
    ]);
    expect(t).toMatchObject({ name: 'adm-topic', settings: { maxAttempts: 3, defaultLeaseMs: 45_000 } });
    const exists = await cli(['topics', 'create', 'adm-topic']);
    expect(exists.code).toBe(5);
    expect(exists.stderr).toMatch(/^fermata: error: ALREADY_EXISTS: .+\n$/);
    const u = await json<{ settings: { maxAttempts: number; defaultLeaseMs: number } }>([
      'topics',
      'update',
      'adm-topic',
      '--max-attempts',
      '7',
    ]);
    expect(u.settings).toMatchObject({ maxAttempts: 7, defaultLeaseMs: 45_000 });
    const list = await json<{ name: string; groups: string[] }[]>(['topics', 'ls']);
    expect(list.find((x) => x.name === 'adm-topic')).toMatchObject({ groups: ['default'] });
    const human = await cli(['topics', 'ls']);
    expect(human.stdout).toMatch(/^adm-topic\s+default\s+7\s+45s\s+adm-topic\.dlq\s+drop\s/m);
    await cli(['publish', 'adm-topic', 'a', 'b', '--delay', '1h']);
    const del = await json<{ removedMessages: string }>(['topics', 'delete', 'adm-topic']);
    expect(del.removedMessages).toBe('2');
    expect((await cli(['topics', 'stats', 'adm-topic'])).code).toBe(3);
  });

  test('groups ls shows per-group counts; delete removes the group; default cannot be deleted', async () => {
    await cli(['topics', 'create', 'adm-groups']);
    await cli(['groups', 'create', 'adm-groups', 'billing']);
    await cli(['publish', 'adm-groups', 'one', '--delay', '1h']);
    const groups = await json<{ group: string; pending: number }[]>(['groups', 'ls', 'adm-groups']);
    expect(groups.map((g) => [g.group, g.pending]).sort()).toEqual([
      ['billing', 1],
      ['default', 1],
    ]);
    const del = await cli(['groups', 'delete', 'adm-groups', 'billing']);
    expect(del.code).toBe(0);
    expect(del.stdout).toBe('deleted group billing of topic adm-groups (1 messages removed)\n');
    const def = await cli(['groups', 'delete', 'adm-groups', 'default']);
    expect(def.code).toBe(2);
    expect(lines(def.stderr)).toHaveLength(1);
  });
});

describe('fermata dlq', () => {
  test('redrive --ids moves one dead letter back, --all the rest; the consumer gets them at attempt 1', async () => {
    expect((await cli(['topics', 'create', 'dlq-cli', '--expiry', 'dead-letter'])).code).toBe(0);
    // Expired unconsumed: dead-lettered by the janitor, reason "expired".
    expect(
      (await cli(['publish', 'dlq-cli', 'one', 'two', 'three', '--ttl', '100ms', '--delay', '50ms'])).code,
    ).toBe(0);
    let letters: { id: string; headers: Record<string, string> }[] = [];
    for (let i = 0; i < 100 && letters.length < 3; i++) {
      await new Promise((r) => setTimeout(r, 200));
      const ls = await cli(['messages', 'ls', 'dlq-cli.dlq', '--json']);
      letters = ls.code === 0 ? (JSON.parse(ls.stdout) as typeof letters) : [];
    }
    expect(letters.map((l) => l.headers['fermata-dead-letter-reason'])).toEqual([
      'expired',
      'expired',
      'expired',
    ]);
    const one = await cli(['dlq', 'redrive', 'dlq-cli', '--ids', letters[0]!.id]);
    expect(one.code).toBe(0);
    expect(one.stdout).toMatch(
      new RegExp(`^DEAD LETTER\\s+STATUS\\s+NEW ID\n${letters[0]!.id}\\s+redriven\\s+\\d+\n$`),
    );
    const again = await cli(['dlq', 'redrive', 'dlq-cli', '--ids', letters[0]!.id]);
    expect(again.code).toBe(5);
    expect(again.stdout).toContain('not-found');
    const all = await cli(['dlq', 'redrive', 'dlq-cli', '--all']);
    expect(all).toMatchObject({ code: 0, stdout: 'redriven 2 dead letters\n' });
    const consumed = await cli(['consume', 'dlq-cli', '--count', '3', '--json']);
    const got = lines(consumed.stdout).map((l) => JSON.parse(l) as { payload: string; attempt: number });
    expect(got.map((g) => [g.payload, g.attempt]).sort()).toEqual([
      ['one', 1],
      ['three', 1],
      ['two', 1],
    ]);
    expect((await cli(['dlq', 'redrive', 'dlq-cli'])).code).toBe(2);
  });
});

describe('fermata members', () => {
  test('add a learner, list it, remove it', async () => {
    const port = await freeBasePort(1);
    const added = await json<Member[]>([
      'members',
      'add',
      'n9',
      '--peer',
      `127.0.0.1:${port + 1}`,
      '--client',
      `127.0.0.1:${port}`,
      '--learner',
    ]);
    expect(added.find((m) => m.id === 'n9')).toMatchObject({ voter: false, address: `127.0.0.1:${port}` });
    expect((await json<Member[]>(['members', 'ls'])).map((m) => m.id)).toContain('n9');
    const removed = await json<Member[]>(['members', 'remove', 'n9']);
    expect(removed.map((m) => m.id).sort()).toEqual(['n1', 'n2', 'n3']);
  });

  test('transfer-leader hands leadership to the named node', async () => {
    const { leaderId } = await json<{ leaderId: string }>(['status']);
    const target = ['n1', 'n2', 'n3'].find((id) => id !== leaderId)!;
    const r = await json<{ leaderId: string }>(['members', 'transfer-leader', target]);
    expect(r.leaderId).toBe(target);
    expect((await json<{ leaderId: string }>(['status'])).leaderId).toBe(target);
  });
});

describe('errors and exit codes', () => {
  test.each([
    [['bogus'], /unknown command 'bogus'/],
    [['publish'], /missing required argument 'topic'/],
    [['publish', 't', 'x', '--delay', '5 parsecs'], /--delay: "5 parsecs" is not a duration/],
    [['publish', 't', 'x', '--delay', '1s', '--at', '+1m'], /give --delay or --at, not both/],
    [['publish', 't', 'x', 'y', '--key', 'k'], /--key names one message/],
    [['messages', 'get', 't', 'abc'], /expected a message id/],
    [['members', 'add', 'n4', '--peer', 'nohost', '--client', '127.0.0.1:1'], /--peer: expected host:port/],
  ])('usage error %j exits 2 with one line on stderr', async (args, message) => {
    const r = await cli(args);
    expect(r.code).toBe(2);
    expect(lines(r.stderr)).toHaveLength(1);
    expect(r.stderr).toMatch(/^fermata: error: /);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  test('INVALID_ARGUMENT from the server exits 2 naming the field', async () => {
    const r = await cli(['publish', 'bad topic name!', 'x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fermata: error: INVALID_ARGUMENT: .*topic/);
    expect(lines(r.stderr)).toHaveLength(1);
  });

  test('a subscription the server refuses ends consume with exit 2 and one line', async () => {
    const r = await cli(['consume', 'bad name', '--timeout', '30s']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^fermata: error: INVALID_ARGUMENT: subscribe\.topic: .+\n$/);
    expect(lines(r.stderr)).toHaveLength(1);
  });

  test('serve refuses an unknown FERMATA_* variable (exit 2) but ignores the client variables', async () => {
    const r = await runCli(['serve'], {
      env: {
        FERMATA_ENDPOINTS: '127.0.0.1:1',
        FERMATA_TOKEN: 'secret',
        FERMATA_DEADLINE: '1s',
        FERMATA_RAFT__TIK_MS: '10',
      },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/raft\.tikMs|FERMATA_RAFT__TIK_MS/);
    expect(r.stderr).not.toMatch(/ENDPOINTS|TOKEN|DEADLINE/);
  });

  test('serve exits 1 naming the cause when a port is taken, instead of hanging', async () => {
    const base = await freeBasePort(3);
    const taken = createServer();
    await new Promise<void>((ok) => taken.listen(base + 1, '127.0.0.1', ok));
    try {
      const dir = mkdtempSync(join(tmpdir(), 'fermata-serve-'));
      const r = await runCli(['serve'], {
        timeoutMs: 30_000,
        env: {
          FERMATA_NODE_ID: 'n1',
          FERMATA_DATA_DIR: dir,
          FERMATA_CLIENT__LISTEN_ADDRESS: `127.0.0.1:${base}`,
          FERMATA_PEER__LISTEN_ADDRESS: `127.0.0.1:${base + 1}`,
          FERMATA_HTTP__LISTEN_ADDRESS: `127.0.0.1:${base + 2}`,
          FERMATA_INITIAL_MEMBERS: `n1=127.0.0.1:${base + 1}/127.0.0.1:${base}`,
        },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/fermata serve: could not start: .*EADDRINUSE/);
      rmSync(dir, { recursive: true, force: true });
    } finally {
      taken.close();
    }
  });

  test('an unreachable cluster exits 4 after --deadline with one line', async () => {
    const port = await freeBasePort(1);
    const r = await runCli(['status', '--deadline', '1s'], { endpoints: `127.0.0.1:${port}` });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^fermata: error: UNAVAILABLE: /);
    expect(lines(r.stderr)).toHaveLength(1);
  });

  test('consume exits 4 when it cannot subscribe within --deadline', async () => {
    const port = await freeBasePort(1);
    const r = await runCli(['consume', 'anything', '--deadline', '1s'], { endpoints: `127.0.0.1:${port}` });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(
      /^fermata: error: UNAVAILABLE: could not subscribe to anything within --deadline 1s/,
    );
    expect(lines(r.stderr)).toHaveLength(1);
  });

  test('--help and --version exit 0', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Exit codes: 0 ok/);
    expect((await cli(['--version'])).stdout.trim()).toBe('0.1.0');
  });
});
