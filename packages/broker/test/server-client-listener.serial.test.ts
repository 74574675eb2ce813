import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReloadingServerCredentials, StaticTlsSource } from '@fermata/raft';
import * as grpc from '@grpc/grpc-js';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TestCa } from '../../raft/test/support/certs.js';
import { ClientListener, type ClientListenerOptions } from '../src/server/client-listener.js';

const echo: grpc.ServiceDefinition = {
  echo: {
    path: '/test.Echo/Echo',
    requestStream: false,
    responseStream: false,
    requestSerialize: (b: Buffer) => b,
    requestDeserialize: (b: Buffer) => b,
    responseSerialize: (b: Buffer) => b,
    responseDeserialize: (b: Buffer) => b,
  },
};
const EchoClient = grpc.makeGenericClientConstructor(echo, 'Echo');

let dir: string;
let ca: TestCa;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'fermata-listener-'));
  ca = new TestCa(join(dir, 'ca'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

async function start(
  credentials: grpc.ServerCredentials,
  maxConnections: number,
  limits: Partial<ClientListenerOptions> = {},
) {
  let listener: ClientListener | undefined;
  // As the server's auth interceptor does: a call with a token (here: any call) authenticates its connection.
  const server = new grpc.Server({
    interceptors: [
      (_method, call) => {
        listener?.markAuthenticated(call.getPeer());
        return new grpc.ServerInterceptingCall(call);
      },
    ],
  });
  server.addService(echo, {
    echo: (call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) =>
      cb(null, call.request),
  });
  const warnings: string[] = [];
  listener = await ClientListener.listen(server, '127.0.0.1:0', credentials, {
    maxConnections,
    log: { warn: (_f, m) => warnings.push(m) },
    ...limits,
  });
  const bound = listener;
  cleanup.push(async () => {
    const closed = bound.close();
    server.forceShutdown();
    bound.destroyAll();
    await closed;
  });
  return { server, listener: bound, warnings, address: `127.0.0.1:${bound.port}` };
}

function call(address: string, creds = grpc.credentials.createInsecure(), options: grpc.ClientOptions = {}) {
  const client = new EchoClient(address, creds, options);
  cleanup.push(() => client.close());
  return new Promise<Buffer>((resolve, reject) =>
    (client as unknown as Record<string, (...a: unknown[]) => void>)['echo']!(
      Buffer.from('ping'),
      { deadline: Date.now() + 5_000 },
      (err: Error | null, res: Buffer) => (err ? reject(err) : resolve(res)),
    ),
  );
}

function openSocket(
  port: number,
  localAddress = '127.0.0.1',
): Promise<{ socket: Socket; closed: Promise<void> }> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress }, () =>
      resolve({ socket, closed: new Promise((r) => socket.once('close', () => r())) }),
    );
    socket.on('error', () => undefined);
    cleanup.push(() => socket.destroy());
  });
}

describe('client listener', () => {
  it('serves calls in plaintext and over TLS as a bound port would', async () => {
    const plain = await start(grpc.ServerCredentials.createInsecure(), 10);
    expect((await call(plain.address)).toString()).toBe('ping');
    const leaf = ca.issue('srv', { dns: ['localhost'], ip: ['127.0.0.1'] });
    const tls = await start(
      new ReloadingServerCredentials(
        new StaticTlsSource({ cert: readFileSync(leaf.cert), key: readFileSync(leaf.key) }),
        false,
      ),
      10,
    );
    const creds = grpc.credentials.createSsl(readFileSync(ca.cert));
    expect(
      (await call(tls.address, creds, { 'grpc.ssl_target_name_override': 'localhost' })).toString(),
    ).toBe('ping');
  });

  it('closes connections beyond maxConnections at once and accepts again when some leave', async () => {
    const { listener, warnings, address } = await start(grpc.ServerCredentials.createInsecure(), 5);
    const held = await Promise.all(Array.from({ length: 5 }, () => openSocket(listener.port)));
    await new Promise((r) => setTimeout(r, 100));
    expect(listener.connections).toBe(5);
    const extra = await Promise.all(Array.from({ length: 3 }, () => openSocket(listener.port)));
    await Promise.all(extra.map((e) => e.closed));
    expect(listener.refused).toBe(3);
    expect(warnings).toEqual(['client connection refused: limits.maxConnections (5) reached']);
    for (const h of held) h.socket.destroy();
    await Promise.all(held.map((h) => h.closed));
    await new Promise((r) => setTimeout(r, 50));
    expect((await call(address)).toString()).toBe('ping');
  });

  it('closes a connection that makes no authenticated call within handshakeTimeoutMs; one that does stays', async () => {
    const { listener, warnings, address } = await start(grpc.ServerCredentials.createInsecure(), 100, {
      handshakeTimeoutMs: 300,
    });
    const silent = await openSocket(listener.port);
    const preface = await openSocket(listener.port);
    preface.socket.write('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n');
    const client = new EchoClient(address, grpc.credentials.createInsecure());
    cleanup.push(() => client.close());
    const echo = (client as unknown as Record<string, (...a: unknown[]) => void>)['echo']!;
    await new Promise((resolve, reject) =>
      echo.call(client, Buffer.from('x'), (err: Error | null) => (err ? reject(err) : resolve(undefined))),
    );
    expect(listener.pendingCount).toBe(2);
    await Promise.all([silent.closed, preface.closed]);
    expect(listener.closed.handshakeTimeoutMs).toBe(2);
    expect(warnings).toEqual([
      'client connection closed: no authenticated call within limits.handshakeTimeoutMs (300)',
    ]);
    // The authenticated connection outlived the deadline and still serves.
    await new Promise((r) => setTimeout(r, 400));
    expect(listener.connections).toBe(1);
    await new Promise((resolve, reject) =>
      echo.call(client, Buffer.from('y'), (err: Error | null) => (err ? reject(err) : resolve(undefined))),
    );
    expect(listener.connections).toBe(1);
  });

  it('refuses pending connections beyond maxPendingPerAddress from one address; other addresses get in', async () => {
    const { listener } = await start(grpc.ServerCredentials.createInsecure(), 100, {
      maxPendingPerAddress: 3,
    });
    const held = await Promise.all(Array.from({ length: 3 }, () => openSocket(listener.port, '127.0.0.2')));
    const extra = await openSocket(listener.port, '127.0.0.2');
    await extra.closed;
    expect(listener.closed.maxPendingPerAddress).toBe(1);
    const other = await openSocket(listener.port, '127.0.0.3');
    await new Promise((r) => setTimeout(r, 100));
    expect(other.socket.destroyed).toBe(false);
    expect(held.every((h) => !h.socket.destroyed)).toBe(true);
    expect(listener.pendingCount).toBe(4);
  });

  it('a new connection beyond maxPending closes the oldest pending one, never an authenticated one', async () => {
    const { listener, address } = await start(grpc.ServerCredentials.createInsecure(), 100, {
      maxPending: 3,
    });
    await call(address);
    const first = await openSocket(listener.port);
    const rest = await Promise.all(Array.from({ length: 2 }, () => openSocket(listener.port)));
    const newest = await openSocket(listener.port);
    await first.closed;
    await new Promise((r) => setTimeout(r, 100));
    expect(listener.closed.maxPending).toBe(1);
    expect([...rest, newest].every((h) => !h.socket.destroyed)).toBe(true);
    // The authenticated connection (the echo client's) is still open.
    expect(listener.connections).toBe(4);
  });
});
