/**
 * What an attacker on the client network can do to a real `fermata serve`
 * process with tokens on, and what it cannot: idle sockets without a token do
 * not lock clients with a token out and are closed within the handshake
 * deadline; a consumer that stops reading is sent at most its prefetch, its
 * lapsed leases are not pushed again into its unread stream, and what the
 * leader held for it is released when the stream closes; a token removed
 * from the token file ends its open streams at the next reload; ListTopics
 * and the HTTP status page and /metrics show only what a token may see.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { int64FromSafe, makeClient, type pb } from '@fermata/protocol';
import { FermataClient, type Logger, type Message } from '@fermata/sdk';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, rawConsumer, sleep, startCluster } from '../src/index.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const TOKENS = {
  ops: 'ops-token-5b1d4f6a8c0e2b4d6f8a0c2e7f3a9c2e',
  app: 'app-token-9c1e3b5d7f9a1c3e1b3d5f7a5b7d9f1a',
  adminA: 'admin-a-token-3e2d1c0b9a8f7e6d9e8d7c6b5a4f5c4b',
  monitor: 'monitor-token-6a7b8c9d0e1f2a3b0a1b2c3d4e5f4c5d',
  revoked: 'revoked-token-1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c',
  narrowed: 'narrowed-token-8a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d',
};

interface Entry {
  name: string;
  token: string;
  publish?: string[];
  consume?: string[];
  admin?: string[];
  monitor?: boolean;
}

const ENTRIES: Entry[] = [
  { name: 'ops', token: TOKENS.ops, publish: ['*'], consume: ['*'], admin: ['*'] },
  { name: 'app', token: TOKENS.app, publish: ['app.*'], consume: ['app.*'] },
  { name: 'admin-a', token: TOKENS.adminA, admin: ['A'] },
  { name: 'monitor', token: TOKENS.monitor, monitor: true },
  { name: 'revoked', token: TOKENS.revoked, publish: ['rev.*'], consume: ['rev.*'] },
  { name: 'narrowed', token: TOKENS.narrowed, publish: ['nar.*'], consume: ['nar.*'] },
];

function tokenFile(entries: readonly Entry[]): string {
  return `tokens:\n${entries
    .map(
      (e) =>
        `  - name: ${e.name}\n    sha256: ${sha256(e.token)}\n    publish: ${JSON.stringify(e.publish ?? [])}\n` +
        `    consume: ${JSON.stringify(e.consume ?? [])}\n    admin: ${JSON.stringify(e.admin ?? [])}\n` +
        `    monitor: ${e.monitor === true}\n`,
    )
    .join('')}`;
}

const HANDSHAKE_TIMEOUT_MS = 3_000;
/**
 * How long an idle socket may live: the deadline plus the slack of a busy
 * shared machine (accepting 5,000 connections takes seconds there). Without
 * the deadline they stay open for minutes (limits.maxConnectionIdleMs).
 */
const IDLE_SOCKET_BOUND_MS = HANDSHAKE_TIMEOUT_MS + 20_000;
const RELOAD_MS = 200;
const PAYLOAD_BYTES = 256 * 1024;

async function waitUntil(
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached within ${timeoutMs} ms`);
    await sleep(50);
  }
}

/** The sum of a metric's samples whose labels contain `labels` (e.g. `topic="t"`). */
function metric(body: string, name: string, labels = ''): number {
  let sum = 0;
  for (const line of body.split('\n')) {
    if (!line.startsWith(name) || (line[name.length] !== ' ' && line[name.length] !== '{')) continue;
    if (labels !== '' && !line.includes(labels)) continue;
    sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

describe('client network: an attacker with and without a token', () => {
  let dir: string;
  let tokensPath: string;
  let cluster: Cluster;
  const clients: FermataClient[] = [];

  const sdk = (token: string, deadlineMs = 10_000) => {
    const c = new FermataClient({ endpoints: [...cluster.endpoints], token, deadlineMs, logger: quiet });
    clients.push(c);
    return c;
  };
  const node = () => cluster.nodes[0]!;
  const get = async (path: string, token?: string) => {
    const res = await fetch(`${node().httpUrl}${path}`, {
      headers: { accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      signal: AbortSignal.timeout(5_000),
    });
    return { status: res.status, body: await res.text() };
  };
  const metrics = async () => {
    const res = await get('/metrics', TOKENS.monitor);
    expect(res.status).toBe(200);
    return res.body;
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-client-net-'));
    tokensPath = join(dir, 'tokens.yaml');
    writeFileSync(tokensPath, tokenFile(ENTRIES));
    cluster = await startCluster({
      nodes: 1,
      httpToken: TOKENS.monitor,
      env: {
        FERMATA_AUTH__TOKENS_FILE: tokensPath,
        FERMATA_CREDENTIALS_RELOAD_INTERVAL_MS: String(RELOAD_MS),
        FERMATA_LIMITS__HANDSHAKE_TIMEOUT_MS: String(HANDSHAKE_TIMEOUT_MS),
        FERMATA_LOG_LEVEL: 'warn',
      },
    });
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('5,000 idle sockets without a token: clients with a token still publish and consume; every idle socket is closed by the handshake deadline', async () => {
    const early = sdk(TOKENS.app);
    await early.publish('app.idle', 'before');
    const sockets: Array<{ socket: Socket; openedAtMs: number; closedAtMs?: number }> = [];
    const open = (i: number) =>
      new Promise<void>((resolve) => {
        // 40 source addresses of the loopback network, 125 sockets each; every other one sends the HTTP/2 preface.
        const localAddress = `127.0.0.${2 + (i % 40)}`;
        const [host, port] = node().clientAddress.split(':') as [string, string];
        const socket = netConnect({ host, port: Number(port), localAddress }, () => {
          if (i % 2 === 0) socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
          resolve();
        });
        const entry: { socket: Socket; openedAtMs: number; closedAtMs?: number } = {
          socket,
          openedAtMs: Date.now(),
        };
        sockets.push(entry);
        socket.on('error', () => resolve());
        socket.on('close', () => {
          entry.closedAtMs = Date.now();
          resolve();
        });
      });
    try {
      for (let i = 0; i < 5_000; i += 500)
        await Promise.all(Array.from({ length: 500 }, (_, k) => open(i + k)));
      const openAtOnce = sockets.filter((s) => s.closedAtMs === undefined).length;
      // A client connecting while the attacker holds its sockets, and the one connected before.
      const late = sdk(TOKENS.app);
      const got = new Promise<Message>((resolve) => {
        late.subscribe('app.idle', { prefetch: 10 }, (m) => {
          if (Buffer.from(m.payload).toString() === 'during') resolve(m);
        });
      });
      await late.publish('app.idle', 'during');
      await early.publish('app.idle', 'during, from the earlier client');
      expect(Buffer.from((await got).payload).toString()).toBe('during');
      await waitUntil(
        () => sockets.every((s) => s.closedAtMs !== undefined),
        IDLE_SOCKET_BOUND_MS,
        'every idle socket closed',
      );
      const lifetimes = sockets.map((s) => (s.closedAtMs as number) - s.openedAtMs);
      const longest = Math.max(...lifetimes);
      console.log(
        `idle sockets: 5000 opened, ${openAtOnce} open after the last was opened, longest held ${longest} ms (handshake deadline ${HANDSHAKE_TIMEOUT_MS} ms)`,
      );
      expect(longest).toBeLessThan(IDLE_SOCKET_BOUND_MS);
      const m = await metrics();
      const closedBy = (limit: string) =>
        metric(m, 'fermata_client_connections_closed_total', `limit="${limit}"`);
      console.log(
        `closed by the node: handshakeTimeoutMs ${closedBy('handshakeTimeoutMs')}, maxPending ${closedBy('maxPending')}, maxPendingPerAddress ${closedBy('maxPendingPerAddress')}, maxConnections ${closedBy('maxConnections')}`,
      );
      expect(closedBy('handshakeTimeoutMs') + closedBy('maxPending')).toBeGreaterThanOrEqual(5_000);
      // The connections of the clients with a token were not among them.
      await expect(early.publish('app.idle', 'after')).resolves.toBeTypeOf('bigint');
      await expect(late.publish('app.idle', 'after')).resolves.toBeTypeOf('bigint');
    } finally {
      for (const s of sockets) s.socket.destroy();
    }
  }, 90_000);

  it('a consumer that stops reading is pushed at most its prefetch; its lapsed leases are not pushed again; its buffers are released on close', async () => {
    const ops = sdk(TOKENS.ops);
    // Longer than dispatcher.leaseAheadMs (2 s), as a real lease: a lapsing lease is then leased ahead again.
    const leaseMs = 3_000;
    const payload = Buffer.alloc(PAYLOAD_BYTES, 7);
    // One stream with less prefetch than there are messages, one with more.
    const cases = [
      { topic: 'app.unread-few', messages: 40, prefetch: 8 },
      { topic: 'app.unread-many', messages: 20, prefetch: 100 },
    ];
    for (const { topic, messages } of cases)
      for (let i = 0; i < messages; i += 10)
        await ops.publishBatch(Array.from({ length: 10 }, () => ({ topic, payload })));
    const before = await metrics();
    const raws = cases.map(({ topic, prefetch }) =>
      rawConsumer(node().clientAddress, TOKENS.app, { topic, prefetch, leaseMs: int64FromSafe(leaseMs) }),
    );
    await waitUntil(() => raws.every((raw) => raw.responses.some((r) => r.subscribed)), 10_000, 'subscribed');
    for (const raw of raws) raw.stream.pause();
    // Several lease lengths: every lease the paused streams hold lapses a few times over, while other
    // traffic keeps the dispatcher busy (each publish wakes it, as on any node in use).
    const until = Date.now() + 3 * leaseMs;
    while (Date.now() < until) {
      await ops.publish('app.traffic', 'x');
      await sleep(50);
    }
    const paused = await metrics();
    const unsentBytes = metric(paused, 'fermata_consume_unsent_payload_bytes');
    let most = 0;
    for (const { topic, messages, prefetch } of cases) {
      const pushed =
        metric(paused, 'fermata_deliveries_total', `topic="${topic}"`) -
        metric(before, 'fermata_deliveries_total', `topic="${topic}"`);
      console.log(
        `unread stream: ${pushed} deliveries pushed for ${messages} messages (prefetch ${prefetch}, lease ${leaseMs} ms)`,
      );
      // At most its prefetch, and each message at most once: no lapsed lease pushed again.
      expect(pushed, topic).toBeGreaterThan(0);
      expect(pushed, topic).toBeLessThanOrEqual(Math.min(prefetch, messages));
      expect(metric(paused, 'fermata_dead_letters_total', `topic="${topic}"`), topic).toBe(0);
      most += Math.min(prefetch, messages);
    }
    console.log(
      `unread streams: ${unsentBytes} payload bytes held unsent; external memory ${metric(paused, 'nodejs_external_memory_bytes')} B`,
    );
    // What HTTP/2 could not send is held by the leader, at most the prefetch of each stream.
    expect(unsentBytes).toBeGreaterThan(0);
    expect(unsentBytes).toBeLessThanOrEqual(most * PAYLOAD_BYTES);
    for (const raw of raws) raw.close();
    await waitUntil(
      async () => metric(await metrics(), 'fermata_consume_unsent_payload_bytes') === 0,
      10_000,
      'unsent deliveries released after close',
    );
    // The messages come back to a consumer that reads.
    for (const { topic, messages } of cases) {
      const seen = new Set<string>();
      const sub = ops.subscribe(topic, { prefetch: 16 }, (m) => {
        seen.add(String(m.id));
      });
      await waitUntil(() => seen.size === messages, 30_000, `all messages of ${topic} consumed after close`);
      await sub.close();
    }
    const after = await metrics();
    console.log(
      `after close: external memory ${metric(after, 'nodejs_external_memory_bytes')} B, resident ${metric(after, 'process_resident_memory_bytes')} B`,
    );
  }, 90_000);

  it('ListTopics lists only the topics a token holds admin on', async () => {
    const ops = sdk(TOKENS.ops);
    for (const t of ['A', 'B', 'app.list']) await ops.createTopic(t).catch(() => undefined);
    const listed = (await sdk(TOKENS.adminA).listTopics()).map((t) => t.name);
    expect(listed).toEqual(['A']);
    expect((await ops.listTopics()).map((t) => t.name)).toEqual(
      expect.arrayContaining(['A', 'B', 'app.list']),
    );
  });

  it('the status page and /metrics need a monitoring token; /livez and /readyz stay open', async () => {
    for (const path of ['/', '/metrics']) {
      const none = await get(path);
      expect(none.status, path).toBe(401);
      expect(none.body).toContain('no token');
      expect((await get(path, 'not-a-token')).status, path).toBe(401);
      const app = await get(path, TOKENS.app);
      expect(app.status, path).toBe(403);
      expect(app.body).toContain('token \\"app\\" may not read this page');
      expect((await get(path, TOKENS.monitor)).status, path).toBe(200);
      expect((await get(path, TOKENS.ops)).status, path).toBe(200);
    }
    expect((await get('/livez')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    const page = await get('/', TOKENS.monitor);
    expect(JSON.parse(page.body)).toMatchObject({ nodeId: 'n1' });
  });

  it('a token removed from the token file ends its open streams at the next reload; a narrowed one its streams outside the new permissions', async () => {
    // A PublishStream of the token to be revoked, stored messages before the reload.
    const broker = makeClient('Broker', node().clientAddress, grpc.credentials.createInsecure());
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${TOKENS.revoked}`);
    const publishStream = broker.publishStream(md);
    const answers: pb.PublishStreamResponse[] = [];
    publishStream.on('data', (r: pb.PublishStreamResponse) => answers.push(r));
    const publishEnded = new Promise<grpc.ServiceError>((resolve) => publishStream.on('error', resolve));
    publishStream.write({
      sequence: int64FromSafe(1),
      messages: [{ topic: 'rev.t', payload: Buffer.from('before') }],
    });
    await waitUntil(() => answers.length === 1, 10_000, 'first publish answered');
    expect(answers[0]?.error).toBeFalsy();
    // A consume stream of the same token and one of the token that loses its consume permission.
    // (The publish creates the topic, which consuming never does.)
    await sdk(TOKENS.narrowed).publish('nar.t', 'x');
    const revokedSub = sdk(TOKENS.revoked).subscribe('rev.t', () => undefined);
    const narrowedSub = sdk(TOKENS.narrowed).subscribe('nar.t', () => undefined);
    await sleep(500);
    writeFileSync(
      tokensPath,
      tokenFile(
        ENTRIES.filter((e) => e.name !== 'revoked').map((e) =>
          e.name === 'narrowed' ? { ...e, consume: [] } : e,
        ),
      ),
    );
    const err = await publishEnded;
    expect(err.code).toBe(grpc.status.UNAUTHENTICATED);
    expect(err.details).toContain('token "revoked" was revoked');
    await expect(revokedSub.done).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    await expect(narrowedSub.done).rejects.toMatchObject({
      code: grpc.status.PERMISSION_DENIED,
      message: expect.stringContaining('lacks permission "consume" on topic "nar.t"'),
    });
    broker.close();
    // The narrowed token still publishes, as the new file allows.
    await expect(sdk(TOKENS.narrowed).publish('nar.t', 'y')).resolves.toBeTypeOf('bigint');
    writeFileSync(tokensPath, tokenFile(ENTRIES));
  }, 60_000);
});
