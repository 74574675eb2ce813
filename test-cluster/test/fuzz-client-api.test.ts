/**
 * Fuzzes the client port of a real `fermata serve` process over a bare HTTP/2
 * connection: random bytes, truncated and bit-flipped requests of every
 * method, huge length prefixes, wrong wire types, a compressed flag with no
 * encoding, oversized metadata, oversized messages, unknown methods, and
 * publishes with a field at or beyond its limit. The server answers each with
 * a status or a reset (never a hang), keeps running, its memory stays
 * bounded, and the data stored before the run is unchanged.
 *
 * FERMATA_TEST_FUZZ_SEED replays a run; FERMATA_TEST_FUZZ_ITERATIONS makes it longer (scripts/fuzz.sh).
 */
import { AdminService, BrokerService, ClusterService, toInt64 } from '@fermata/protocol';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grpcFrame, RawGrpcConnection } from '../../packages/raft/test/support/raw-grpc.js';
import { fuzzIterations, fuzzSeed, Rng } from '../../packages/raft/test/support/rng.js';
import { type Cluster, NodeClients, startCluster } from '../src/index.js';
import {
  MAX_BATCH_PAYLOAD_BYTES,
  MAX_PAYLOAD_BYTES,
  MAX_RECEIVE_BYTES,
  MUTATING,
  nextCase,
} from './fuzz-cases.js';
import { rssBytes } from './fuzz-support.js';

const ITERATIONS = fuzzIterations(400);
/** Growth of the server's resident memory over the run that counts as unbounded. */
const MAX_RSS_GROWTH_BYTES = 200 * 1024 * 1024;
const BASELINE = 'fuzz-baseline';

async function digest(c: NodeClients): Promise<string> {
  const stats = await c.topicStats(BASELINE);
  const lists = await Promise.all(
    ['default', 'g2'].map((group) => c.listMessages({ topic: BASELINE, group, limit: 1000 })),
  );
  const topics = (await c.listTopics()).topics.map((t) => t.name).sort();
  return JSON.stringify({ stats, lists, topics });
}

describe('fuzz: client port of a real server', () => {
  let cluster: Cluster;
  let clients: NodeClients;

  beforeAll(async () => {
    cluster = await startCluster({
      nodes: 1,
      env: {
        FERMATA_LIMITS__MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES),
        FERMATA_LIMITS__MAX_BATCH_PAYLOAD_BYTES: String(MAX_BATCH_PAYLOAD_BYTES),
        FERMATA_LOG_LEVEL: 'warn',
      },
    });
    clients = new NodeClients(cluster.endpoints[0] as string);
    await clients.createTopic({ name: BASELINE });
    await clients.createGroup({ topic: BASELINE, group: 'g2' });
    const hour = toInt64(3_600_000n);
    for (let i = 0; i < 5; i++) {
      await clients.publish({
        messages: Array.from({ length: 10 }, (_, k) => ({
          topic: BASELINE,
          payload: Buffer.from(`m${i}-${k}`),
          delayMs: hour,
          key: `k${i}-${k}`,
          headers: { n: String(k) },
        })),
      });
    }
  });

  afterAll(async () => {
    clients?.close();
    await cluster?.stop();
  });

  it('every malformed or out-of-bounds request ends with a status or a reset; the server lives on with bounded memory and unchanged data', async () => {
    const seed = fuzzSeed(0xc11e);
    const rng = new Rng(seed);
    const node = cluster.nodes[0]!;
    const pid = node.pid as number;
    const before = await digest(clients);
    const rssBefore = rssBytes(pid);
    const conn = new RawGrpcConnection(node.clientAddress);
    const outcomes = new Map<string, number>();
    try {
      for (let i = 0; i < ITERATIONS; i++) {
        const c = nextCase(rng);
        const what = `seed ${seed} iteration ${i}: ${c.name} on ${c.path}`;
        const out = await conn
          .call(c.path, c.body, { ...(c.headers ? { headers: c.headers } : {}), timeoutMs: 15_000 })
          .catch((err: unknown) => {
            throw new Error(`${what}: ${String(err)}\n${cluster.logs(20)}`);
          });
        // A reset may take the connection with it (oversized headers end the HTTP/2 session): start afresh.
        if (out.aborted) conn.close();
        if (c.expect)
          expect(out.status, `${what}: ${out.message}`).toSatisfy(
            (s: number | undefined) => s !== undefined && c.expect!.includes(s),
          );
        // Calls that change state never succeed on these inputs; the others answer a definite
        // result (not found, lease expired) with OK.
        if (out.status === status.OK) expect(MUTATING, what).not.toContain(c.path);
        const key = `${c.name}: ${out.aborted ? 'reset' : (status[out.status as number] ?? out.status)}`;
        outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
      }
      // One message past grpc's receive limit, a few times: refused, not buffered.
      for (let i = 0; i < 3; i++) {
        const big = grpcFrame(Buffer.alloc(MAX_RECEIVE_BYTES + 1024, 7));
        const out = await conn.call(BrokerService.publish.path, big, { timeoutMs: 30_000 });
        expect(
          out.aborted || out.status === status.RESOURCE_EXHAUSTED,
          `oversized message: ${JSON.stringify(out)}`,
        ).toBe(true);
      }
    } finally {
      conn.close();
    }
    expect(node.running, cluster.logs()).toBe(true);
    expect((await node.httpGet('/livez')).status).toBe(200);
    expect(await digest(clients)).toBe(before);
    const growth = rssBytes(pid) - rssBefore;
    expect(growth, `resident memory grew by ${growth} bytes`).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    // The run reached the outcomes it is meant to check.
    expect([...outcomes.keys()].some((k) => k.startsWith('publish: '))).toBe(true);
    console.log(
      `fuzz-client-api seed ${seed}: ${ITERATIONS} requests, rss +${(growth / 1048576).toFixed(1)} MiB\n${[
        ...outcomes,
      ]
        .sort()
        .map(([k, n]) => `  ${n}\t${k}`)
        .join('\n')}`,
    );
  });

  it('a request that does not decode is INVALID_ARGUMENT naming the request, on every method', async () => {
    // Field 1, length-delimited, length 127 with 1 byte present: no message decodes from it.
    const body = grpcFrame(Buffer.from([0x0a, 0x7f, 0x01]));
    const conn = new RawGrpcConnection(cluster.nodes[0]!.clientAddress);
    try {
      const methods = [
        ...Object.values(BrokerService),
        ...Object.values(AdminService),
        ...Object.values(ClusterService),
      ].filter((m) => m.path !== BrokerService.publishStream.path);
      for (const m of methods) {
        const out = await conn.call(m.path, body, { timeoutMs: 15_000 });
        expect(out.status, `${m.path}: ${out.message}`).toBe(status.INVALID_ARGUMENT);
        expect(out.message, m.path).toMatch(/request.*is not a valid \w+ request/);
      }
    } finally {
      conn.close();
    }
  });
});
