/**
 * The JSON API on the HTTP port of three real `fermata serve` processes with
 * tokens, called as curl would (raw HTTP through node's fetch): a publish is
 * delivered at its due time; refusals (token, permission, size, a bad header,
 * malformed JSON) answer the HTTP status a user expects with
 * `{code, field, message}` and store nothing; a retried Idempotency-Key is
 * stored once; a follower's publish is committed; cancel and reschedule by
 * id and key; the generic call of any unary method goes through the same
 * permission table as gRPC.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FermataClient, type Logger, type Message } from '@fermata/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Cluster, NODE_CLOCK_LAG_MS, type NodeHandle, startCluster } from '../src/index.js';

const quiet: Logger = { debug: () => {}, warn: () => {}, error: () => {} };
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

const TOKENS = {
  producer: 'http-producer-token-5b7d9f1a3c5e7b9d1f3a5c7e9b1d3f5a',
  reader: 'http-reader-token-2c4e6a8b0d2f4a6c8e0b2d4f6a8c0e2b',
  ops: 'http-ops-token-8e6c4a2b0f8d6b4a2c0e8f6d4b2a0c8e',
  jobsAdmin: 'http-jobs-admin-token-4f2a8c6e0b4d8f2a6c0e4b8d2f6a0c4e',
};
const MAX_PAYLOAD_BYTES = 64 * 1024;

function tokenFile(): string {
  const entry = (
    name: string,
    token: string,
    p: { publish?: string[]; consume?: string[]; admin?: string[] },
  ) =>
    `  - name: ${name}\n    sha256: ${sha256(token)}\n    publish: ${JSON.stringify(p.publish ?? [])}\n    consume: ${JSON.stringify(p.consume ?? [])}\n    admin: ${JSON.stringify(p.admin ?? [])}\n`;
  return `tokens:\n${entry('http-producer', TOKENS.producer, { publish: ['jobs.*'] })}${entry('http-reader', TOKENS.reader, { consume: ['jobs.*'] })}${entry('ops', TOKENS.ops, { admin: ['*'], publish: ['*'], consume: ['*'] })}${entry('jobs-admin', TOKENS.jobsAdmin, { admin: ['jobs.*'], publish: ['jobs.*'] })}`;
}

/** `bytes` bytes as a stream of 4 KiB chunks. */
function chunks(bytes: number): ReadableStream<Uint8Array> {
  let left = bytes;
  return new ReadableStream({
    pull(controller) {
      const n = Math.min(4096, left);
      left -= n;
      if (n > 0) controller.enqueue(new Uint8Array(n).fill(7));
      else controller.close();
    },
  });
}

interface Answer {
  status: number;
  headers: Headers;
  json: Record<string, unknown>;
}

describe('the HTTP API on a three-node cluster with tokens', () => {
  let dir: string;
  let cluster: Cluster;
  let ops: FermataClient;
  let topicCounter = 0;

  async function http(
    node: NodeHandle,
    method: string,
    path: string,
    init: {
      token?: string;
      headers?: Record<string, string>;
      body?: string | Uint8Array | ReadableStream;
    } = {},
  ): Promise<Answer> {
    // A JSON route needs its media type (fetch would send a string as text/plain).
    const json = path.startsWith('/v1/rpc/') || path.endsWith(':batch');
    const headers: Record<string, string> = {
      ...(json && init.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...init.headers,
    };
    if (init.token !== undefined) headers['authorization'] = `Bearer ${init.token}`;
    const res = await fetch(`${node.httpUrl}${path}`, {
      method,
      headers,
      // A stream goes chunked, without a Content-Length.
      ...(init.body !== undefined ? { body: init.body, duplex: 'half' } : {}),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text === '' ? {} : JSON.parse(text) };
  }

  /** A fresh topic that exists (so "nothing stored" reads 0 pending, not "no topic"). */
  async function topic(label: string): Promise<string> {
    const name = `jobs.${label}-${process.pid}-${++topicCounter}`;
    await ops.createTopic(name);
    return name;
  }

  async function pending(name: string): Promise<number> {
    const stats = await ops.topicStats(name);
    return stats.groups.reduce((n, g) => n + g.pending + g.inFlight, 0);
  }

  async function follower(): Promise<NodeHandle> {
    const leader = await cluster.leader();
    return cluster.others(leader)[0]!;
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'fermata-http-api-'));
    writeFileSync(join(dir, 'tokens.yaml'), tokenFile());
    cluster = await startCluster({
      nodes: 3,
      httpToken: TOKENS.ops,
      autoCreateTopics: false,
      env: {
        FERMATA_AUTH__TOKENS_FILE: join(dir, 'tokens.yaml'),
        FERMATA_LIMITS__MAX_PAYLOAD_BYTES: String(MAX_PAYLOAD_BYTES),
      },
    });
    ops = new FermataClient({ endpoints: [...cluster.endpoints], token: TOKENS.ops, logger: quiet });
  });

  afterAll(async () => {
    await ops?.close();
    await cluster?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a publish with a body and headers is delivered at its due time, with its content type', async () => {
    const name = await topic('deliver');
    const leader = await cluster.leader();
    const before = Date.now();
    const res = await http(leader, 'POST', `/v1/topics/${name}/messages`, {
      token: TOKENS.producer,
      headers: {
        'content-type': 'application/json',
        'fermata-delay': '1500ms',
        'fermata-key': 'order-17',
        'fermata-header-trace': 'abc',
      },
      body: '{"order":17}',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    expect(res.json).toMatchObject({ deduplicated: false, id: expect.stringMatching(/^\d+$/) });
    const dueAtMs = res.json['dueAtMs'] as number;
    expect(dueAtMs).toBeGreaterThanOrEqual(before + 1500 - NODE_CLOCK_LAG_MS);
    expect(res.json['dueAt']).toBe(new Date(dueAtMs).toISOString());

    const got = await new Promise<Message>((resolve) => {
      ops.subscribe(name, (m) => resolve(m));
    });
    const deliveredAt = Date.now();
    expect(got.id.toString()).toBe(res.json['id']);
    expect(Buffer.from(got.payload).toString()).toBe('{"order":17}');
    expect(got.key).toBe('order-17');
    expect(got.headers).toMatchObject({ 'content-type': 'application/json', trace: 'abc' });
    expect(got.dueAtMs).toBe(dueAtMs);
    expect(deliveredAt).toBeGreaterThanOrEqual(dueAtMs - NODE_CLOCK_LAG_MS);
  });

  it('refusals answer the HTTP status a user expects, name the field, and store nothing', async () => {
    const name = await topic('refused');
    const leader = await cluster.leader();
    const path = `/v1/topics/${name}/messages`;
    const cases: Array<[string, Promise<Answer>, number, Record<string, unknown>]> = [
      ['no token', http(leader, 'POST', path, { body: 'x' }), 401, { code: 'UNAUTHENTICATED' }],
      [
        'a wrong token',
        http(leader, 'POST', path, { token: 'nope', body: 'x' }),
        401,
        { code: 'UNAUTHENTICATED' },
      ],
      [
        'a token without publish',
        http(leader, 'POST', path, { token: TOKENS.reader, body: 'x' }),
        403,
        { code: 'PERMISSION_DENIED', message: expect.stringContaining('"publish"') },
      ],
      [
        'a body over maxPayloadBytes',
        http(leader, 'POST', path, { token: TOKENS.producer, body: Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 1) }),
        413,
        { code: 'RESOURCE_EXHAUSTED', field: 'body', limit: 'maxPayloadBytes' },
      ],
      [
        'a chunked body over maxPayloadBytes',
        http(leader, 'POST', path, { token: TOKENS.producer, body: chunks(MAX_PAYLOAD_BYTES + 1) }),
        413,
        { code: 'RESOURCE_EXHAUSTED', field: 'body', limit: 'maxPayloadBytes' },
      ],
      [
        'a big body without a token',
        http(leader, 'POST', path, { body: chunks(MAX_PAYLOAD_BYTES / 2) }),
        401,
        { code: 'UNAUTHENTICATED' },
      ],
      [
        'a delay that is not a duration',
        http(leader, 'POST', path, {
          token: TOKENS.producer,
          headers: { 'fermata-delay': '5 parsecs' },
          body: 'x',
        }),
        400,
        {
          code: 'INVALID_ARGUMENT',
          field: 'Fermata-Delay',
          message: expect.stringMatching(/^Fermata-Delay: /),
        },
      ],
      [
        'a delay past maxDelayMs',
        http(leader, 'POST', path, {
          token: TOKENS.producer,
          headers: { 'fermata-delay': '1000w' },
          body: 'x',
        }),
        400,
        { code: 'INVALID_ARGUMENT', field: 'Fermata-Delay', limit: 'maxDelayMs' },
      ],
      [
        'a misspelt Fermata header',
        http(leader, 'POST', path, { token: TOKENS.producer, headers: { 'fermata-dealy': '5s' }, body: 'x' }),
        400,
        {
          code: 'INVALID_ARGUMENT',
          field: 'fermata-dealy',
          message: expect.stringContaining('Fermata-Delay'),
        },
      ],
      [
        'a batch of malformed JSON',
        http(leader, 'POST', `${path}:batch`, { token: TOKENS.producer, body: '{"messages": [' }),
        400,
        { code: 'INVALID_ARGUMENT', field: 'body', message: expect.stringContaining('not valid JSON') },
      ],
      [
        'a batch message with an unknown field',
        http(leader, 'POST', `${path}:batch`, {
          token: TOKENS.producer,
          body: JSON.stringify({ messages: [{ payload: 'a' }, { payload: 'b', dealy: '5s' }] }),
        }),
        400,
        { code: 'INVALID_ARGUMENT', field: 'messages[1].dealy', message: expect.stringContaining('delay') },
      ],
      [
        'a generic Publish of malformed JSON',
        http(leader, 'POST', '/v1/rpc/Broker/Publish', { token: TOKENS.producer, body: '{"messages":' }),
        400,
        { code: 'INVALID_ARGUMENT', field: 'body' },
      ],
    ];
    for (const [what, answer, status, body] of cases) {
      const res = await answer;
      expect(res.status, `${what}: ${JSON.stringify(res.json)}`).toBe(status);
      expect(res.json, what).toMatchObject(body);
      expect(typeof res.json['message'], what).toBe('string');
      if (status === 401) expect(res.headers.get('www-authenticate'), what).toContain('Bearer');
    }
    expect(await pending(name)).toBe(0);
    // The same request with a good token and header is stored: the count above could see it.
    const ok = await http(leader, 'POST', path, {
      token: TOKENS.producer,
      headers: { 'fermata-delay': '1h' },
      body: 'x',
    });
    expect(ok.status).toBe(200);
    expect(await pending(name)).toBe(1);
    // Operators see them by route and status.
    const metrics = (await leader.httpGet('/metrics')).body;
    for (const status of ['200', '400', '401', '403', '413'])
      expect(metrics).toMatch(
        new RegExp(`fermata_http_api_requests_total\\{route="publish",status="${status}"\\} [1-9]`),
      );
  });

  it('a request retried with the same Idempotency-Key is stored once', async () => {
    const name = await topic('retry');
    const leader = await cluster.leader();
    const send = () =>
      http(leader, 'POST', `/v1/topics/${name}/messages`, {
        token: TOKENS.producer,
        headers: { 'idempotency-key': `retry-${name}`, 'fermata-delay': '1h' },
        body: 'once',
      });
    const first = await send();
    const second = await send();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(first.json['deduplicated']).toBe(false);
    expect(second.json).toMatchObject({ id: first.json['id'], deduplicated: true });
    expect(await pending(name)).toBe(1);
  });

  it('a publish sent to a follower is forwarded and committed; so is a JSON batch', async () => {
    const name = await topic('follower');
    const node = await follower();
    const one = await http(node, 'POST', `/v1/topics/${name}/messages`, {
      token: TOKENS.producer,
      body: 'via follower',
    });
    expect(one.status, JSON.stringify(one.json)).toBe(200);
    const batch = await http(node, 'POST', `/v1/topics/${name}/messages:batch`, {
      token: TOKENS.producer,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [
          { payload: 'text', delay: '1h', key: 'a' },
          { json: { n: 2 }, deliverAt: new Date(Date.now() + 3_600_000).toISOString() },
          { payloadBase64: Buffer.from([0, 1, 2]).toString('base64'), delay: 3_600_000 },
        ],
      }),
    });
    expect(batch.status, JSON.stringify(batch.json)).toBe(200);
    const results = batch.json['results'] as Array<{ id: string }>;
    expect(results).toHaveLength(3);
    // Committed: the leader reads each one back.
    const stored = await ops.getMessage(name, { id: BigInt(results[1]!.id) });
    expect(Buffer.from(stored.message.payload).toString()).toBe('{"n":2}');
    expect(stored.message.headers['content-type']).toBe('application/json');
    expect(await pending(name)).toBe(4);
  });

  it('cancel and reschedule by id and by key answer a definite result', async () => {
    const name = await topic('settle');
    const node = await follower();
    const publish = (key: string) =>
      http(node, 'POST', `/v1/topics/${name}/messages`, {
        token: TOKENS.producer,
        headers: { 'fermata-delay': '1h', 'fermata-key': key },
        body: key,
      });
    const a = await publish('a');
    await publish('b/c');
    const at = new Date(Date.now() + 7_200_000);
    const moved = await http(
      node,
      'POST',
      `/v1/topics/${name}/keys/${encodeURIComponent('b/c')}/reschedule`,
      {
        token: TOKENS.producer,
        headers: { 'fermata-deliver-at': at.toISOString() },
      },
    );
    expect(moved.status, JSON.stringify(moved.json)).toBe(200);
    expect(moved.json).toMatchObject({ status: 'RESCHEDULED', dueAtMs: at.getTime() });
    const cancelled = await http(node, 'DELETE', `/v1/topics/${name}/messages/${a.json['id']}`, {
      token: TOKENS.producer,
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.json).toEqual({ status: 'CANCELLED', id: a.json['id'] });
    const again = await http(node, 'DELETE', `/v1/topics/${name}/keys/a`, { token: TOKENS.producer });
    expect(again.status).toBe(409);
    expect(again.json).toMatchObject({ code: 'FAILED_PRECONDITION', status: 'ALREADY_DONE', field: 'key' });
    const unknown = await http(node, 'DELETE', `/v1/topics/${name}/messages/999999999`, {
      token: TOKENS.producer,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.json).toMatchObject({ code: 'NOT_FOUND', status: 'NOT_FOUND', field: 'id' });
    const badId = await http(node, 'DELETE', `/v1/topics/${name}/messages/abc`, { token: TOKENS.producer });
    expect(badId.status).toBe(400);
    expect(badId.json).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'id' });
    const denied = await http(node, 'DELETE', `/v1/topics/${name}/keys/b%2Fc`, { token: TOKENS.reader });
    expect(denied.status).toBe(403);
    expect(await pending(name)).toBe(1);
  });

  it('the generic call runs any unary method with the same permissions as gRPC', async () => {
    const name = `jobs.rpc-${process.pid}`;
    const node = await follower();
    const create = (token: string) =>
      http(node, 'POST', '/v1/rpc/Admin/CreateTopic', {
        token,
        body: JSON.stringify({ name, settings: { max_attempts: 7 } }),
      });
    const refused = await create(TOKENS.producer);
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('"admin"'),
    });
    await expect(ops.topicStats(name)).rejects.toMatchObject({ code: 5 });
    const created = await create(TOKENS.ops);
    expect(created.status, JSON.stringify(created.json)).toBe(200);
    expect(created.json).toMatchObject({ topic: { name, settings: { maxAttempts: 7 } } });
    const exists = await create(TOKENS.ops);
    expect(exists.status).toBe(409);
    expect(exists.json).toMatchObject({ code: 'ALREADY_EXISTS' });

    await http(node, 'POST', `/v1/topics/${name}/messages`, {
      token: TOKENS.ops,
      headers: { 'fermata-delay': '1h' },
    });
    const stats = await http(node, 'POST', '/v1/rpc/fermata.v1.Admin/GetTopicStats', {
      token: TOKENS.ops,
      body: JSON.stringify({ topic: name }),
    });
    expect(stats.status, JSON.stringify(stats.json)).toBe(200);
    expect(stats.json).toMatchObject({ groups: [{ group: 'default', pending: '1' }] });
    const statsDenied = await http(node, 'POST', '/v1/rpc/Admin/GetTopicStats', {
      token: TOKENS.reader,
      body: JSON.stringify({ topic: name }),
    });
    expect(statsDenied.status).toBe(403);

    const info = await http(node, 'POST', '/v1/rpc/Cluster/GetClusterInfo', { token: TOKENS.reader });
    expect(info.status).toBe(200);
    expect(info.json['members']).toHaveLength(3);

    const streaming = await http(node, 'POST', '/v1/rpc/Broker/Consume', { token: TOKENS.ops, body: '{}' });
    expect(streaming.status).toBe(501);
    expect(streaming.json).toMatchObject({ code: 'UNIMPLEMENTED', field: 'method' });
    const typo = await http(node, 'POST', '/v1/rpc/Admin/GetTopicStat', { token: TOKENS.ops, body: '{}' });
    expect(typo.status).toBe(404);
    expect(typo.json['message']).toContain('GetTopicStats');
    const badField = await http(node, 'POST', '/v1/rpc/Admin/GetTopicStats', {
      token: TOKENS.ops,
      body: JSON.stringify({ topics: name }),
    });
    expect(badField.status).toBe(400);
    expect(badField.json).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'topics' });
  });

  it('a topic named inside the body of a generic call is checked as over gRPC', async () => {
    const node = await follower();
    const publish = await http(node, 'POST', '/v1/rpc/Broker/Publish', {
      token: TOKENS.producer,
      body: JSON.stringify({ messages: [{ topic: 'billing.invoices', payload: 'AAE=' }] }),
    });
    expect(publish.status).toBe(403);
    expect(publish.json).toMatchObject({
      code: 'PERMISSION_DENIED',
      message: expect.stringContaining('billing.invoices'),
    });
    // Setting a dead-letter topic writes to it: admin on the topic is not enough.
    const name = `jobs.dlt-${process.pid}`;
    const create = (deadLetterTopic: string) =>
      http(node, 'POST', '/v1/rpc/Admin/CreateTopic', {
        token: TOKENS.jobsAdmin,
        body: JSON.stringify({ name, settings: { deadLetterTopic } }),
      });
    const elsewhere = await create('audit.dead');
    expect(elsewhere.status).toBe(403);
    expect(elsewhere.json['message']).toMatch(/"publish" on topic "audit\.dead"/);
    await expect(ops.topicStats(name)).rejects.toMatchObject({ code: 5 });
    expect((await create(`${name}.dlq`)).status).toBe(200);
    // Redrive is an operator's act: publish on the topic does not grant it.
    const redrive = await http(node, 'POST', '/v1/rpc/Broker/Redrive', {
      token: TOKENS.producer,
      body: JSON.stringify({ topic: name, all: true }),
    });
    expect(redrive.status).toBe(403);
    expect(redrive.json['message']).toContain('"admin"');
  });

  it('a one-message publish stores its body byte for byte, UTF-8 or not', async () => {
    const name = await topic('bytes');
    const body = new Uint8Array([0xff, 0x00, 0xc3, 0x28, 0x0a, 0x80, 0xfe, 0x0d]);
    const res = await http(await follower(), 'POST', `/v1/topics/${name}/messages`, {
      token: TOKENS.producer,
      headers: { 'content-type': 'application/octet-stream' },
      body,
    });
    expect(res.status, JSON.stringify(res.json)).toBe(200);
    const got = await new Promise<Message>((resolve) => {
      ops.subscribe(name, (m) => resolve(m));
    });
    expect([...got.payload]).toEqual([...body]);
  });

  it('the ops paths keep their behaviour beside the API', async () => {
    const node = cluster.nodes[0]!;
    expect((await fetch(`${node.httpUrl}/livez`)).status).toBe(200);
    expect((await fetch(`${node.httpUrl}/metrics`)).status).toBe(401);
    expect((await fetch(`${node.httpUrl}/metrics`, { method: 'POST' })).status).toBe(405);
    const wrongMethod = await http(node, 'GET', '/v1/topics/x/messages', { token: TOKENS.ops });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('allow')).toBe('POST');
  });

  // Last: it stops two of the three nodes.
  it('with no majority up, a publish is 503 with Retry-After', async () => {
    const name = await topic('no-majority');
    const survivor = await follower();
    await Promise.all(cluster.others(survivor).map((n) => n.kill()));
    const res = await http(survivor, 'POST', `/v1/topics/${name}/messages`, {
      token: TOKENS.producer,
      body: 'x',
    });
    expect(res.status, JSON.stringify(res.json)).toBe(503);
    expect(res.json).toMatchObject({ code: 'UNAVAILABLE' });
    expect(res.headers.get('retry-after')).toBe('1');
  });
});
