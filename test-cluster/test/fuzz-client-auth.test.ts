/**
 * The client-port fuzzer with authentication on: the same malformed and
 * out-of-bounds requests, sent with a full token, a token limited to a few
 * topics, an unknown token, a malformed authorization header or none. Each
 * ends with a status or a reset; a request without a valid token never gets
 * further than UNAUTHENTICATED, one outside its token's topics never further
 * than PERMISSION_DENIED; the server lives on and the stored data is unchanged.
 */

import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, type Logger } from '@fermata/sdk';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawGrpcConnection } from '../../packages/raft/test/support/raw-grpc.js';
import { fuzzIterations, fuzzSeed, Rng } from '../../packages/raft/test/support/rng.js';
import { type Cluster, startCluster } from '../src/index.js';
import { MAX_BATCH_PAYLOAD_BYTES, MAX_PAYLOAD_BYTES, MUTATING, nextCase } from './fuzz-cases.js';
import { rssBytes } from './fuzz-support.js';

const ITERATIONS = fuzzIterations(300);
const MAX_RSS_GROWTH_BYTES = 200 * 1024 * 1024;
const BASELINE = 'fuzz-auth-baseline';
const FULL = 'fuzz-full-token-5a1f0e9c3b7d2a4e6f8091b3c5d7e9f1';
const LIMITED = 'fuzz-limited-token-0c2e4a6b8d0f1e3c5a7b9d1f3e5c7a9b';
const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const sha = (t: string) => createHash('sha256').update(t).digest('hex');

type Who = 'full' | 'limited' | 'unknown' | 'malformed' | 'none';

function authHeader(who: Who, rng: Rng): Record<string, string> {
  switch (who) {
    case 'full':
      return { authorization: `Bearer ${FULL}` };
    case 'limited':
      return { authorization: `Bearer ${LIMITED}` };
    case 'unknown':
      return { authorization: `Bearer ${rng.bytes(16).toString('hex')}` };
    case 'malformed':
      return {
        authorization: rng.pick(['Bearer', 'Basic abc', 'bearer  ', rng.bytes(20).toString('base64')]),
      };
    case 'none':
      return {};
  }
}

describe('fuzz: client port with authentication on', () => {
  let dir: string;
  let cluster: Cluster;
  let client: FermataClient;

  const digest = async () => {
    const stats = await client.topicStats(BASELINE);
    const list = await client.listMessages(BASELINE, { limit: 1000 });
    const topics = (await client.listTopics()).map((t) => t.name).sort();
    return JSON.stringify({ stats, list, topics }, (_k, v: unknown) =>
      typeof v === 'bigint' ? v.toString() : v,
    );
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-fuzz-auth-'));
    const tokens = join(dir, 'tokens.yaml');
    writeFileSync(
      tokens,
      `tokens:\n  - {name: full, sha256: ${sha(FULL)}, publish: ["*"], consume: ["*"], admin: ["*"]}\n` +
        `  - {name: limited, sha256: ${sha(LIMITED)}, publish: ["fuzz-limits-1"], consume: ["fuzz-limits-1"]}\n`,
    );
    cluster = await startCluster({
      nodes: 1,
      httpToken: FULL,
      env: {
        FERMATA_LIMITS__MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES),
        FERMATA_LIMITS__MAX_BATCH_PAYLOAD_BYTES: String(MAX_BATCH_PAYLOAD_BYTES),
        FERMATA_AUTH__TOKENS_FILE: tokens,
        FERMATA_LOG_LEVEL: 'warn',
      },
    });
    client = new FermataClient({ endpoints: [...cluster.endpoints], token: FULL, logger: quiet });
    await client.createTopic(BASELINE);
    await client.publishBatch(
      Array.from({ length: 20 }, (_, k) => ({
        topic: BASELINE,
        payload: `m${k}`,
        delayMs: 3_600_000,
        key: `k${k}`,
      })),
    );
  });

  afterAll(async () => {
    await client?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('requests without a valid token stop at UNAUTHENTICATED, outside their topics at PERMISSION_DENIED; data unchanged', async () => {
    const seed = fuzzSeed(0xa07);
    const rng = new Rng(seed);
    const node = cluster.nodes[0]!;
    const pid = node.pid as number;
    const before = await digest();
    const rssBefore = rssBytes(pid);
    const conn = new RawGrpcConnection(node.clientAddress);
    const seen = new Map<string, number>();
    try {
      for (let i = 0; i < ITERATIONS; i++) {
        const c = nextCase(rng);
        const who = rng.pick<Who>(['full', 'full', 'limited', 'limited', 'unknown', 'malformed', 'none']);
        const what = `seed ${seed} iteration ${i}: ${c.name} on ${c.path} as ${who}`;
        const out = await conn
          .call(c.path, c.body, { headers: { ...c.headers, ...authHeader(who, rng) }, timeoutMs: 15_000 })
          .catch((err: unknown) => {
            throw new Error(`${what}: ${String(err)}\n${cluster.logs(20)}`);
          });
        if (out.aborted) conn.close();
        if (out.status === status.OK) expect(MUTATING, what).not.toContain(c.path);
        if ((who === 'unknown' || who === 'malformed' || who === 'none') && !out.aborted) {
          // Unknown methods are answered before authentication; a body grpc cannot even frame may end first.
          expect(
            [status.UNAUTHENTICATED, status.UNIMPLEMENTED, status.RESOURCE_EXHAUSTED, status.INTERNAL],
            `${what}: ${out.message}`,
          ).toContain(out.status);
        }
        if (c.expect && who === 'full' && !out.aborted)
          expect(c.expect, `${what}: ${out.message}`).toContain(out.status);
        const key = `${who}: ${out.aborted ? 'reset' : (status[out.status as number] ?? out.status)}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
    } finally {
      conn.close();
    }
    expect(node.running, cluster.logs()).toBe(true);
    expect(await digest()).toBe(before);
    const growth = rssBytes(pid) - rssBefore;
    expect(growth, `resident memory grew by ${growth} bytes`).toBeLessThan(MAX_RSS_GROWTH_BYTES);
    expect(seen.get('none: UNAUTHENTICATED') ?? 0).toBeGreaterThan(0);
    expect(seen.get('limited: PERMISSION_DENIED') ?? 0).toBeGreaterThan(0);
    console.log(
      `fuzz-client-auth seed ${seed}: ${ITERATIONS} requests, rss +${(growth / 1048576).toFixed(1)} MiB\n${[
        ...seen,
      ]
        .sort()
        .map(([k, n]) => `  ${n}\t${k}`)
        .join('\n')}`,
    );
  });
});
