/**
 * Dead-letter topics are authorized like publishes, on a real node with
 * tokens: setting a topic's dead_letter_topic needs the publish permission
 * on the target (CreateTopic and UpdateTopic), and when the token that set
 * it loses that permission, dead letters go to the topic's own `<topic>.dlq`
 * instead of the target, where a redrive finds them.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeClient, type pb, v1 } from '@fermata/protocol';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, ConsumeSession, i64, sleep, startCluster, tokenClient } from '../src/index.js';
import { eventually } from './support.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const TOKENS = {
  tenant: 'tenant-a-token-3c5e7a9b1d3f5a7c9e1b3d5f7a9c1e3b',
  bridge: 'bridge-token-8f6d4b2a0c8e6f4d2b0a8c6e4f2d0b8a',
  ops: 'ops-token-2b4d6f8a0c2e4b6d8f0a2c4e6b8d0f2a',
};

interface Entry {
  name: string;
  token: string;
  publish?: string[];
  consume?: string[];
  admin?: string[];
}

function tokenFile(entries: Entry[]): string {
  return `tokens:\n${entries
    .map(
      (e) =>
        `  - name: ${e.name}\n    sha256: ${sha256(e.token)}\n    publish: ${JSON.stringify(e.publish ?? [])}\n    consume: ${JSON.stringify(e.consume ?? [])}\n    admin: ${JSON.stringify(e.admin ?? [])}\n`,
    )
    .join('')}`;
}

const BASE: Entry[] = [
  { name: 'tenant-a', token: TOKENS.tenant, admin: ['A.*'], publish: ['A.*'], consume: ['A.*'] },
  { name: 'bridge', token: TOKENS.bridge, admin: ['B.*'], publish: ['B.*', 'shared'], consume: ['B.*'] },
  { name: 'ops', token: TOKENS.ops, admin: ['*'], publish: ['*'], consume: ['*'] },
];

type Call<Req, Res> = (
  req: Req,
  md: grpc.Metadata,
  opts: grpc.CallOptions,
  cb: (err: grpc.ServiceError | null, res?: Res) => void,
) => unknown;

/** One unary call with a token; resolves with the answer or the error. */
function call<Req, Res>(
  client: grpc.Client,
  method: Call<Req, Res>,
  req: Req,
  token: string,
): Promise<{ res?: Res; err?: grpc.ServiceError }> {
  const md = new grpc.Metadata();
  md.set('authorization', `Bearer ${token}`);
  return new Promise((resolve) => {
    method.call(client, req, md, { deadline: Date.now() + 20_000 }, (err, res) =>
      resolve(err ? { err } : { res: res as Res }),
    );
  });
}

describe('dead-letter topics need the publish permission on the target', () => {
  let dir: string;
  let tokensPath: string;
  let cluster: Cluster;
  let admin: ReturnType<typeof makeClient<'Admin'>>;
  let broker: ReturnType<typeof makeClient<'Broker'>>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-dlq-auth-'));
    tokensPath = join(dir, 'tokens.yaml');
    writeFileSync(tokensPath, tokenFile(BASE));
    cluster = await startCluster({
      nodes: 1,
      httpToken: TOKENS.ops,
      env: { FERMATA_AUTH__TOKENS_FILE: tokensPath, FERMATA_CREDENTIALS_RELOAD_INTERVAL_MS: '200' },
    });
    const address = (await cluster.leader()).clientAddress;
    admin = makeClient('Admin', address);
    broker = makeClient('Broker', address);
  });
  afterAll(async () => {
    admin?.close();
    broker?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const stats = async (topic: string) => {
    const r = await call<pb.GetTopicStatsRequest.$Properties, pb.GetTopicStatsResponse>(
      admin,
      admin.getTopicStats,
      { topic },
      TOKENS.ops,
    );
    return r.err ? undefined : Number(r.res!.groups.find((g) => g.group === 'default')?.pending ?? 0);
  };

  it('an admin of A.* cannot point a topic of A.* at a topic it may not publish to; nothing is created', async () => {
    const create = await call(
      admin,
      admin.createTopic,
      { name: 'A.x', settings: { deadLetterTopic: 'victim' } },
      TOKENS.tenant,
    );
    expect(create.err?.code).toBe(grpc.status.PERMISSION_DENIED);
    expect(create.err?.details).toBe('token "tenant-a" lacks permission "publish" on topic "victim"');
    expect(await stats('A.x')).toBeUndefined();
    expect(await stats('victim')).toBeUndefined();

    expect((await call(admin, admin.createTopic, { name: 'A.y' }, TOKENS.tenant)).err).toBeUndefined();
    const update = await call(
      admin,
      admin.updateTopic,
      { name: 'A.y', settings: { deadLetterTopic: 'victim' }, updateMask: ['dead_letter_topic'] },
      TOKENS.tenant,
    );
    expect(update.err?.code).toBe(grpc.status.PERMISSION_DENIED);
    // Within its own topics it may, and the setting names who set it.
    const own = await call<pb.UpdateTopicRequest.$Properties, pb.UpdateTopicResponse>(
      admin,
      admin.updateTopic,
      { name: 'A.y', settings: { deadLetterTopic: 'A.y-dead', deadLetterAuthorizedBy: 'ops' } },
      TOKENS.tenant,
    );
    expect(own.err).toBeUndefined();
    expect(own.res?.topic?.settings).toMatchObject({
      deadLetterTopic: 'A.y-dead',
      deadLetterAuthorizedBy: 'tenant-a',
    });
  });

  it('when the token that set the target loses publish there, dead letters go to <topic>.dlq', async () => {
    const created = await call(
      admin,
      admin.createTopic,
      { name: 'B.x', settings: { deadLetterTopic: 'shared', maxAttempts: 1 } },
      TOKENS.bridge,
    );
    expect(created.err).toBeUndefined();
    // The bridge token keeps admin and publish on B.*, loses publish on `shared`.
    writeFileSync(
      tokensPath,
      tokenFile(BASE.map((e) => (e.name === 'bridge' ? { ...e, publish: ['B.*'] } : e))),
    );
    await sleep(1_500); // several reload intervals
    const published = await call(
      broker,
      broker.publish,
      { messages: [{ topic: 'B.x', payload: Buffer.from('poison') }] },
      TOKENS.bridge,
    );
    expect(published.err).toBeUndefined();
    // A consumer that never acks: the lease lapses, and the next lease dead-letters it.
    const bridge = tokenClient('Broker', (await cluster.leader()).clientAddress, TOKENS.bridge);
    /** A consumer that takes one delivery and never acks it, until it is dead-lettered into B.x.dlq. */
    const deadLetterOne = async () => {
      const session = await ConsumeSession.open(bridge, {
        topic: 'B.x',
        group: 'default',
        prefetch: 1,
        leaseMs: i64(300),
      });
      try {
        await session.waitForCount(1);
        await eventually(async () => (await stats('B.x.dlq')) === 1, 30_000, 'the dead letter in B.x.dlq');
      } finally {
        session.cancel();
      }
    };
    const redrive = async (req: pb.RedriveRequest.$Properties) => {
      const r = await call<pb.RedriveRequest.$Properties, pb.RedriveResponse>(
        broker,
        broker.redrive,
        req,
        TOKENS.bridge,
      );
      expect(r.err).toBeUndefined();
      return r.res!;
    };
    try {
      await deadLetterOne();
      expect(await stats('shared')).toBeUndefined();

      // A redrive of B.x looks where its dead letters went: by id, and with `all`.
      const listed = await call<pb.ListMessagesRequest.$Properties, pb.ListMessagesResponse>(
        broker,
        broker.listMessages,
        { topic: 'B.x.dlq' },
        TOKENS.ops,
      );
      const ids = (listed.res?.messages ?? []).map((m) => m.message!.id!);
      expect(ids).toHaveLength(1);
      const byId = await redrive({ topic: 'B.x', ids });
      expect(byId.results.map((r) => r.status)).toEqual([v1.RedriveStatus.REDRIVE_STATUS_REDRIVEN]);
      expect(await stats('B.x.dlq')).toBe(0);
      expect(await stats('B.x')).toBe(1);

      await deadLetterOne();
      const all = await redrive({ topic: 'B.x', all: true });
      expect(all.results.map((r) => r.status)).toEqual([v1.RedriveStatus.REDRIVE_STATUS_REDRIVEN]);
      expect(all.nextPageToken).toHaveLength(0);
      expect(await stats('B.x.dlq')).toBe(0);
      expect(await stats('B.x')).toBe(1);
    } finally {
      bridge.close();
    }
  });
});
