/**
 * The HTTP API's bound on the request bodies one node holds at once
 * (limits.maxHttpBodyBytes), on a real HTTP server: a request that would
 * pass it is refused with 429 before its body is read, and what a request
 * held is free again once it is answered or its client goes away.
 */
import { type ClientRequest, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { TokenTable } from '../src/server/auth.js';
import type { HttpServerHandle } from '../src/server/http.js';
import { LocalCaller } from '../src/server/local-call.js';
import { MIB, startApiServer } from './http-api-support.js';

/** A batch whose body is sent in part and kept open: the server holds what it read. */
function openUpload(port: number, bytes: number): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const req = request({
      port,
      method: 'POST',
      path: '/v1/topics/t/messages:batch',
      headers: { 'transfer-encoding': 'chunked', 'content-type': 'application/json' },
    });
    req.on('error', () => undefined);
    req.write(Buffer.alloc(bytes, 1), (err) => (err ? reject(err) : resolve(req)));
  });
}

async function publish(
  port: number,
  bytes: number,
): Promise<{ status: number; body: Record<string, unknown>; retryAfter: string | null }> {
  const res = await fetch(`http://127.0.0.1:${port}/v1/topics/t/messages`, {
    method: 'POST',
    body: Buffer.alloc(bytes, 2),
  });
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    retryAfter: res.headers.get('retry-after'),
  };
}

describe('the bound on HTTP API bodies held at once', () => {
  let server: HttpServerHandle | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('refuses with 429 a body that would pass it, and frees what an answered or abandoned request held', async () => {
    // No services: a request that gets past the bound is answered UNIMPLEMENTED (501) by the call.
    const caller = new LocalCaller({ tokens: () => new TokenTable([]), topicOfTag: async () => undefined });
    server = await startApiServer({
      caller,
      // One batch's body may be 16/3 MiB (maxJsonBodyBytes), one message's 1 MiB.
      limits: { maxPayloadBytes: MIB, maxBatchPayloadBytes: MIB, maxHttpBodyBytes: 6 * MIB },
    });
    const port = server.port;
    const held = await openUpload(port, 5.3 * MIB);
    // The server has read the first upload's MiB once the second one is refused for it.
    let refused: Awaited<ReturnType<typeof publish>> | undefined;
    for (let i = 0; i < 100 && refused === undefined; i++) {
      const r = await publish(port, 0.9 * MIB);
      if (r.status === 429) refused = r;
      else await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(refused?.body).toMatchObject({
      code: 'RESOURCE_EXHAUSTED',
      field: 'body',
      limit: 'maxHttpBodyBytes',
    });
    expect(refused?.retryAfter).toBe('1');
    // A small one still fits beside it, and is answered (by the call, not the bound).
    expect((await publish(port, 0.3 * MIB)).status).toBe(501);
    held.destroy();
    let after = 429;
    for (let i = 0; i < 100 && after === 429; i++) {
      after = (await publish(port, 0.9 * MIB)).status;
      if (after === 429) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(after).toBe(501);
  });
});
