// What an attacker on the client network costs clients with a token, on one node with tokens:
// 1. idle sockets: unary publish latency through the SDK, alone and while an attacker without a
//    token keeps `--sockets` (5,000) sockets open from 40 loopback addresses (reopening each one
//    the node closes; half send the HTTP/2 preface), and how long the node let an idle socket live;
// 2. an unread consumer: a raw HTTP/2 consumer (prefetch `--prefetch` 1,000, lease 5 s) that
//    never reads, over `--messages` (100) messages of 256 KiB: deliveries pushed, the leader's
//    memory before, while it is paused and after its stream closed.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as netConnect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { int64FromSafe } from '@fermata/protocol';
import { FermataClient } from '@fermata/sdk';
import { startCluster } from '../../test-cluster/src/harness.js';
import { rawConsumer } from '../../test-cluster/src/raw-consumer.js';
import { fmt, load1, rssBytes, type Stats, sleep, startedClusters, stats } from './cluster.js';
import { emit, flag, option, round, summary } from './report.js';

const OPS = 'bench-ops-token-0a1b2c3d4e5f6a7b8c9d0e1f';
const quiet = { debug: () => {}, warn: () => {}, error: () => {} };

export async function run(args: string[]): Promise<void> {
  const quick = flag(args, 'quick');
  const socketCount = option(args, 'sockets', quick ? 1_000 : 5_000);
  const holdMs = option(args, 'hold-ms', quick ? 5_000 : 20_000);
  const handshakeMs = option(args, 'handshake-ms', 10_000);
  const messages = option(args, 'messages', 100);
  const prefetch = option(args, 'prefetch', 1_000);
  const dir = mkdtempSync(join(tmpdir(), 'fermata-bench-abuse-'));
  const tokens = join(dir, 'tokens.yaml');
  const sha = createHash('sha256').update(OPS).digest('hex');
  writeFileSync(
    tokens,
    `tokens:\n  - {name: ops, sha256: ${sha}, publish: ["*"], consume: ["*"], admin: ["*"]}\n`,
  );
  const cluster = await startCluster({
    nodes: 1,
    keep: true,
    httpToken: OPS,
    env: {
      FERMATA_LOG_LEVEL: 'warn',
      FERMATA_AUTH__TOKENS_FILE: tokens,
      FERMATA_LIMITS__HANDSHAKE_TIMEOUT_MS: String(handshakeMs),
    },
  });
  startedClusters.push({ cluster, keep: flag(args, 'keep') });
  const node = cluster.nodes[0]!;
  const client = new FermataClient({ endpoints: [...cluster.endpoints], token: OPS, logger: quiet });
  try {
    const latencies = async (ms: number): Promise<Stats> => {
      const lat: number[] = [];
      const until = performance.now() + ms;
      while (performance.now() < until) {
        const s = performance.now();
        await client.publish('bench-abuse', 'x', { delayMs: 86_400_000 });
        lat.push(performance.now() - s);
      }
      return stats(lat);
    };
    await latencies(1_000);
    const alone = await latencies(quick ? 2_000 : 5_000);

    // The attacker: every socket the node closes is opened again until `holdMs` has passed.
    const [host, port] = node.clientAddress.split(':') as [string, string];
    const lifetimes: number[] = [];
    let stopping = false;
    let open = 0;
    const live = new Set<Socket>();
    const openOne = (i: number): void => {
      const openedAt = performance.now();
      const socket = netConnect({ host, port: Number(port), localAddress: `127.0.0.${2 + (i % 40)}` }, () => {
        if (i % 2 === 0) socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
      });
      open++;
      live.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        open--;
        live.delete(socket);
        if (stopping) return;
        lifetimes.push(performance.now() - openedAt);
        setTimeout(() => openOne(i), 10);
      });
    };
    for (let i = 0; i < socketCount; i++) {
      openOne(i);
      if (i % 250 === 249) await sleep(20);
    }
    const during = await latencies(holdMs);
    const openAtEnd = open;
    stopping = true;
    for (const s of live) s.destroy();
    const held = stats(lifetimes);
    const idle = {
      scenario: 'client-abuse',
      part: 'idle-sockets',
      quick,
      sockets: socketCount,
      handshake_timeout_ms: handshakeMs,
      publish_alone_ms: alone,
      publish_during_ms: during,
      idle_socket_lifetime_ms: held,
      idle_sockets_closed: lifetimes.length,
      attacker_open_at_end: openAtEnd,
      load_avg_1m: load1(),
    };
    emit(idle);
    summary(`publish alone:            ${fmt(alone)}`);
    summary(`publish with ${socketCount} idle sockets held ${holdMs} ms: ${fmt(during)}`);
    summary(
      `idle sockets closed by the node: ${lifetimes.length}, lifetime ${fmt(held)} (deadline ${handshakeMs} ms), ${openAtEnd} open at the end`,
    );

    // The unread consumer.
    const topic = 'bench-unread';
    const payload = Buffer.alloc(256 * 1024, 1);
    for (let i = 0; i < messages; i += 10)
      await client.publishBatch(
        Array.from({ length: Math.min(10, messages - i) }, () => ({ topic, payload })),
      );
    await sleep(1_000);
    const scrape = async () => (await node.httpGet('/metrics')).body;
    const value = (body: string, name: string, labels = '') =>
      body
        .split('\n')
        .filter((l) => l.startsWith(name) && (labels === '' || l.includes(labels)))
        .reduce((a, l) => a + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    const figures = async () => {
      const m = await scrape();
      return {
        rss_mb: round(rssBytes(node.pid) / 1e6),
        external_mb: round(value(m, 'nodejs_external_memory_bytes') / 1e6),
        unsent_mb: round(value(m, 'fermata_consume_unsent_payload_bytes') / 1e6),
        deliveries: value(m, 'fermata_deliveries_total', `topic="${topic}"`),
        dead_letters: value(m, 'fermata_dead_letters_total', `topic="${topic}"`),
      };
    };
    const before = await figures();
    const raw = rawConsumer(node.clientAddress, OPS, { topic, prefetch, leaseMs: int64FromSafe(5_000) });
    raw.stream.pause();
    // Four lease lengths: every lease the stream holds lapses.
    await sleep(quick ? 12_000 : 20_000);
    const paused = await figures();
    raw.close();
    await sleep(5_000);
    const after = await figures();
    // An idle process frees released buffers only at its next garbage collection: give it work.
    await latencies(5_000);
    const busy = await figures();
    emit({
      scenario: 'client-abuse',
      part: 'unread-consumer',
      quick,
      messages,
      prefetch,
      before,
      paused,
      after,
      busy,
      load_avg_1m: load1(),
    });
    summary(
      `unread consumer (prefetch ${prefetch}, ${messages} x 256 KiB): ${paused.deliveries - before.deliveries} deliveries pushed, ${paused.dead_letters} dead-lettered`,
    );
    summary(
      `leader memory before / paused / 5 s after close / after 5 s of publishing: RSS ${before.rss_mb} / ${paused.rss_mb} / ${after.rss_mb} / ${busy.rss_mb} MB, external ${before.external_mb} / ${paused.external_mb} / ${after.external_mb} / ${busy.external_mb} MB, unsent ${before.unsent_mb} / ${paused.unsent_mb} / ${after.unsent_mb} / ${busy.unsent_mb} MB`,
    );
  } finally {
    await client.close();
    await cluster.stop();
  }
}
