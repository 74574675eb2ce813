/**
 * Abuse of a real `fermata serve` process: a consumer that never reads its
 * stream, hundreds of idle connections (HTTP/2 sessions and bare sockets that
 * never speak), a flood of tiny publishes. The server stops at the consumer's
 * credit instead of buffering, its memory stays bounded, and other clients
 * keep being served throughout.
 */
import { type ClientHttp2Session, connect as connectHttp2 } from 'node:http2';
import { connect as connectTcp, type Socket } from 'node:net';
import { BrokerService, toInt64, toSafeNumber, v1 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcFrame } from '../../packages/raft/test/support/raw-grpc.js';
import { type Cluster, NodeClients, sleep, startCluster } from '../src/index.js';
import { rssBytes } from './fuzz-support.js';

const MAX_RSS_GROWTH_BYTES = 150 * 1024 * 1024;
/** limits.maxConnections of the node under abuse. */
const MAX_CONNECTIONS = 450;

describe('abuse of a real server', () => {
  let cluster: Cluster;
  let clients: NodeClients;
  let pid: number;

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      env: {
        FERMATA_LOG_LEVEL: 'warn',
        FERMATA_LIMITS__MAX_CONNECTIONS: String(MAX_CONNECTIONS),
        // The connections here come from one address and make no call: only limits.maxConnections
        // is under test (the pending-connection limits have their own, security-client-network).
        FERMATA_LIMITS__MAX_PENDING_CONNECTIONS: '100000',
        FERMATA_LIMITS__MAX_PENDING_CONNECTIONS_PER_ADDRESS: '100000',
        FERMATA_LIMITS__HANDSHAKE_TIMEOUT_MS: '600000',
      },
    });
    clients = new NodeClients(cluster.endpoints[0] as string);
    pid = cluster.nodes[0]!.pid as number;
  });

  afterAll(async () => {
    clients?.close();
    await cluster?.stop();
  });

  it('a consumer that never reads holds at most its prefetch; the rest stays pending for other consumers', async () => {
    const topic = 'abuse-stuck-consumer';
    const total = 300;
    const prefetch = 8;
    for (let i = 0; i < total; i += 100) {
      await clients.publish({
        messages: Array.from({ length: 100 }, (_, k) => ({ topic, payload: Buffer.alloc(2048, i + k) })),
      });
    }
    const rssBefore = rssBytes(pid);
    // A raw stream that subscribes and then never reads a byte.
    const session = connectHttp2(`http://${cluster.endpoints[0]}`);
    session.on('error', () => undefined);
    const req = session.request({
      ':method': 'POST',
      ':path': BrokerService.consume.path,
      'content-type': 'application/grpc',
      te: 'trailers',
    });
    req.on('error', () => undefined);
    req.pause();
    req.write(
      grpcFrame(
        v1.ConsumeRequest.encode({ subscribe: { topic, prefetch, leaseMs: toInt64(120_000n) } }).finish(),
      ),
    );
    try {
      let inFlight = 0;
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline) {
        const stats = await clients.topicStats(topic);
        inFlight = toSafeNumber(stats.groups[0]?.inFlight ?? 0, 'inFlight');
        if (inFlight >= prefetch) break;
        await sleep(100);
      }
      expect(inFlight).toBe(prefetch);
      await sleep(1_000);
      const stats = await clients.topicStats(topic);
      expect(toSafeNumber(stats.groups[0]?.inFlight ?? 0, 'inFlight')).toBe(prefetch);
      expect(toSafeNumber(stats.groups[0]?.pending ?? 0, 'pending')).toBe(total - prefetch);

      // Another consumer of the same group gets everything else.
      const other = await clients.consume({ topic, prefetch: 500, leaseMs: toInt64(120_000n) });
      await other.waitFor(() => other.received.length >= total - prefetch, 30_000, 'the other messages');
      expect(other.received.length).toBe(total - prefetch);
      other.cancel();
      const growth = rssBytes(pid) - rssBefore;
      expect(growth, `rss grew ${growth}`).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    } finally {
      req.close();
      session.destroy();
    }
  });

  it('hundreds of idle connections cost bounded memory and do not keep other clients waiting', async () => {
    const rssBefore = rssBytes(pid);
    const [host, port] = (cluster.endpoints[0] as string).split(':') as [string, string];
    const sessions: ClientHttp2Session[] = [];
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 200; i++) {
        const s = connectHttp2(`http://${cluster.endpoints[0]}`);
        s.on('error', () => undefined);
        sessions.push(s);
        const t = connectTcp(Number(port), host);
        t.on('error', () => undefined);
        sockets.push(t);
      }
      await Promise.all(
        sessions.map((s) => new Promise<void>((r) => (s.connecting ? s.once('connect', () => r()) : r()))),
      );
      // Everyone else is still answered.
      for (let i = 0; i < 20; i++) expect((await clients.clusterInfo()).leaderId).toBe('n1');
      const res = await clients.publish({ messages: [{ topic: 'abuse-idle', payload: Buffer.from('x') }] });
      expect(res.results).toHaveLength(1);
      const growth = rssBytes(pid) - rssBefore;
      expect(growth, `rss grew ${growth}`).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    } finally {
      for (const s of sessions) s.destroy();
      for (const t of sockets) t.destroy();
    }
  });

  it('connections beyond limits.maxConnections are closed on arrival, logged, and accepted again once others leave', async () => {
    const [host, port] = (cluster.endpoints[0] as string).split(':') as [string, string];
    const open = (): Promise<{ socket: Socket; closed: Promise<void> }> =>
      new Promise((resolve) => {
        const socket = connectTcp(Number(port), host, () =>
          resolve({ socket, closed: new Promise((r) => socket.once('close', () => r())) }),
        );
        socket.on('error', () => undefined);
      });
    // The test's own client holds a connection or two; fill the rest.
    const held: Array<{ socket: Socket; closed: Promise<void> }> = [];
    try {
      for (let i = 0; i < MAX_CONNECTIONS; i++) held.push(await open());
      const extra = await Promise.all(Array.from({ length: 20 }, open));
      // Refused ones are closed by the server at once (well before any idle timeout).
      await Promise.race([
        Promise.all(extra.map((e) => e.closed)),
        sleep(10_000).then(() => {
          throw new Error('connections beyond the limit were not closed');
        }),
      ]);
      const node = cluster.nodes[0]!;
      const deadline = Date.now() + 5_000;
      while (node.logLines(/client connection refused/).length === 0 && Date.now() < deadline)
        await sleep(100);
      expect(
        node.logLines(/client connection refused: limits.maxConnections \(450\) reached/).length,
      ).toBeGreaterThan(0);
    } finally {
      for (const h of held) h.socket.destroy();
    }
    await Promise.all(held.map((h) => h.closed));
    const fresh = new NodeClients(cluster.endpoints[0] as string);
    try {
      expect((await fresh.clusterInfo()).leaderId).toBe('n1');
    } finally {
      fresh.close();
    }
  });

  it('a flood of tiny publishes is answered call by call while other clients are served', async () => {
    const rssBefore = rssBytes(pid);
    const flooder = new NodeClients(cluster.endpoints[0] as string);
    const codes = new Map<number, number>();
    try {
      const flood = Array.from({ length: 2_000 }, (_, i) =>
        flooder
          .publish(
            { messages: [{ topic: `abuse-flood-${i % 4}`, payload: Buffer.from([i & 0xff]) }] },
            60_000,
          )
          .then(
            () => 0,
            (err: { code?: number }) => err.code ?? -1,
          )
          .then((code) => codes.set(code, (codes.get(code) ?? 0) + 1)),
      );
      // Meanwhile another client's calls complete.
      for (let i = 0; i < 10; i++) {
        const info = await clients.clusterInfo();
        expect(info.leaderId).toBe('n1');
      }
      await Promise.all(flood);
    } finally {
      flooder.close();
    }
    // Every publish got an answer: stored, or refused with a status a client can act on.
    let answered = 0;
    for (const [code, n] of codes) {
      expect([0, status.RESOURCE_EXHAUSTED, status.UNAVAILABLE]).toContain(code);
      answered += n;
    }
    expect(answered).toBe(2_000);
    expect(codes.get(0) ?? 0).toBeGreaterThan(0);
    const growth = rssBytes(pid) - rssBefore;
    expect(growth, `rss grew ${growth}`).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  });
});
