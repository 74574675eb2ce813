/**
 * Per-token limits on a real node (docs/operations.md, "Per-token limits"):
 * a token past its publish rate, its consume streams or its schedules is
 * refused RESOURCE_EXHAUSTED naming the limit, and another token is served
 * meanwhile. (What the others' latency is while one token sits at its limit
 * is measured by `npm run bench -- token-limits`, not here.)
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type pb, v1 } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, ConsumeSession, i64, startCluster, tokenClient } from '../src/index.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const HOG = 'hog-token-5a7c9e1b3d5f7a9c1e3b5d7f9a1c3e5b';
const OTHER = 'other-token-4f6a8c0e2b4d6f8a0c2e4b6d8f0a2c4e';

const TOKENS = `tokens:
  - name: hog
    sha256: ${sha256(HOG)}
    publish: ["*"]
    consume: ["*"]
    limits: { publishPerSecond: 50, streams: 2, schedules: 2 }
  - name: other
    sha256: ${sha256(OTHER)}
    publish: ["*"]
    consume: ["*"]
`;

type Unary<Req, Res> = (
  req: Req,
  cb: (err: grpc.ServiceError | null, res?: Res) => void,
) => grpc.ClientUnaryCall;

function call<Req, Res>(
  client: grpc.Client,
  method: Unary<Req, Res>,
  req: Req,
): Promise<{ res?: Res; err?: grpc.ServiceError }> {
  return new Promise((resolve) => {
    method.call(client, req, (err, res) => resolve(err ? { err } : { res: res as Res }));
  });
}

const limitOf = (err: grpc.ServiceError | undefined) => err?.metadata.get('fermata-limit')[0];

describe('per-token limits', () => {
  let dir: string;
  let cluster: Cluster;
  let address: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-token-limits-'));
    writeFileSync(join(dir, 'tokens.yaml'), TOKENS);
    cluster = await startCluster({
      nodes: 1,
      httpToken: OTHER,
      env: { FERMATA_AUTH__TOKENS_FILE: join(dir, 'tokens.yaml'), FERMATA_HTTP__AUTH: 'off' },
    });
    address = (await cluster.leader()).clientAddress;
  });
  afterAll(async () => {
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a token past its publish rate is refused naming the limit while another token is served', async () => {
    const hog = tokenClient('Broker', address, HOG);
    const other = tokenClient('Broker', address, OTHER);
    try {
      const one = (c: typeof hog, i: number) =>
        call<pb.PublishRequest.$Properties, pb.PublishResponse>(c, c.publish, {
          messages: [{ topic: 'rate', payload: Buffer.from(`m${i}`) }],
        });
      const [hogs, others] = await Promise.all([
        Promise.all(Array.from({ length: 200 }, (_, i) => one(hog, i))),
        Promise.all(Array.from({ length: 100 }, (_, i) => one(other, i))),
      ]);
      const refused = hogs.filter((r) => r.err);
      // A bucket of one second's worth: about 50 go, the rest of the burst is refused.
      expect(hogs.length - refused.length).toBeGreaterThanOrEqual(50);
      expect(hogs.length - refused.length).toBeLessThan(100);
      for (const r of refused) {
        expect(r.err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
        expect(limitOf(r.err)).toBe('publishPerSecondPerToken');
        expect(r.err?.details).toContain(
          'token "hog" publishes past its limit publishPerSecondPerToken = 50',
        );
      }
      expect(others.filter((r) => r.err)).toEqual([]);
    } finally {
      hog.close();
      other.close();
    }
  });

  it('a token past its consume streams is refused naming the limit; another token subscribes', async () => {
    const hog = tokenClient('Broker', address, HOG);
    const other = tokenClient('Broker', address, OTHER);
    const sessions: ConsumeSession[] = [];
    try {
      // Consuming never creates a topic; this cluster's publish does (topics.autoCreate).
      const created = await call<pb.PublishRequest.$Properties, pb.PublishResponse>(other, other.publish, {
        messages: [{ topic: 'streams', payload: Buffer.from('later'), delayMs: i64(3_600_000) }],
      });
      expect(created.err).toBeUndefined();
      const sub = { topic: 'streams', prefetch: 1, leaseMs: i64(10_000) };
      sessions.push(await ConsumeSession.open(hog, sub), await ConsumeSession.open(hog, sub));
      const third = await ConsumeSession.open(hog, sub).then(
        () => undefined,
        (e: unknown) => e as { code: number; details: string; meta: Record<string, string> },
      );
      expect(third?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(third?.meta['fermata-limit']).toBe('maxStreamsPerToken');
      for (let i = 0; i < 3; i++) sessions.push(await ConsumeSession.open(other, sub));
      // A closed stream gives its place back.
      sessions.shift()!.cancel();
      await new Promise((r) => setTimeout(r, 300));
      sessions.push(await ConsumeSession.open(hog, sub));
    } finally {
      for (const s of sessions) s.cancel();
      hog.close();
      other.close();
    }
  });

  it('a token past its schedules is refused naming the limit; another token creates one', async () => {
    const hog = tokenClient('Schedules', address, HOG);
    const other = tokenClient('Schedules', address, OTHER);
    try {
      const upsert = (c: typeof hog, name: string) =>
        call<pb.UpsertScheduleRequest.$Properties, pb.UpsertScheduleResponse>(c, c.upsertSchedule, {
          schedule: { topic: 'sched', name, spec: 'every 1h', catchUp: v1.CatchUp.CATCH_UP_NONE },
        });
      expect((await upsert(hog, 'a')).err).toBeUndefined();
      expect((await upsert(hog, 'b')).err).toBeUndefined();
      const third = await upsert(hog, 'c');
      expect(third.err?.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
      expect(limitOf(third.err)).toBe('maxSchedulesPerToken');
      expect(third.err?.details).toContain('token "hog" has created 2 schedules that exist');
      expect((await upsert(other, 'c')).err).toBeUndefined();
    } finally {
      hog.close();
      other.close();
    }
  });
});
