/**
 * A token that holds only `read` on a real `fermata serve` with a token file:
 * over gRPC and over the JSON API it makes every call that only reads (and
 * sees what is there) and is refused every other call of every service,
 * streams too, with PERMISSION_DENIED / 403; nothing changes. The list of
 * calls is checked against the services' descriptors, so a new method must
 * be placed on one side.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonToMessageBytes, messageBytesToJson, serviceMethods } from '@fermata/protocol/json';
import * as grpc from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, type NodeHandle, startCluster } from '../src/index.js';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const TOKENS = {
  ops: 'read-test-ops-token-3a5c7e9b1d3f5a7c9e1b3d5f7a9c1e3b',
  viewer: 'read-test-viewer-token-6e8a0c2e4b6d8f0a2c4e6b8d0f2a4c6e',
};
const TOPIC = 'shop.orders';
/** A topic the viewer's pattern does not match. */
const OTHER = 'billing';
const SERVICES = ['Broker', 'Admin', 'Schedules', 'Cluster', 'Backup'] as const;

const schedule = { topic: TOPIC, name: 'nightly', spec: '0 2 * * *' };
const ref = { topic: TOPIC, name: 'nightly' };
const aTag = Buffer.alloc(24, 1).toString('base64');

/** Every unary call that only reads, with a request naming the topic. */
const READS: Record<string, object> = {
  'Admin/ListTopics': {},
  'Admin/GetTopicStats': { topic: TOPIC },
  'Broker/GetMessage': { topic: TOPIC, key: 'k1' },
  'Broker/ListMessages': { topic: TOPIC },
  'Broker/GetDueForecast': { topic: TOPIC, fromMs: '0', toMs: String(60 * 86_400_000), bucketMs: '86400000' },
  'Schedules/GetSchedule': ref,
  'Schedules/ListSchedules': { topic: TOPIC },
  'Cluster/GetClusterInfo': {},
};

/** Every other unary call, with a request the handler would take. */
const WRITES: Record<string, object> = {
  'Broker/Publish': { messages: [{ topic: TOPIC, payload: Buffer.from('x').toString('base64') }] },
  'Broker/Ack': { tags: [aTag] },
  'Broker/Nack': { tag: aTag },
  'Broker/Extend': { tag: aTag, leaseMs: '1000' },
  'Broker/Cancel': { topic: TOPIC, key: 'k1' },
  'Broker/Reschedule': { topic: TOPIC, key: 'k1', delayMs: '1000' },
  'Broker/Redrive': { topic: TOPIC, all: true },
  'Admin/CreateTopic': { name: `${TOPIC}.new` },
  'Admin/UpdateTopic': { name: TOPIC, settings: { maxAttempts: 3 }, updateMask: ['max_attempts'] },
  'Admin/DeleteTopic': { name: TOPIC },
  'Admin/CreateGroup': { topic: TOPIC, group: 'audit' },
  'Admin/UpdateGroup': {
    topic: TOPIC,
    group: 'billing',
    settings: { maxInFlight: 1 },
    updateMask: ['max_in_flight'],
  },
  'Admin/DeleteGroup': { topic: TOPIC, group: 'billing' },
  // It makes the leader send a request to the group's endpoint: admin's, as creating the group.
  'Admin/TestPush': { topic: TOPIC, group: 'billing' },
  'Schedules/UpsertSchedule': { schedule: { ...schedule, spec: 'every 1h' } },
  'Schedules/UpsertSchedules': { schedules: [{ ...schedule, spec: 'every 1h' }] },
  'Schedules/PauseSchedule': ref,
  'Schedules/ResumeSchedule': ref,
  'Schedules/TriggerSchedule': ref,
  'Schedules/DeleteSchedule': ref,
  'Cluster/AddMember': { id: 'n9', peerAddress: '127.0.0.1:1', address: '127.0.0.1:2' },
  'Cluster/RemoveMember': { id: 'n1' },
  'Cluster/TransferLeadership': {},
};

/** The streaming calls (gRPC only), with the first message a client sends. */
const STREAMS: Record<string, object> = {
  'Broker/PublishStream': { messages: [{ topic: TOPIC, payload: Buffer.from('x').toString('base64') }] },
  'Broker/Consume': { subscribe: { topic: TOPIC, group: 'billing', prefetch: 1 } },
  'Backup/TakeBackup': {},
};

function methodOf(name: string) {
  const [service, method] = name.split('/') as [string, string];
  const m = serviceMethods(service)?.get(method);
  if (!m) throw new Error(`no method ${name}`);
  return m;
}

const bytes = (b: Buffer | Uint8Array) => Buffer.from(b);

describe('a token that may only read', () => {
  let dir: string;
  let cluster: Cluster;
  let node: NodeHandle;
  let client: grpc.Client;

  async function http(token: string, method: string, path: string, body?: object) {
    const res = await fetch(`${node.httpUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    return { status: res.status, json: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown> };
  }

  const rpc = (token: string, name: string, request: object) =>
    http(token, 'POST', `/v1/rpc/${name}`, request);

  function metadata(token: string): grpc.Metadata {
    const md = new grpc.Metadata();
    md.set('authorization', `Bearer ${token}`);
    return md;
  }

  /** One unary gRPC call; its answer as JSON, or the error. */
  function unary(token: string, name: string, request: object) {
    const m = methodOf(name);
    return new Promise<{ code: number; details: string; json?: Record<string, unknown> }>((resolve) => {
      client.makeUnaryRequest(
        m.path,
        bytes,
        bytes,
        bytes(jsonToMessageBytes(m.requestType, request)),
        metadata(token),
        (err, answer) =>
          resolve(
            err
              ? { code: err.code, details: err.details }
              : {
                  code: grpc.status.OK,
                  details: '',
                  json: messageBytesToJson(m.responseType, answer as Buffer),
                },
          ),
      );
    });
  }

  /** A streaming gRPC call sent its first message: how it ended. */
  function stream(token: string, name: string, request: object) {
    const m = methodOf(name);
    const first = bytes(jsonToMessageBytes(m.requestType, request));
    return new Promise<{ code: number; details: string }>((resolve) => {
      const call = m.requestStream
        ? client.makeBidiStreamRequest(m.path, bytes, bytes, metadata(token))
        : client.makeServerStreamRequest(m.path, bytes, bytes, first, metadata(token));
      call.on('data', () => {});
      call.on('error', (err: grpc.ServiceError) => resolve({ code: err.code, details: err.details }));
      call.on('end', () => resolve({ code: grpc.status.OK, details: 'ended without an error' }));
      if (m.requestStream) (call as grpc.ClientDuplexStream<Buffer, Buffer>).write(first);
    });
  }

  /** What a write could change, as the ops token reads it. */
  async function state() {
    const topics = await rpc(TOKENS.ops, 'Admin/ListTopics', {});
    const stats = await rpc(TOKENS.ops, 'Admin/GetTopicStats', { topic: TOPIC });
    const message = await rpc(TOKENS.ops, 'Broker/GetMessage', { topic: TOPIC, key: 'k1' });
    const schedules = await rpc(TOKENS.ops, 'Schedules/ListSchedules', { topic: TOPIC });
    const info = await rpc(TOKENS.ops, 'Cluster/GetClusterInfo', {});
    return {
      topics: topics.json['topics'],
      groups: stats.json['groups'],
      message: message.json['groups'],
      schedules: schedules.json['schedules'],
      members: (info.json['members'] as { id: string; role: string }[]).map((m) => [m.id, m.role]),
      leader: info.json['leaderId'],
    };
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-read-token-'));
    writeFileSync(
      join(dir, 'tokens.yaml'),
      `tokens:
  - name: ops
    sha256: ${sha256(TOKENS.ops)}
    admin: ["*"]
    publish: ["*"]
    consume: ["*"]
  - name: viewer
    sha256: ${sha256(TOKENS.viewer)}
    read: ["shop.*"]
`,
    );
    cluster = await startCluster({
      nodes: 1,
      httpToken: TOKENS.ops,
      autoCreateTopics: false,
      env: { FERMATA_AUTH__TOKENS_FILE: join(dir, 'tokens.yaml') },
    });
    node = await cluster.leader();
    client = new grpc.Client(node.clientAddress, grpc.credentials.createInsecure());
    for (const [name, request] of [
      ['Admin/CreateTopic', { name: TOPIC }],
      ['Admin/CreateTopic', { name: OTHER }],
      ['Admin/CreateGroup', { topic: TOPIC, group: 'billing' }],
      ['Schedules/UpsertSchedule', { schedule }],
    ] as const) {
      expect((await rpc(TOKENS.ops, name, request)).status, name).toBe(200);
    }
    const published = await http(TOKENS.ops, 'POST', `/v1/topics/${TOPIC}/messages:batch`, {
      messages: [{ payload: 'one', key: 'k1', delay: '1d' }],
    });
    expect(published.status).toBe(200);
  });

  afterAll(async () => {
    client?.close();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the calls tested are every call of every client service', () => {
    const all = SERVICES.flatMap((s) => [...(serviceMethods(s)?.keys() ?? [])].map((m) => `${s}/${m}`));
    expect([...Object.keys(READS), ...Object.keys(WRITES), ...Object.keys(STREAMS)].sort()).toEqual(
      all.sort(),
    );
  });

  it('reads everything on its topics, over gRPC and over HTTP, and lists only those topics', async () => {
    for (const [name, request] of Object.entries(READS)) {
      const overGrpc = await unary(TOKENS.viewer, name, request);
      expect([overGrpc.code, overGrpc.details], name).toEqual([grpc.status.OK, '']);
      const overHttp = await rpc(TOKENS.viewer, name, request);
      expect(overHttp.status, `${name}: ${JSON.stringify(overHttp.json)}`).toBe(200);
    }
    const topics = await rpc(TOKENS.viewer, 'Admin/ListTopics', {});
    expect((topics.json['topics'] as { name: string }[]).map((t) => t.name)).toEqual([TOPIC]);
    const message = await unary(TOKENS.viewer, 'Broker/GetMessage', { topic: TOPIC, key: 'k1' });
    expect(message.json?.['message']).toMatchObject({ key: 'k1' });
    const forecast = await rpc(TOKENS.viewer, 'Broker/GetDueForecast', READS['Broker/GetDueForecast']!);
    expect(forecast.json['pending']).toBe('1');
    const schedules = await rpc(TOKENS.viewer, 'Schedules/ListSchedules', { topic: TOPIC });
    expect((schedules.json['schedules'] as { definition: { name: string } }[]).length).toBe(1);
    // Not on topics its patterns do not match.
    const other = await rpc(TOKENS.viewer, 'Admin/GetTopicStats', { topic: OTHER });
    expect([other.status, other.json['message']]).toEqual([
      403,
      `token "viewer" lacks permission "admin" on topic "${OTHER}" (or "read", enough for a read)`,
    ]);
  });

  it('is refused every other call, over gRPC and over HTTP, and nothing changes', async () => {
    const before = await state();
    for (const [name, request] of Object.entries(WRITES)) {
      const overGrpc = await unary(TOKENS.viewer, name, request);
      expect([overGrpc.code, overGrpc.details], name).toEqual([
        grpc.status.PERMISSION_DENIED,
        expect.stringMatching(/^token "viewer" lacks permission "(publish|consume|admin)"/),
      ]);
      const overHttp = await rpc(TOKENS.viewer, name, request);
      expect([overHttp.status, overHttp.json['code']], name).toEqual([403, 'PERMISSION_DENIED']);
    }
    for (const [name, first] of Object.entries(STREAMS)) {
      const ended = await stream(TOKENS.viewer, name, first);
      expect([ended.code, ended.details], name).toEqual([
        grpc.status.PERMISSION_DENIED,
        expect.stringMatching(/^token "viewer" lacks permission "(publish|consume|admin)"/),
      ]);
    }
    const base = `/v1/topics/${TOPIC}`;
    const rest = [
      await http(TOKENS.viewer, 'POST', `${base}/messages`),
      await http(TOKENS.viewer, 'POST', `${base}/messages:batch`, { messages: [{ payload: 'x' }] }),
      await http(TOKENS.viewer, 'DELETE', `${base}/keys/k1`),
      await http(TOKENS.viewer, 'POST', `${base}/keys/k1/reschedule`),
    ];
    expect(rest.map((r) => [r.status, r.json['code']])).toEqual(rest.map(() => [403, 'PERMISSION_DENIED']));
    expect(await state()).toEqual(before);
  });

  it("sees a push group's header names but not their values, which may carry credentials; admin sees them", async () => {
    const created = await rpc(TOKENS.ops, 'Admin/CreateGroup', {
      topic: TOPIC,
      group: 'hook',
      settings: {
        push: { endpoint: 'http://127.0.0.1:9/hook', headers: { authorization: 'Bearer s3cret' } },
      },
    });
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    type Groups = { group: string; settings: { push?: { headers: Record<string, string> } } }[];
    const headersSeen = async (token: string) => {
      const stats = await rpc(token, 'Admin/GetTopicStats', { topic: TOPIC });
      const topics = await rpc(token, 'Admin/ListTopics', {});
      const listed = (
        topics.json['topics'] as { name: string; groupSettings: Record<string, Groups[0]['settings']> }[]
      ).find((t) => t.name === TOPIC)!.groupSettings['hook'];
      return [
        (stats.json['groups'] as Groups).find((g) => g.group === 'hook')?.settings.push?.headers,
        listed?.push?.headers,
      ];
    };
    expect(await headersSeen(TOKENS.viewer)).toEqual([
      { authorization: '(redacted)' },
      { authorization: '(redacted)' },
    ]);
    expect(await headersSeen(TOKENS.ops)).toEqual([
      { authorization: 'Bearer s3cret' },
      { authorization: 'Bearer s3cret' },
    ]);
  });
});
