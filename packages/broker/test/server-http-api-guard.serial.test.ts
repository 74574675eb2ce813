/**
 * What the HTTP API refuses before a call runs, on a real HTTP server whose
 * calls run the Cluster service's definition in-process: a browser page of
 * another origin (cross-site request forgery), a JSON body without
 * `application/json`, an `Authorization` header gRPC cannot carry (401,
 * never echoed or logged), every request when the API is closed (mutual TLS
 * without tokens); "not the leader" answered as 503 with Retry-After; and a
 * refused body the client is still sending, read and dropped so that the
 * client reads the answer.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { ClusterService } from '@fermata/protocol';
import { NotLeaderError } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenTable } from '../src/server/auth.js';
import { loadConfig } from '../src/server/config.js';
import { toGrpcStatus } from '../src/server/grpc-status.js';
import type { HttpServerHandle } from '../src/server/http.js';
import { createHttpApi, type HttpApiOptions } from '../src/server/http-api.js';
import { httpStatusOf } from '../src/server/http-api-io.js';
import { LocalCaller } from '../src/server/local-call.js';
import { httpApiClosedReason } from '../src/server/security.js';
import { MIB, startApiServer } from './http-api-support.js';

const INFO = '/v1/rpc/Cluster/GetClusterInfo';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Record<string, unknown>;
  text: string;
}

/** A raw request, as a browser or curl sends it (fetch would set some headers itself). */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request({ port, host: '127.0.0.1', method, path, headers }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => {
        const text = Buffer.concat(parts).toString();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text), text });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('the HTTP API refuses before a call runs', () => {
  let server: HttpServerHandle | undefined;
  const logged: string[] = [];
  let calls = 0;
  /** What GetClusterInfo answers. */
  let answer: (cb: grpc.sendUnaryData<unknown>) => void;
  /** The last call GetClusterInfo ran. */
  let seen: grpc.ServerUnaryCall<unknown, unknown> | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
    logged.length = 0;
    calls = 0;
  });

  async function start(options: Partial<HttpApiOptions> = {}, deadlineMs?: number): Promise<number> {
    answer = (cb) => cb(null, { clusterId: 'c1' });
    const caller = new LocalCaller({
      tokens: () => new TokenTable([]),
      topicOfTag: async () => undefined,
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    });
    caller.register(ClusterService, {
      getClusterInfo: (call: grpc.ServerUnaryCall<unknown, unknown>, cb: grpc.sendUnaryData<unknown>) => {
        calls++;
        seen = call;
        answer(cb);
      },
    });
    server = await startApiServer(
      { caller, ...options },
      pino({ level: 'trace' }, { write: (line: string) => logged.push(line) }),
    );
    return server.port;
  }

  it('a page of another origin is refused; the node’s own pages, allowed origins and non-browsers are not', async () => {
    const port = await start();
    const own = `http://127.0.0.1:${port}`;
    const json = { 'content-type': 'application/json' };
    // A form a page elsewhere submits: a "simple" request, sent without asking first.
    const forged = await send(
      port,
      'POST',
      '/v1/topics/t/messages',
      { origin: 'https://evil.example', 'content-type': 'text/plain' },
      'x',
    );
    expect(forged.status).toBe(403);
    expect(forged.body).toMatchObject({ code: 'PERMISSION_DENIED', field: 'Origin' });
    expect(forged.body['message']).toContain('http.allowedOrigins');
    // Another port of the same host is another origin.
    const sibling = await send(port, 'POST', INFO, { origin: `http://127.0.0.1:${port + 1}` });
    expect(sibling.status).toBe(403);
    expect(calls).toBe(0);
    // Without Origin, the browser's Sec-Fetch-Site says where the request comes from.
    for (const site of ['cross-site', 'same-site']) {
      const r = await send(port, 'POST', INFO, { 'sec-fetch-site': site });
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ field: 'Sec-Fetch-Site' });
    }
    expect(calls).toBe(0);
    // The node's own page (the console), a typed URL, and curl.
    expect(
      (await send(port, 'POST', INFO, { ...json, origin: own, 'sec-fetch-site': 'same-origin' }, '{}'))
        .status,
    ).toBe(200);
    expect((await send(port, 'POST', INFO, { 'sec-fetch-site': 'none' })).status).toBe(200);
    expect((await send(port, 'POST', INFO)).body).toMatchObject({ clusterId: 'c1' });
    expect(calls).toBe(3);
    await server?.close();
    const allowing = await start({ allowedOrigins: ['https://console.example.com'] });
    const allowed = await send(allowing, 'POST', INFO, {
      origin: 'https://Console.example.com',
      'sec-fetch-site': 'cross-site',
    });
    expect(allowed.status).toBe(200);
    expect((await send(allowing, 'POST', INFO, { origin: 'https://evil.example' })).status).toBe(403);
    await server?.close();
    const any = await start({ allowedOrigins: ['*'] });
    expect((await send(any, 'POST', INFO, { origin: 'https://evil.example' })).status).toBe(200);
  });

  it('a JSON body needs Content-Type application/json (an empty body needs none); Idempotency-Key is no field', async () => {
    const port = await start();
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const r = await send(port, 'POST', INFO, { 'content-type': type }, '{}');
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ code: 'INVALID_ARGUMENT', field: 'Content-Type' });
      const batch = await send(port, 'POST', '/v1/topics/t/messages:batch', { 'content-type': type }, '{}');
      expect(batch.body).toMatchObject({ field: 'Content-Type' });
    }
    expect((await send(port, 'POST', INFO, {}, '{}')).body).toMatchObject({ field: 'Content-Type' });
    // The header of the REST publish is no field of a generic call: a retry would not be deduplicated.
    const keyed = await send(port, 'POST', INFO, { 'idempotency-key': 'k1' });
    expect(keyed.body).toMatchObject({
      field: 'Idempotency-Key',
      message: expect.stringContaining('idempotencyKey'),
    });
    expect(calls).toBe(0);
    const r = await send(port, 'POST', INFO, { 'content-type': 'Application/JSON; charset=utf-8' }, '{}');
    expect(r.status).toBe(200);
    expect((await send(port, 'POST', INFO)).status).toBe(200);
    expect(calls).toBe(2);
  });

  it('an Authorization header gRPC cannot carry is 401, its value neither answered nor logged', async () => {
    const port = await start();
    // Node sends the value as latin1 bytes, as a browser or a misconfigured client may.
    const r = await send(port, 'POST', INFO, { authorization: 'Bearer s\u00e9cret-token-1234' });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Bearer realm="fermata"');
    expect(r.body).toMatchObject({ code: 'UNAUTHENTICATED', field: 'Authorization' });
    expect(r.text).not.toContain('cret-token');
    expect(logged.join('\n')).not.toContain('cret-token');
    expect(calls).toBe(0);
  });

  it('a closed API answers every request 403 with the reason, and runs no call', async () => {
    const port = await start({ closedReason: 'the HTTP API is closed: because' });
    for (const [method, path] of [
      ['POST', INFO],
      ['POST', '/v1/topics/t/messages'],
      ['DELETE', '/v1/topics/t/messages/1'],
    ] as const) {
      const r = await send(port, method, path);
      expect(r.status).toBe(403);
      expect(r.body).toMatchObject({ code: 'PERMISSION_DENIED', message: 'the HTTP API is closed: because' });
    }
    expect(calls).toBe(0);
  });

  it('a call not answered within its deadline is cancelled and answered 504', async () => {
    const port = await start({}, 200);
    answer = () => {};
    const r = await send(port, 'POST', INFO);
    expect(r.status).toBe(504);
    expect(r.body).toMatchObject({ code: 'DEADLINE_EXCEEDED', message: expect.stringContaining('200 ms') });
    // The handler (and a call it forwards) saw the deadline and the cancellation.
    expect(Number(seen?.getDeadline())).toBeLessThan(Number.POSITIVE_INFINITY);
    expect(seen?.cancelled).toBe(true);
  });

  it('"not the leader" is 503 with Retry-After, whatever the gRPC code', async () => {
    const port = await start();
    answer = (cb) =>
      cb(toGrpcStatus(new NotLeaderError('n2', undefined, { client: 'n2:7400', peer: 'n2:7401' })));
    const r = await send(port, 'POST', INFO);
    expect(r.status).toBe(503);
    expect(r.headers['retry-after']).toBe('1');
    expect(r.body).toMatchObject({ code: 'FAILED_PRECONDITION' });
    expect(r.body['message']).toContain('n2:7400');
    const code = grpc.status.FAILED_PRECONDITION;
    expect(httpStatusOf({ code, limit: '', notLeader: true })).toBe(503);
    expect(httpStatusOf({ code, limit: '', notLeader: false })).toBe(409);
    expect(httpStatusOf({ code: grpc.status.CANCELLED, limit: '', notLeader: false })).toBe(499);
  });

  it('a client still sending a refused body reads the answer: the rest is read and dropped, not cut off', async () => {
    const port = await start();
    // 32 MiB declared past maxPayloadBytes (1 MiB): refused at once by its Content-Length, while
    // the client goes on sending, more than any socket buffer holds.
    const total = 32 * MIB;
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (c: Buffer) => received.push(c));
    const failed = new Promise<Error>((resolve) => socket.once('error', resolve));
    socket.write(
      `POST /v1/topics/t/messages HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\n` +
        `content-type: application/octet-stream\r\ncontent-length: ${total}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(256 * 1024, 1);
    const sent = (async () => {
      for (let n = 0; n < total; n += chunk.length) {
        if (socket.destroyed) return 'cut off';
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r));
      }
      return 'sent';
    })();
    const outcome = await Promise.race([sent, failed.then((e) => `cut off: ${e.message}`)]);
    expect(outcome).toBe('sent');
    while (!Buffer.concat(received).includes('\r\n\r\n')) await new Promise((r) => setTimeout(r, 10));
    const head = Buffer.concat(received).toString();
    expect(head).toMatch(/^HTTP\/1\.1 413 /);
    socket.destroy();
  });
});

describe('the bound on bodies held at once', () => {
  it('is refused at start below the largest body of one request, which it would refuse forever', () => {
    const caller = new LocalCaller({ tokens: () => new TokenTable([]), topicOfTag: async () => undefined });
    const limits = { maxPayloadBytes: MIB, maxBatchPayloadBytes: 3 * MIB };
    const options = { caller, toGrpc: (err: unknown) => toGrpcStatus(err) };
    expect(() => createHttpApi({ ...options, limits: { ...limits, maxHttpBodyBytes: 8 * MIB - 1 } })).toThrow(
      /limits\.maxHttpBodyBytes \(8388607\) must be at least maxJsonBodyBytes \(8388608/,
    );
    expect(() =>
      createHttpApi({ ...options, limits: { ...limits, maxHttpBodyBytes: 8 * MIB } }),
    ).not.toThrow();
  });
});

describe('the HTTP API with mutual TLS on the client port', () => {
  const mtls = { client: { tls: { requireClientCert: true } } };
  it('is closed without a token file unless http.apiWithoutAuth opens it', () => {
    expect(httpApiClosedReason(loadConfig({ overrides: mtls }))).toMatch(
      /client\.tls\.requireClientCert.*auth\.tokensFile.*http\.apiWithoutAuth/,
    );
    expect(
      httpApiClosedReason(loadConfig({ overrides: { ...mtls, http: { apiWithoutAuth: true } } })),
    ).toBeUndefined();
    expect(
      httpApiClosedReason(
        loadConfig({ overrides: { ...mtls, auth: { tokensFile: '/etc/fermata/tokens.yaml' } } }),
      ),
    ).toBeUndefined();
    expect(httpApiClosedReason(loadConfig({ overrides: {} }))).toBeUndefined();
  });
});
